#!/usr/bin/env python3
"""Screenshot check of the dashboard: renders an HTML dashboard (default:
the committed docs/dashboard-example.html) with headless Chromium and checks
the PNG has the window's size and is not blank. Skips, exit 0 with a clear
message, only when Chromium is not installed (scripts/setup.sh installs it).

Usage: screenshot_check.py [PAGE.html] [--png OUT.png] [--width 1280 --height 2000]
"""

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from opsnn import dashboard  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("page", nargs="?", default=str(ROOT / "docs" / "dashboard-example.html"))
    p.add_argument("--png", help="keep the screenshot here (default: a temporary file)")
    p.add_argument("--width", type=int, default=1280)
    p.add_argument("--height", type=int, default=2000)
    args = p.parse_args()
    if dashboard.find_chromium() is None:
        print("SKIPPED: dashboard screenshot check: Chromium is not installed "
              "(apt-get install chromium; scripts/setup.sh does)")
        return 0
    with tempfile.TemporaryDirectory(prefix="opsnn-shot-") as tmp:
        png = args.png or str(Path(tmp) / "dashboard.png")
        dashboard.screenshot(args.page, png, args.width, args.height)
        ok, message = dashboard.check_screenshot(png, args.width, args.height)
    print(("ok: " if ok else "FAILED: ") + message)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

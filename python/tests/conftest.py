import os
import sys
from pathlib import Path

# Run against the package in this checkout (no install needed).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("OPSNN_QUIET", "1")

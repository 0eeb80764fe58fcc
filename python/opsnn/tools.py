"""Finding and calling our native tools (`ops-nn-opt`, `ops-nn-run`).

The compiler lives in C++ (MLIR 22 from Debian, which ships no Python
bindings), so this package drives the two tools as subprocesses. They are
found through `$OPSNN_TOOLS_DIR` (the folder holding both), else
`$OPSNN_BUILD_DIR/bin`, else the repository's `build/bin` next to this
package (or under the current directory), else `PATH`.

Files are written atomically: into a temporary sibling first, renamed into
place only when the step succeeded (`atomic_file`, `atomic_dir`), so an
error never leaves a half-written output behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


class ToolError(RuntimeError):
    """A tool failed; the message carries its diagnostic."""


def _candidates():
    if os.environ.get("OPSNN_TOOLS_DIR"):
        yield Path(os.environ["OPSNN_TOOLS_DIR"])
    if os.environ.get("OPSNN_BUILD_DIR"):
        yield Path(os.environ["OPSNN_BUILD_DIR"]) / "bin"
    here = Path(__file__).resolve().parent
    for up in (here.parent.parent, here.parent):
        yield up / "build" / "bin"
    yield Path.cwd() / "build" / "bin"   # an installed package run from the repository


def find_tool(name: str) -> str:
    for folder in _candidates():
        path = folder / name
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    found = shutil.which(name)
    if found:
        return found
    raise ToolError(f"{name} not found: set OPSNN_TOOLS_DIR (the folder holding "
                    f"ops-nn-opt and ops-nn-run) or OPSNN_BUILD_DIR, or build the "
                    f"repository (ninja -C build)")


def _memory_limit():
    """`$OPSNN_TOOL_MEMORY_LIMIT_MB`: an address-space limit for the tools
    (a compile that would exhaust a shared machine fails cleanly instead)."""
    limit = os.environ.get("OPSNN_TOOL_MEMORY_LIMIT_MB")
    if not limit:
        return None
    nbytes = int(limit) * 2**20

    def apply():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (nbytes, nbytes))
    return apply


def run_tool(name: str, args, what: str, timeout: float | None = None) -> str:
    """Runs a tool; returns its stdout, raises ToolError with its stderr."""
    cmd = [find_tool(name)] + [str(a) for a in args]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              preexec_fn=_memory_limit())
    except subprocess.TimeoutExpired as error:
        raise ToolError(f"{what}: {name} timed out after {timeout} s") from error
    if proc.returncode != 0:
        detail = (proc.stderr or proc.stdout).strip()
        if proc.returncode < 0:
            detail += f"\n({name} was killed by signal {-proc.returncode})"
        if os.environ.get("OPSNN_TOOL_MEMORY_LIMIT_MB"):
            detail += (f"\n(run with an address-space limit of "
                       f"{os.environ['OPSNN_TOOL_MEMORY_LIMIT_MB']} MiB, "
                       f"OPSNN_TOOL_MEMORY_LIMIT_MB)")
        raise ToolError(f"{what} failed:\n{detail}")
    return proc.stdout


def progress(message: str) -> None:
    """Progress of long steps, on stderr (stdout stays for results)."""
    if os.environ.get("OPSNN_QUIET"):
        return
    print(f"opsnn: {message}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def atomic_file(path, mode="w"):
    """Yields a file object on a temporary sibling of `path`; renames it
    over `path` when the block succeeds, removes it when it raises."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode) as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_dir(path):
    """Yields a temporary sibling folder of `path`; it replaces `path` when
    the block succeeds and is removed when it raises."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    try:
        yield tmp
        if path.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent))
            os.rename(path, old / "x")
            os.rename(tmp, path)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise

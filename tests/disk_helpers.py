"""A small tmpfs to fill (shared by tests/test_faults.py and tests/test_write_routes.py). Imports
none of our packages."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def small_tmpfs(tmp_path: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` (as ``mount -o size=``, "4m") mounted at ``tmp_path / "disk"``, root
    only: skips the test when it cannot be mounted; unmounted at the end."""
    where = tmp_path / "disk"
    where.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("a small tmpfs needs root and mount")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)

"""A file a command writes (``brag export -o FILE``, ``brag share -o FILE``): replaced whole or
written as a stream, never left half written."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from brag.errors import CommandError

__all__ = ["write_output"]


def write_output(name: str, text: str | bytes, command: str = "export") -> None:
    """Writes ``text`` (UTF-8, or ``bytes`` as they are) to the path ``name``: a regular file
    (new or existing, a symlink followed to it) is replaced atomically, through a temporary file
    beside it, so a reader never sees half a file; a device, FIFO or socket (``/dev/stdout``, a
    pipe) is written as a stream, never replaced; a folder is refused. Raises
    :class:`~brag.errors.CommandError` (one line, naming ``command``)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    real = Path(os.path.realpath(name))  # a symlink is written through, not replaced
    try:
        mode: int | None = real.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as err:
        raise CommandError(f"cannot write {name}: {err.strerror}", command=command) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise CommandError(f"{name} is a folder; give a file name", command=command)
    try:
        if mode is not None and not stat.S_ISREG(mode):  # a device, a FIFO: a stream
            with open(real, "wb") as fp:
                fp.write(data)
            return
        if not real.parent.is_dir():
            raise CommandError(f"no folder {str(real.parent)!r} for {name}", command=command)
        fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fp:
                fp.write(data)
                fp.flush()
                os.fsync(fp.fileno())
            # mkstemp makes the file 0600; a new one gets what open() would give (0666 less
            # the umask), so a picture made to share can be read by others.
            os.chmod(tmp, stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
            os.replace(tmp, real)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as err:
        why = err.strerror or str(err)
        raise CommandError(f"cannot write {name}: {why}", command=command) from None


def _umask() -> int:
    """The process's umask (read by setting it and putting it back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask

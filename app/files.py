"""Writing files so that a crash leaves the old file or the new one, never half of one: the
terminal's and the server's scores.csv, uploaded decks. (The games only make the text.)"""

from __future__ import annotations

import os
import tempfile
from typing import Callable, Iterable


def write_atomically(path: str | os.PathLike, data: str | bytes | Iterable[str], *, prefix: str = ".write-",
                     sync: Callable[[int], None] = os.fsync) -> None:
    """Write ``data`` (text, bytes, or text in pieces) to ``path`` through a temporary file in the
    same folder, then rename it. The file keeps the old file's mode (else a normal 0644); the
    temporary file never stays. ``sync`` flushes the file to the disk (``os.fsync``; a server
    runs it off its event loop)."""
    target = os.path.abspath(os.fspath(path))
    folder = os.path.dirname(target)
    fd, temporary = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    try:
        if isinstance(data, bytes):
            handle = os.fdopen(fd, "wb")
        else:
            handle = os.fdopen(fd, "w", encoding="utf-8", newline="")
        with handle:
            for piece in (data,) if isinstance(data, (str, bytes)) else data:
                handle.write(piece)
            handle.flush()
            sync(handle.fileno())
        # mkstemp makes the file private (0600); keep the old file's mode, else a normal one.
        try:
            mode = os.stat(target).st_mode & 0o777
        except FileNotFoundError:
            mode = 0o644
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise

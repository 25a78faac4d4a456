"""What the terminal programs share: reading answers line by line so a session replays from a
file, and reading a named text file with messages a player understands.

This is the one module of ``app.core`` that reads and writes; no rules module imports it (a test
checks), only the terminal programs (``app.terminal`` and each game's ``__main__``).
"""

from __future__ import annotations

import os
import sys
from typing import IO


class EndOfInput(Exception):
    """Standard input ended: the program leaves quietly."""


class Console:
    """Standard input and output for a scripted or live session. Scripted answers (input not a
    terminal) are echoed after their prompt, so a transcript reads like the session did."""

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None, *, echo: bool | None = None):
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.echo = (not is_terminal(self.stdin)) if echo is None else echo

    def say(self, text: str = "", end: str = "\n") -> None:
        self.stdout.write(text + end)

    def ask(self, prompt: str) -> str:
        """One answer line (without its line ending); ``EndOfInput`` at the end of input."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            raise EndOfInput
        answer = line.rstrip("\r\n")
        if self.echo:
            self.say(answer)
        return answer


def is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def tolerate_bad_bytes() -> None:
    """Bytes that are not valid text (or a name the console cannot show) must not crash a
    terminal program: a bad byte reads as U+FFFD instead."""
    for stream in (sys.stdin, sys.stdout):
        try:
            stream.reconfigure(errors="replace")
        except (AttributeError, ValueError, OSError):
            pass


class FileProblem(ValueError):
    """A named file that cannot be read; the message says why."""


def read_text_file(path: str | os.PathLike, *, limit: int = 1_000_000, what: str = "file") -> str:
    """The text of ``path`` (UTF-8, a BOM allowed), or ``FileProblem``: missing, a folder,
    unreadable, too large, not text."""
    name = os.fspath(path)
    shown = os.path.basename(name)
    try:
        with open(name, "rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise FileProblem(f"there is no {what} named '{shown}'") from None
    except IsADirectoryError:
        raise FileProblem(f"'{shown}' is a folder, not a {what}") from None
    except OSError as error:
        raise FileProblem(f"'{shown}' cannot be read: {error.strerror}") from None
    except ValueError:  # a NUL character in the typed name: no file can have that name
        raise FileProblem(f"there is no {what} named {shown!r}") from None
    if len(data) > limit:
        raise FileProblem(f"the file is far too large to be a {what}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileProblem(f"the file is not text (it is not UTF-8): a {what} holds card codes") from None

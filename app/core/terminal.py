"""What the terminal programs share: reading answers line by line so a session replays from a
file, numbered menus, reading a named text file with messages a player understands, and writing
a file whole or not at all.

This is the one module of ``app.core`` that reads and writes; no rules module imports it (a test
checks), only the terminal programs (``app.terminal`` and each game's ``__main__``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, Any

from .menus import NotAChoice, parse_choice
from .protocol import GameDefinition, Option


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

    def menu(self, title: str, options: Sequence[str], prompt: str = "Your choice") -> int:
        """Show a numbered menu and ask until one of its numbers is given (R9.1)."""
        while True:
            self.say(title)
            for number, option in enumerate(options, start=1):
                self.say(f"{number}. {option}")
            try:
                return parse_choice(self.ask(f"{prompt} (1-{len(options)}): "), len(options))
            except NotAChoice as error:
                self.say(str(error))

    def ask_number(self, question: str, count: int) -> int:
        """One number from 1 to ``count``; anything else says why and asks the same again."""
        while True:
            try:
                return parse_choice(self.ask(f"{question} (1-{count}): "), count)
            except NotAChoice as error:
                self.say(str(error))


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
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]  # (a replaced stream may lack it)
        except (AttributeError, ValueError, OSError):
            pass


class FileProblem(ValueError):
    """A named file that cannot be read; the message says why."""


def read_text_file(path: str | os.PathLike[str], *, limit: int = 1_000_000, what: str = "file") -> str:
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


def write_atomically(path: str | os.PathLike[str], data: str | bytes | Iterable[str], *, prefix: str = ".write-",
                     sync: Callable[[int], None] = os.fsync) -> None:
    """Write ``data`` (text, bytes, or text in pieces) to ``path`` through a temporary file in the
    same folder, then rename it: a crash leaves the old file or the new one, never half of one.
    The file keeps the old file's mode (else a normal 0644); the temporary file never stays.
    ``sync`` flushes the file to the disk (``os.fsync``; a server runs it off its event loop)."""
    target = os.path.abspath(os.fspath(path))
    folder = os.path.dirname(target)
    fd, temporary = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    try:
        handle: IO[str] | IO[bytes]
        if isinstance(data, bytes):
            handle = os.fdopen(fd, "wb")
        else:
            handle = os.fdopen(fd, "w", encoding="utf-8", newline="")
        with handle:
            for piece in (data,) if isinstance(data, (str, bytes)) else data:
                handle.write(piece)  # type: ignore[arg-type]  # bytes to a binary file, text to a text one
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


# -- house rules as command-line options ---------------------------------------------------------------


def house_rule_flag(option: Option) -> str:
    """The command-line option of a house rule: ``--must-discard``, ``--stock-out end_hand``;
    a rule on by default is switched off by ``--no-...``."""
    name = option.key.replace("_", "-")
    return f"--no-{name}" if option.kind == "bool" and option.default else f"--{name}"


def add_house_rules(parser: argparse.ArgumentParser, definition: GameDefinition, *,
                    skip: Iterable[str] = ()) -> None:
    """Every house rule of ``definition`` (``Option.house``) as an option of ``parser`` (its help
    says the rule book's default); ``skip``: rules the program already has an option of."""
    group = parser.add_argument_group("house rules (each default is the rule book's rule)")
    for option in definition.options:
        if not option.house or option.key in skip:
            continue
        dest = f"house_{option.key}"
        if option.kind == "bool":
            group.add_argument(house_rule_flag(option), dest=dest, action="store_true", help=option.help)
        elif option.kind == "choice":
            group.add_argument(house_rule_flag(option), dest=dest, default=None,
                               choices=[value for value, _label in option.choices],
                               help=f"{option.help} (default {option.default})")
        else:
            group.add_argument(house_rule_flag(option), dest=dest, default=None, metavar="N",
                               help=f"{option.help} ({option.low} to {option.high}, default {option.default})")


def house_rules_chosen(args: argparse.Namespace, definition: GameDefinition) -> dict[str, Any]:
    """The house rules given on the command line, as raw option values (the definition's
    ``validate_options`` reads them; ``OptionError`` says what is wrong)."""
    chosen: dict[str, Any] = {}
    for option in definition.options:
        given = getattr(args, f"house_{option.key}", None)
        if not option.house or given is None or given is False:
            continue
        chosen[option.key] = (not option.default) if option.kind == "bool" else given
    return chosen


def house_rules_line(definition: GameDefinition, values: Mapping[str, Any]) -> str | None:
    """The line a terminal program prints under its first line when a house rule differs from
    the rule book ("House rules: Go out by discarding: yes."); None at the rule book's game, so
    the program's output stays word for word."""
    rules = definition.house_rules(values)
    if not rules:
        return None
    return "House rules: " + "; ".join(f"{label}: {words}" for label, words in rules) + "."


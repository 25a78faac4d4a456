"""The long-term score table and the exact ``scores.csv`` format (R7.4, R7.5).

``ScoreTable.to_csv``/``from_csv`` are the one reader and writer of the format; the terminal, the
web export/import and the admin CLI all use them. Pure text: the doors read and write the file.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.core.names import COMPUTER_NAME, MAX_NAME_LENGTH, check_player_name, is_computer_name  # noqa: F401  (R3.2)
from app.core.protocol import ScoreFileError

HEADER = ("name", "games won", "games lost", "best score")  # R7.5, in this order
# Cells a spreadsheet would run as a formula. Exported names starting with one of these (or with
# the escaping quote itself) get a leading "'", which import removes again, so names round-trip.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
ESCAPE = "'"


class ScoresFileError(ScoreFileError):
    """A ``scores.csv`` that cannot be read; ``line`` is the 1-based line of the problem."""


@dataclass
class ScoreRow:
    """R7.4: games won, games lost and the best (lowest) winning score, empty until a win."""

    name: str
    won: int = 0
    lost: int = 0
    best: int | None = None

    def record(self, won: bool, score: int) -> None:
        if won:
            self.won += 1
            self.best = score if self.best is None else min(self.best, score)
        else:
            self.lost += 1


class ScoreTable:
    """The score table: one row per name, names unique regardless of case."""

    def __init__(self, rows: Iterable[ScoreRow] = ()):
        self.scores: dict[str, ScoreRow] = {}
        for row in rows:
            self.scores[row.name.casefold()] = row

    # -- the original assignment's methods --------------------------------------------------

    def read_scores(self, text: str | None) -> None:
        """Load the table from ``scores.csv`` text; None (a missing file) is an empty table
        (R7.5). Raises ScoresFileError, leaving the table as it was."""
        self.scores = {} if text is None else ScoreTable.from_csv(text).scores

    def save_scores(self) -> str:
        """The table as ``scores.csv`` text (R7.5), for the caller to write."""
        return self.to_csv()

    def clear_scores(self) -> None:
        self.scores = {}

    def __str__(self) -> str:
        rows = self.sorted_rows()
        if not rows:
            return "No scores yet."
        width = max([len("Name")] + [len(row.name) for row in rows])
        lines = [f"{'Name':<{width}}  Won  Lost  Best"]
        for row in rows:
            best = "" if row.best is None else str(row.best)
            lines.append(f"{row.name:<{width}}  {row.won:>3}  {row.lost:>4}  {best:>4}")
        return "\n".join(lines)

    # -- queries and updates --------------------------------------------------------------------

    def get(self, name: str) -> ScoreRow | None:
        return self.scores.get(name.casefold())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.casefold() in self.scores

    def __len__(self) -> int:
        return len(self.scores)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScoreTable) and self.scores == other.scores

    def sorted_rows(self) -> list[ScoreRow]:
        return sorted(self.scores.values(), key=lambda row: (row.name.casefold(), row.name))

    def names(self) -> list[str]:
        """Every name, sorted case-insensitively (Menu C order, R3.3)."""
        return [row.name for row in self.sorted_rows()]

    def record_game(self, results: Iterable[tuple[str, int, bool]]) -> None:
        """R7.4: add each seat's result (name, game score, won?) the moment a game ends.

        Every seated name gets a row; several ``AI`` seats all count on the one ``AI`` row.
        """
        for name, score, won in results:
            if is_computer_name(name):
                name = COMPUTER_NAME
            row = self.get(name)
            if row is None:
                row = self.scores[name.casefold()] = ScoreRow(name)
            row.record(won, score)

    # -- the scores.csv format (R7.5) ---------------------------------------------------------------

    def to_csv(self) -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\n")
        writer.writerow(HEADER)
        for row in self.sorted_rows():
            best = "" if row.best is None else str(row.best)
            writer.writerow((_escape_formula(row.name), str(row.won), str(row.lost), best))
        return buffer.getvalue()

    @classmethod
    def from_csv(cls, text: str) -> ScoreTable:
        """Parse R7.5 text, all or nothing: any bad row rejects the whole file with its line."""
        table = cls()
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        header_seen = False
        try:
            for fields in reader:
                line = reader.line_num
                if not fields or all(not field.strip() for field in fields):
                    continue  # blank lines carry nothing
                if not header_seen:
                    if tuple(field.strip().casefold() for field in fields) != HEADER:
                        raise ScoresFileError(
                            'the first row must be the header "name","games won","games lost","best score"', line)
                    header_seen = True
                    continue
                if len(fields) != len(HEADER):
                    raise ScoresFileError("expected 4 fields (name, games won, games lost, best score), "
                                          f"found {len(fields)}", line)
                row = _parse_row(fields, line)
                if row.name in table:
                    raise ScoresFileError(f"the name '{row.name}' appears twice (names are compared ignoring case)",
                                          line)
                table.scores[row.name.casefold()] = row
        except csv.Error as error:
            raise ScoresFileError(f"not valid CSV ({error})", reader.line_num) from None
        if not header_seen:
            raise ScoresFileError('the file is empty: it needs at least the header row '
                                  '"name","games won","games lost","best score"')
        return table


def decode_scores_bytes(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScoresFileError("the file is not UTF-8 text") from None


def _escape_formula(name: str) -> str:
    if name.startswith(FORMULA_STARTS) or name.startswith(ESCAPE):
        return ESCAPE + name
    return name


def _parse_count(text: str, what: str, line: int) -> int:
    value = text.strip()
    if not value.isdigit() or not value.isascii():
        raise ScoresFileError(f"'{value[:20]}' is not a whole number of {what}", line)
    if len(value) > 9:
        raise ScoresFileError(f"{what} '{value[:20]}' is too large", line)
    return int(value)


def _parse_row(fields: list[str], line: int) -> ScoreRow:
    raw_name = fields[0][1:] if fields[0].startswith(ESCAPE) else fields[0]
    try:
        name = check_player_name(raw_name)
    except ValueError as error:
        raise ScoresFileError(f"bad name: {error}", line) from None
    if is_computer_name(name):
        name = COMPUTER_NAME
    won = _parse_count(fields[1], "games won", line)
    lost = _parse_count(fields[2], "games lost", line)
    best = None if not fields[3].strip() else _parse_count(fields[3], "points for the best score", line)
    if won == 0 and best is not None:
        raise ScoresFileError(f"'{name}' has a best score but no games won (the best score is a winning score)", line)
    if won > 0 and best is None:
        raise ScoresFileError(f"'{name}' has won games but no best score", line)
    return ScoreRow(name, won, lost, best)


def diff_tables(current: ScoreTable, incoming: ScoreTable) -> dict[str, Any]:
    """What importing ``incoming`` over ``current`` adds, removes and changes (a preview)."""
    added = [row for key, row in sorted(incoming.scores.items()) if key not in current.scores]
    removed = [row for key, row in sorted(current.scores.items()) if key not in incoming.scores]
    changed, unchanged = [], 0
    for key, row in sorted(incoming.scores.items()):
        old = current.scores.get(key)
        if old is None:
            continue
        if old == row:
            unchanged += 1
        else:
            changed.append((old, row))
    return {"added": added, "removed": removed, "changed": changed, "unchanged": unchanged}

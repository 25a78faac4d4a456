"""Importing a score table's file (scores.csv) into a running server without making anybody
wait: a 30,000-row file is parsed and compared a slice at a time, with a pause between slices
(``let_others_run``: under gunicorn's gevent workers, the worker's other requests run in it), so
no slice holds the worker for more than a few milliseconds. The file format and its checks stay
the game's (its ``ScoreTableFormat``: ``from_csv``, R7.5), applied slice by slice; a file of up
to ``SLICE`` rows is parsed whole, as before.

An import is previewed first (``remember``: the file waits in the database with a mark of the
table it was compared with), then applied all or nothing (``apply``), unless the table changed
since the preview."""

from __future__ import annotations

import csv
import heapq
import re
import secrets
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext

from .. import store
from . import scores_file
from ..extensions import db
from ..store.models import PendingImport, ScoreEntry
from .offload import let_others_run
from . import score_table
from ..core.protocol import ScoreLine
from ..core.refusal import Refusal

SLICE = 1000  # rows parsed (or compared) between two pauses
PREVIEW_ROWS = 100  # rows a preview lists of each kind of change (the counts say how many in all)


def parse(text: str) -> Any:
    """The format's ``from_csv(text)``, the same table and the same refusals (the reason and the
    line), a slice of rows at a time: each slice is parsed under the file's header row, its line
    numbers shifted back to the file's, and a name met in an earlier slice is refused as twice."""
    file_format = score_table.file_format()
    table_class, file_error = file_format.table, file_format.file_error
    lines = text.split("\n")  # (as the csv module splits them; "\r\n" keeps its "\r")
    lines = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    if len(lines) <= SLICE + 1:
        return table_class.from_csv(text)
    first = next((index for index, line in enumerate(lines) if line.strip()), 0)
    table = table_class.from_csv("".join(lines[:first + 1]))  # the header row (R7.5), or its refusal
    header = lines[first]
    for start in range(first + 1, len(lines), SLICE):
        part = lines[start:start + SLICE]
        try:
            rows = table_class.from_csv(header + "".join(part))
        except file_error as error:
            raise file_error(error.reason, start + error.line - 1 if error.line else None) from None
        for key, row in rows.scores.items():
            if key in table.scores:
                raise file_error(f"the name '{row.name}' appears twice (names are compared ignoring case)",
                                 start + 1 + _line_of(part, key))
            table.scores[key] = row
        let_others_run()
    return table


def _line_of(part: list[str], key: str) -> int:
    """The index in ``part`` of the row whose name is ``key`` (casefolded)."""
    escape = score_table.file_format().escape
    for index, fields in enumerate(csv.reader(part)):
        if fields:
            name = fields[0][1:] if fields[0].startswith(escape) else fields[0]
            if name.strip().casefold() == key:
                return index
    return 0


def preview(current: Any, incoming: Any) -> dict[str, Any]:
    """What importing ``incoming`` over ``current`` adds, changes and removes (as
    ``diff_tables`` says), with only the first ``PREVIEW_ROWS`` rows of each kind, by name, and
    how many of each there are, compared a slice at a time."""
    added: list[ScoreLine] = []
    changed: list[tuple[ScoreLine, ScoreLine]] = []
    unchanged = 0
    for count, (key, row) in enumerate(incoming.scores.items(), start=1):
        old = current.scores.get(key)
        if old is None:
            added.append(row)
        elif old == row:
            unchanged += 1
        else:
            changed.append((old, row))
        if count % SLICE == 0:
            let_others_run()
    removed: list[ScoreLine] = []
    for count, (key, row) in enumerate(current.scores.items(), start=1):
        if key not in incoming.scores:
            removed.append(row)
        if count % SLICE == 0:
            let_others_run()

    def by_name(row: ScoreLine) -> str:
        return row.name.casefold()

    return {"added": heapq.nsmallest(PREVIEW_ROWS, added, key=by_name),
            "changed": heapq.nsmallest(PREVIEW_ROWS, changed, key=lambda pair: by_name(pair[1])),
            "removed": heapq.nsmallest(PREVIEW_ROWS, removed, key=by_name),
            "counts": {"added": len(added), "changed": len(changed), "removed": len(removed)},
            "unchanged": unchanged}


# -- preview, then apply ---------------------------------------------------------------------------


TOKEN = re.compile(r"[A-Za-z0-9_-]{1,40}")  # token_urlsafe's alphabet



class ImportRefused(Refusal):
    """An import that cannot be applied (any more); the score table is unchanged."""

    status = 409


@store.transaction
def remember(text: str, mark: str) -> str:
    """Keep a previewed file until the admin applies or cancels it; its token."""
    pending = PendingImport(token=secrets.token_urlsafe(16), csv_text=text, table_digest=mark)
    store.begin_write()
    db.session.add(pending)
    db.session.commit()
    return pending.token


@store.transaction
def apply(token: str, cancel: bool = False) -> bool:
    """Apply a previewed import, all or nothing, unless the table changed since the preview
    (``ImportRefused``); or forget it (``cancel``). Whether it was applied.

    In bulk, so that no other request waits behind it: the file is parsed a slice at a time,
    without any lock; then one short write transaction checks that the table is still the one
    the preview saw (``score_table.mark``: no game has ended since), deletes the old rows and
    inserts the new ones in bulk."""
    pending = None
    if TOKEN.fullmatch(token):  # checked before the query
        pending = db.session.scalar(sa.select(PendingImport).where(PendingImport.token == token))
    if pending is None:
        raise ImportRefused(gettext("That import was already applied or cancelled."))
    pending_id, text, seen = pending.id, pending.csv_text, pending.table_digest
    db.session.commit()  # (a read: the parsing below holds no lock)
    if cancel:
        forget(pending_id)
        return False
    rows = score_table.rows_for_insert(parse(text))

    store.begin_write()
    if db.engine.dialect.name == "postgresql":  # game ends wait until the import is in
        db.session.execute(sa.text(f"LOCK TABLE {ScoreEntry.__tablename__} IN SHARE ROW EXCLUSIVE MODE"))
    if db.session.get(PendingImport, pending_id) is None:  # applied or cancelled meanwhile
        raise ImportRefused(gettext("That import was already applied or cancelled."))
    if not secrets.compare_digest(score_table.mark(), seen):
        db.session.execute(sa.delete(PendingImport).where(PendingImport.id == pending_id))
        db.session.commit()
        raise ImportRefused(gettext("The score table changed since the preview (a game ended): upload the file "
                                    "again to see a new preview."))
    score_table.replace(None, rows)
    db.session.execute(sa.delete(PendingImport).where(PendingImport.id == pending_id))
    db.session.commit()
    scores_file.mark_stale()
    return True


def forget(pending_id: int) -> None:
    store.begin_write()
    db.session.execute(sa.delete(PendingImport).where(PendingImport.id == pending_id))
    db.session.commit()

"""Importing an exported game, off the request path. The admin's request reads what costs little
(``replays.read_file``: the JSON, its shape, its names) and queues the file for the job runner
(``import_game``); the runner has the tables replay it through its rules and store it if they
accept it (``check_import``: 20,000 actions take seconds, which no request may hold a worker
for); the admin's page shows the verdict once it is kept (``import_verdict``).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from ..core.protocol import N_
from ..extensions import db
from ..solving import kept
from .. import store
from . import news, replays
from .replays import AlreadyHere, ReplayError

log = logging.getLogger(__name__)

KEY_PREFIX = "import:"
TOKEN_LENGTH = 57  # of the file's digest (hex), in its job's key (64 characters at most)
TOKEN = re.compile(r"[0-9a-f]{%d}" % TOKEN_LENGTH)


@dataclass(frozen=True)
class ImportVerdict:
    """Where the check of an imported file stands: being checked, or imported (the game's
    ``slug``), or refused (the reason)."""

    token: str
    checking: bool
    slug: str | None = None
    refused: str | None = None


@news.command
def import_game(text: str) -> str:
    """Queue an exported game's file for the job runner, once what can be checked without
    replaying it is right; the token its verdict is asked by. ``ReplayError`` says what is
    wrong with the file, ``AlreadyHere`` that its game was imported before."""
    data = replays.read_file(text)
    digest = replays.import_digest(data)
    store.begin_write()  # (before the look-up: the same file sent twice at once is queued once)
    existing = replays.game_already_here(digest)
    if existing is not None:
        raise AlreadyHere(existing.slug)
    token = digest[:TOKEN_LENGTH]
    kept.ask_import(KEY_PREFIX + token, data["game"], text)
    db.session.commit()
    return token


def check_import(key: str, *, file: str) -> dict[str, Any]:
    """The job runner's check of a queued file (``signals.import_due``): the game stored, or why
    not, as its verdict (``{"slug": ...}`` or ``{"refused": ...}``). Never raises: a file that
    cannot be checked is refused, or the runner would take it up again for ever."""
    try:
        return {"slug": replays.store_import(file)}
    except AlreadyHere as already:  # (checked before: its verdict was not kept, the game was)
        return {"slug": already.slug}
    except ReplayError as error:  # (in English, and as the catalogue's message for the page's reader)
        return {"refused": str(error), "words": [error.template, error.fields]}
    except Exception as error:
        db.session.rollback()
        log.exception("an imported game's file (%s) could not be checked", key)
        cannot = N_("The file could not be checked: %(why)s")
        return {"refused": cannot % {"why": str(error)[:200]}, "words": [cannot, {"why": str(error)[:200]}]}


def import_verdict(token: str) -> ImportVerdict | None:
    """Where the check of the file queued as ``token`` stands (None: no such file)."""
    if not TOKEN.fullmatch(token):
        return None
    found = kept.import_verdict(KEY_PREFIX + token)
    if found is None:
        return None
    state, verdict = found
    if state == kept.CHECKING or verdict is None:
        return ImportVerdict(token, checking=True)
    slug = verdict.get("slug")
    if isinstance(slug, str):
        return ImportVerdict(token, checking=False, slug=slug)
    words = verdict.get("words")
    if isinstance(words, list) and len(words) == 2 and isinstance(words[0], str) and isinstance(words[1], dict):
        return ImportVerdict(token, checking=False, refused=ReplayError(words[0], **words[1]).words())
    return ImportVerdict(token, checking=False,
                         refused=str(verdict.get("refused") or gettext("The file was not imported.")))

"""Admin: log in, manage stacked decks (app/tables/decks.py: uploads are kept in the database, so every
server sharing it offers them), import a scores.csv (preview, then apply)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec

from flask import Blueprint, abort, current_app, g, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.utils import secure_filename

from .. import tables
from ..core import registry
from ..core.decks import DeckError, decode_deck_bytes
from ..core.protocol import GameDefinition
from ..records import score_import, score_table
from ..tables import decks as stacked_decks
from . import identity
from .addresses import client_address
from .input_checks import local_path

bp = Blueprint("admin", __name__, url_prefix="/admin")

MAX_DECK_BYTES = 64 * 1024  # a deck is 65 codes; anything this large is not one
MAX_SCORES_BYTES = 1024 * 1024


def is_admin() -> bool:
    """Whether this browser is logged in as the admin: its session cookie names a live
    server-side admin session (``tables.admins``), opened with the current password."""
    if "is_admin" not in g:
        g.is_admin = tables.is_admin(session.get("admin"))
    return bool(g.is_admin)


def end_admin_session() -> None:
    """Logout (and Quit): this browser's admin session ends on the server, so a copy of the
    cookie taken before is worth nothing."""
    tables.log_out(session.pop("admin", None))


P = ParamSpec("P")


def admin_required(view: Callable[P, ResponseReturnValue]) -> Callable[P, ResponseReturnValue]:
    @functools.wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> ResponseReturnValue:
        if not is_admin():
            if request.method == "GET":
                return redirect(url_for("admin.login", next=request.path), 303)
            abort(403, gettext("Only the admin can do this: log in on the Admin page first."))
        return view(*args, **kwargs)

    return wrapper


# -- logging in ----------------------------------------------------------------------------------


@bp.get("/login")
def login() -> ResponseReturnValue:
    return render_template("admin/login.html", message=None, next=request.args.get("next", ""))


@bp.post("/login")
def do_login() -> ResponseReturnValue:
    # Back to the admin page that asked for the password (the import of a game is one, outside /admin).
    target = local_path(request.form.get("next")) or ""
    if not target.startswith(("/admin", url_for("history.import_game"))):
        target = url_for("admin.index")
    try:
        session["admin"] = tables.log_in(client_address(), request.form.get("password", ""))
    except tables.LoginRefused as refused:
        return render_template("admin/login.html", next=target, message=refused.message), refused.status
    return redirect(target, 303)


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    end_admin_session()
    return redirect(url_for("menu.index"), 303)


# -- decks -----------------------------------------------------------------------------------------


def deck_previews() -> list[dict[str, Any]]:
    """Every game's decks (its folder's and the uploaded ones), each with how it deals (the
    game's own deal, e.g. R4.2)."""
    root = current_app.config["DECKS_FOLDER"]
    previews: list[dict[str, Any]] = []
    for definition in registry.games():
        if definition.deck is None:
            continue
        stored = stacked_decks.uploaded(definition)
        for name in stacked_decks.deck_names(root, definition):
            entry: dict[str, Any] = {"definition": definition, "name": name, "parts": [], "error": None}
            try:
                entry["parts"] = definition.deck_preview(
                    stacked_decks.read_offered(root, definition, name, stored=stored))
            except DeckError as error:
                entry["error"] = str(error)
            previews.append(entry)
    return previews


def render_admin(message: str | None = None, error: str | None = None, status: int = 200,
                 chosen: str | None = None) -> ResponseReturnValue:
    """The admin page; ``chosen``: the game the deck upload form has selected (the one just used)."""
    games = [definition for definition in registry.games() if definition.deck is not None]
    return render_template("admin/index.html", decks=deck_previews(), message=message, error=error,
                           deck_games=games, chosen=chosen, games=tables.unfinished(identity.looker())), status


def deck_game() -> GameDefinition:
    """The game a deck form is about (the first game with decks unless the form says otherwise)."""
    default = next((definition.key for definition in registry.games() if definition.deck is not None), "")
    try:
        definition = registry.get(request.form.get("game") or default)
    except registry.UnknownGame:
        raise ValueError(gettext("Choose one of the table's games.")) from None
    if definition.deck is None:
        raise ValueError(gettext("%(game)s has no stacked decks.", game=definition.name))
    return definition


def posted_file_name() -> str:
    """The name of the file the form sent, as its sender named it (for messages)."""
    upload = request.files.get("deck")
    return (upload.filename or "")[:80] if upload is not None else ""


@bp.get("")
@admin_required
def index() -> ResponseReturnValue:
    return render_admin()


def uploaded(field: str, extension: str, limit: int) -> tuple[str, bytes]:
    """The uploaded file's safe name and bytes, or DeckError/ScoresFileError-style ValueError."""
    upload = request.files.get(field)
    if upload is None or not upload.filename:
        raise ValueError(gettext("Choose a file to upload."))
    name = secure_filename(upload.filename)
    if not name.lower().endswith(extension) or len(name) <= len(extension):
        raise ValueError(gettext("Only %(extension)s files can be uploaded here.", extension=extension))
    name = name[:-len(extension)] + extension  # "Game.DECK" is stored as "Game.deck", so decks/ lists it
    data = upload.stream.read(limit + 1)
    if len(data) > limit:
        raise ValueError(gettext("The file is too large: a %(extension)s file here is at most %(num)s KB.", extension=extension, num=limit // 1024))
    if not data.strip():
        raise ValueError(gettext("The file is empty."))
    return name, data


@bp.post("/decks")
@admin_required
def upload_deck() -> ResponseReturnValue:
    """Store a deck file in the game's folder only if the game's parser accepts it (R2 for Mason
    Rummy), under a safe name."""
    try:
        definition = deck_game()
    except ValueError as error:
        return render_admin(error=gettext("The deck was not stored: %(why)s", why=error), status=400)
    chosen = definition.key
    sent = posted_file_name()
    which = (gettext("The deck %(file)s for %(game)s", file=sent, game=definition.name) if sent
             else gettext("The deck for %(game)s", game=definition.name))
    try:
        name, data = uploaded("deck", ".deck", MAX_DECK_BYTES)
        if len(name) > stacked_decks.MAX_DECK_NAME:  # a game keeps its deck's name (games.deck_name)
            raise ValueError(gettext("a deck file's name can have at most %(most)s characters (this one has %(num)s): "
                                     "rename the file and upload it again.", most=stacked_decks.MAX_DECK_NAME, num=len(name)))
        definition.parse_deck(decode_deck_bytes(data))
    except (ValueError, DeckError) as error:
        return render_admin(error=gettext("%(deck)s was not stored: %(why)s", deck=which, why=error), status=400, chosen=chosen)
    try:
        stacked_decks.store_upload(current_app.config["DECKS_FOLDER"], definition, name, data,
                                   replace=request.form.get("replace") == "1")
    except stacked_decks.DeckExists:  # (here, or stored by another server just now)
        return render_admin(error=gettext("%(game)s has a deck named %(name)s already: tick 'replace' to overwrite it.",
                                          game=definition.name, name=name), status=409, chosen=chosen)
    except OSError as error:
        current_app.logger.warning("deck upload %s not stored: %s", name, error.strerror)
        return render_admin(error=gettext("%(deck)s was not stored: the decks folder refused it (%(why)s).", deck=which,
                                          why=error.strerror),
                            status=400, chosen=chosen)
    return render_admin(message=gettext("%(name)s was checked and stored for %(game)s.", name=name, game=definition.name), chosen=chosen)


@bp.post("/decks/<name>/delete")
@admin_required
def delete_deck(name: str) -> ResponseReturnValue:
    try:
        definition = deck_game()
    except ValueError as error:
        return render_admin(error=str(error), status=400)
    if not stacked_decks.withdraw(current_app.config["DECKS_FOLDER"], definition, name):
        return render_admin(error=gettext("%(game)s has no deck named %(name)s.", game=definition.name, name=name[:80]), status=404,
                            chosen=definition.key)
    return render_admin(message=gettext("%(name)s was deleted from the decks of %(game)s.", name=name, game=definition.name),
                        chosen=definition.key)


# -- importing scores.csv --------------------------------------------------------------------------


@bp.get("/scores/import")
@admin_required
def import_form() -> ResponseReturnValue:
    return render_template("admin/import.html", error=None)


@bp.post("/scores/import")
@admin_required
def import_preview() -> ResponseReturnValue:
    """Validate the whole file (R7.5), then show what would change; nothing changes yet. Parsed,
    read and compared a slice at a time (app/records/score_import.py): a 30,000-row file keeps no other
    request waiting."""
    if score_table.game() is None:
        abort(404)
    try:
        _name, data = uploaded("scores", ".csv", MAX_SCORES_BYTES)
        text = score_table.file_format().decode(data)
        incoming = score_import.parse(text)
    except ValueError as error:  # (the format's file errors are ValueErrors)
        return render_template("admin/import.html", error=gettext("The file was not imported: %(why)s", why=error)), 400
    current, mark = score_table.table_and_mark()
    diff = score_import.preview(current, incoming)
    token = score_import.remember(text, mark)
    return render_template("admin/import_preview.html", token=token, diff=diff, total=len(incoming),
                           shown=score_import.PREVIEW_ROWS)


@bp.post("/scores/import/<token>")
@admin_required
def import_apply(token: str) -> ResponseReturnValue:
    """Apply a previewed import, all or nothing, unless the table changed since the preview (or
    cancel it)."""
    try:
        applied = score_import.apply(token, cancel="cancel" in request.form)
    except score_import.ImportRefused as refused:
        return render_template("admin/import.html", error=refused.message), refused.status
    if not applied:
        return redirect(url_for("admin.index"), 303)
    return redirect(url_for("scores.index", imported=1), 303)

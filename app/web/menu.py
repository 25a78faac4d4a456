"""The home page: a tile for every registered game (its picture drawn from its own cards, its
players, one line, Play and How to play), joining a table by its code, and the unfinished games to
resume or watch. The game set up through menus (Mason Rummy) has its first menu (Menu A, R9) at
its own address, ``/menus/<key>``, reached from its tile's Play; and Quit."""

from __future__ import annotations

import secrets

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from .. import tables
from ..core import registry
from ..core.menus import NotAChoice, parse_choice
from ..core.protocol import GameDefinition
from . import admin, identity
from .setup import menu_flow, menu_game

bp = Blueprint("menu", __name__)


def play_url(definition: GameDefinition) -> str:
    """Where a game's Play leads: its first menu for the game set up through menus, else its
    set-up form."""
    if definition is menu_game():
        return url_for("menu.menus", key=definition.key)
    return url_for("setup.game", key=definition.key)


@bp.get("/")
def index() -> ResponseReturnValue:
    return render_template("menu/index.html", tiles=registry.games(), games=tables.unfinished(identity.looker()),
                           play_url=play_url)


def the_menu_game(key: str) -> GameDefinition:
    """The game set up through menus, if ``key`` names it (any other key: not found)."""
    definition = menu_game()
    if definition is None or definition.key != key:
        abort(404)
    return definition


def menu_page(definition: GameDefinition, message: str | None = None, status: int = 200) -> ResponseReturnValue:
    assert definition.menus is not None  # (a game set up through menus has them)
    return render_template("menu/menus.html", definition=definition, options=definition.menus.first_menu,
                           message=message), status


@bp.get("/menus/<key>")
def menus(key: str) -> ResponseReturnValue:
    """The first menu of the game set up through menus (R9: Menu A), as a form."""
    return menu_page(the_menu_game(key))


@bp.post("/menus/<key>")
def choose(key: str) -> ResponseReturnValue:
    """Menu A as a form: the answer is the option's number, as in the terminal (R9.1)."""
    definition = the_menu_game(key)
    menus = menu_flow()
    try:
        choice = parse_choice(request.form.get("choice", ""), len(menus.first_menu))
    except NotAChoice as error:
        return menu_page(definition, str(error), 400)
    if choice == menus.view_scores:
        return redirect(url_for("scores.index"), 303)
    if choice == menus.quit:
        return quit_session()
    players, stacked = menus.games[choice]
    # The menus' set-up begins (its deck prompt and Menus B and C keep their own routes: the
    # token makes the last seat's form posted twice at once one game, app/tables); the page
    # that answers is the one set-up form, with this many seats and, stacked, its decks first.
    session["setup"] = {"players": players, "stacked": stacked, "deck": None, "seats": [],
                        "token": secrets.token_urlsafe(12)}
    form = url_for("setup.game", key=definition.key, seats=players)
    return redirect(form + ("&stacked=1" if stacked else ""), 303)


@bp.post("/quit")
def quit_session() -> ResponseReturnValue:
    """Quit ends this browser's session: a setup in progress and admin rights are forgotten.

    Seats in unfinished games are kept (the browser keeps its key), so a quit never strands the
    other players: the home page offers to resume them. Those of finished games are let go."""
    kept = tables.let_go_of_finished_games(identity.holder())
    key = identity.browser_key()
    admin.end_admin_session()
    session.clear()
    if key is not None:
        session[identity.BROWSER_KEY] = key
        session.permanent = True
    return render_template("menu/goodbye.html", kept=kept)

"""Setting up a game: one form for every game (``/setup/<key>``): each seat played by a person on
this device, a person on their own device (a join code) or the computer at a strength; a person
in a game with a score table is a new or a returning player (R3.2, R3.3); the game's options and a
stacked deck. A game set up through menus (Mason Rummy's R9) keeps them at their own routes too:
after the home page's first menu, the stacked-deck prompt (R2.2) and the seats, Menus B and C
(R3), one question a page as the terminal asks them."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from .. import records, tables
from ..core import registry
from ..core.cards import Card
from ..core.decks import DeckError
from ..core.menus import NotAChoice, parse_choice
from ..core.names import (
    COMPUTER_NAME, MAX_NAME_LENGTH, NameRefused, admit_new_name, check_player_name, is_computer_name, is_computer_record,
)
from ..core.protocol import MENUS, NORMAL, GameDefinition, MenuFlow, OptionError
from ..records import score_table
from ..tables import decks as stacked_decks
from ..tables import HERE, OWN
from . import identity
from .addresses import client_address
from .events import browser_id
from .htmx import is_htmx
from .words import game_words, render

bp = Blueprint("setup", __name__, url_prefix="/setup")

NEW, RETURNING = 1, 2  # the seat menu's answers


def menu_game() -> GameDefinition | None:
    """The game set up through menus, whose first menu is the home page's first form: the first
    registered game whose set-up flow is MENUS (None: the home page has no such menu)."""
    return next((definition for definition in registry.games() if definition.setup_flow == MENUS), None)


def menu_flow_game() -> GameDefinition:
    definition = menu_game()
    if definition is None:
        abort(404)
    return definition


def menu_flow() -> MenuFlow:
    """The menus of the game set up through them (``menu_flow_game``)."""
    menus = menu_flow_game().menus
    assert menus is not None  # (a game whose set-up flow is MENUS has its menus)
    return menus


def current_setup() -> dict[str, Any] | None:
    """The menus' set-up in progress (this browser's session), if any."""
    setup = session.get("setup")
    definition = menu_game()
    if definition is None or not isinstance(setup, dict):
        return None
    players = setup.get("players")
    return setup if type(players) is int and definition.min_seats <= players <= definition.max_seats else None


def setup_key(token: object) -> str | None:
    """A set-up form's token as this browser's (``events.browser_id`` with it): the same form
    posted from two browsers - a finished table's "Play this deal again" on two devices - sets
    up a game for each, and a form posted twice from one browser sets up one."""
    browser = browser_id()
    if not isinstance(token, str) or not token or browser is None:
        return None
    return hashlib.sha256(f"{browser}\n{token}".encode()).hexdigest()[:40]


def to_the_game_set_up(slug: str) -> ResponseReturnValue:
    """A set-up form posted again (a double-click) goes to the game its first post created (the
    browser holds its seats already)."""
    return redirect(url_for("play.table", slug=slug), 303)


def no_setup() -> ResponseReturnValue:
    """The setup ended (or never began): a repeated form lands on the game it created."""
    done = session.get("setup_done")
    if isinstance(done, str) and tables.exists(done):
        return redirect(url_for("play.table", slug=done), 303)
    return redirect(url_for("menu.index"), 303)


# -- the stacked deck prompt (R2.2) ----------------------------------------------------------


def deck_names(definition: GameDefinition) -> list[str]:
    return stacked_decks.deck_names(current_app.config["DECKS_FOLDER"], definition)


def resolve_deck(answer: str, definition: GameDefinition, seats: int | None = None) -> tuple[str, list[Card]]:
    """A deck file of the game's folder by name; only plain names (no folders) are looked up."""
    return stacked_decks.resolve(current_app.config["DECKS_FOLDER"], definition, answer, seats)


def render_deck(setup: dict[str, Any], message: str | None = None, answer: str = "",
                status: int = 200) -> ResponseReturnValue:
    template = "setup/_deck_form.html" if is_htmx() else "setup/deck.html"
    definition = menu_flow_game()
    return render_template(template, setup=setup, definition=definition, names=deck_names(definition), message=message,
                           answer=answer, decks_where=stacked_decks.where(definition)), status


@bp.get("/deck")
def deck() -> ResponseReturnValue:
    setup = current_setup()
    if setup is None or not setup.get("stacked"):
        return no_setup()
    return render_deck(setup)


@bp.post("/deck")
def choose_deck() -> ResponseReturnValue:
    setup = current_setup()
    if setup is None or not setup.get("stacked"):
        return no_setup()
    answer = request.form.get("deck", "").strip()
    if "cancel" in request.form or answer.casefold() == "no":  # R2.2: "no" goes back to Menu A
        session.pop("setup", None)
        return redirect(url_for("menu.menus", key=menu_flow_game().key), 303)
    if not answer:
        return render_deck(setup, gettext("Type a deck file name, or no to go back to the main menu."), answer, 422)
    try:
        name, _cards = resolve_deck(answer, menu_flow_game())
    except DeckError as error:
        return render_deck(setup, gettext("That deck cannot be used: %(why)s.", why=error), answer, 422)
    setup["deck"] = name
    session["setup"] = setup
    return redirect(url_for("setup.seat"), 303)


# -- seats: Menu B, a new name, or Menu C --------------------------------------------------------


def seated_keys(setup: dict[str, Any]) -> set[str]:
    return {seat["name"].casefold() for seat in setup["seats"] if not seat["ai"]}


def returning_names(setup: dict[str, Any], search: str = "") -> tuple[list[str], int]:
    """R3.3: the score table's names, sorted ignoring case, without humans already seated: the
    first few (the menus' ``names_listed``) of those containing ``search``, and how many there are in all (the
    database sorts and counts: a score table of any size costs the same)."""
    return score_table.names(search, seated_keys(setup), menu_flow().names_listed)


def is_returning_name(setup: dict[str, Any], name: str) -> bool:
    """Whether ``name`` is exactly a score-table name (R3.3) not seated yet (R3.4)."""
    return is_known_name(name, seated_keys(setup))


def is_known_name(name: str, seated: set[str]) -> bool:
    """Whether ``name`` is exactly a score-table name (R3.3) whose casefolded form is not among
    ``seated`` (R3.4)."""
    try:
        check_player_name(name)  # (a well-formed name before any query)
    except NameRefused:
        return False
    if name != name.strip() or name.casefold() in seated:
        return False
    return score_table.row(name) is not None


def render_seat(setup: dict[str, Any], kind: int | None = None, message: str | None = None, status: int = 200,
                search: str = "", **form: Any) -> ResponseReturnValue:
    template = "setup/_seat_form.html" if is_htmx() else "setup/seat.html"
    number = len(setup["seats"]) + 1
    names, total = returning_names(setup, search) if kind == RETURNING else ([], 0)
    definition = menu_flow_game()
    return render_template(template, setup=setup, definition=definition, number=number, kind=kind,
                           menu_b=menu_flow().seat_menu, names=names, total=total, search=search,
                           message=message, form=form), status


@bp.get("/seat")
def seat() -> ResponseReturnValue:
    setup = current_setup()
    if setup is None or (setup.get("stacked") and not setup.get("deck")):
        return no_setup()
    raw = request.args.get("kind")
    if raw is None:
        return render_seat(setup)
    try:
        kind = parse_choice(raw, len(menu_flow().seat_menu))
    except NotAChoice as error:
        return render_seat(setup, None, str(error), 400)
    if kind == RETURNING and not returning_names(setup)[1]:
        return render_seat(setup, None, gettext("There are no returning players to choose from."), 200)
    return render_seat(setup, kind, search=request.args.get("q", "").strip()[:MAX_NAME_LENGTH])


@bp.post("/seat")
def add_seat() -> ResponseReturnValue:
    setup = current_setup()
    if setup is None or (setup.get("stacked") and not setup.get("deck")):
        return no_setup()
    try:
        kind = parse_choice(request.form.get("kind", ""), len(menu_flow().seat_menu))
    except NotAChoice as error:
        return render_seat(setup, None, str(error), 400)
    device = OWN if request.form.get("device") == OWN else HERE
    if kind == NEW:
        raw = request.form.get("name", "")
        try:  # R3.2, R3.4: the one admission rule, as the terminal uses it
            name = admit_new_name(raw, [s["name"] for s in setup["seats"]], known=score_table.has_name,
                                  known_hint=": choose Returning player to use it, or another name")
        except NameRefused as error:
            return render_seat(setup, NEW, str(error), 422, name=raw.strip()[:40], device=device)
    else:
        name = request.form.get("name", "")
        if not is_returning_name(setup, name):
            return render_seat(setup, RETURNING, gettext("Choose one of the returning players listed."), 422)
    setup["seats"].append({"name": name, "ai": is_computer_name(name), "device": device})
    if len(setup["seats"]) < setup["players"]:
        session["setup"] = setup
        return redirect(url_for("setup.seat"), 303)
    return start_game(setup)


def start_game(setup: dict[str, Any]) -> ResponseReturnValue:
    definition = menu_flow_game()
    deck = None
    if setup.get("deck"):
        try:
            _name, deck = resolve_deck(setup["deck"], definition)
        except DeckError as error:  # the file was removed or changed since it was chosen
            setup["deck"], setup["seats"] = None, []
            session["setup"] = setup
            return render_deck(setup, gettext("That deck cannot be used any more: %(why)s.", why=error), "", 422)
    specs = [tables.SeatSpec(s["name"], s["ai"], HERE if s["ai"] else s["device"]) for s in setup["seats"]]
    game = tables.SetUp(definition, specs, deck=deck, deck_name=setup.get("deck"), token=setup_key(setup.get("token")))
    try:
        slug = tables.set_up(game, identity.own_holder(), client_address())
    except tables.AlreadySetUp as done:
        return to_the_game_set_up(done.slug)
    except tables.TooMany as error:  # the last seat is asked again, the others stay chosen
        setup["seats"].pop()
        session["setup"] = setup
        return render_seat(setup, None, error.message, error.status)
    session.pop("setup", None)
    session["setup_done"] = slug
    return redirect(url_for("play.table", slug=slug), 303)


@bp.post("/cancel")
def cancel() -> ResponseReturnValue:
    """Cancelling the menus' set-up goes back to their first menu (Menu A)."""
    session.pop("setup", None)
    definition = menu_game()
    return redirect(url_for("menu.menus", key=definition.key) if definition is not None else url_for("menu.index"), 303)


# -- one form, every game ------------------------------------------------------------------------

COMPUTER = "computer"  # a seat's "played by" choice beside HERE and OWN: the computer
NEW_PLAYER, RETURNING_PLAYER = "new", "returning"  # a person's seat in a game with a score table (R3.2, R3.3)
RETURNING_LISTED = 200  # the returning players the form lists (sorted ignoring case, R3.3)


def form_game(key: str) -> GameDefinition:
    """The game ``key``: every game is set up by the one form (a game with menus keeps them at
    their own routes too)."""
    try:
        return registry.get(key)
    except registry.UnknownGame:
        abort(404)


def seat_count(definition: GameDefinition, raw: str | int | None) -> int:
    try:
        count = int(raw if raw is not None else "")
    except (TypeError, ValueError):
        return definition.min_seats
    return min(max(count, definition.min_seats), definition.max_seats)


def option_value(form: Mapping[str, Any], key: str, default: Any = "") -> Any:
    """An option's posted value: the last one, as a checked box follows the hidden "0" that
    stands for it unchecked."""
    values = form.getlist(key) if hasattr(form, "getlist") else ([form[key]] if key in form else [])
    return values[-1] if values else default


def has_score_table(definition: GameDefinition) -> bool:
    """Whether a person's seat is a new or a returning player (R3.2, R3.3): the game keeps one
    score table of names, where a new name may not be one of them already."""
    return records.keeps_score_table(definition)


def returning_players(definition: GameDefinition) -> list[str]:
    """R3.3: the score table's names a returning player is picked from, sorted ignoring case; the
    computer players' rows are not people's."""
    if not has_score_table(definition):
        return []
    names, _total = score_table.names(limit=RETURNING_LISTED)
    return [name for name in names if not is_computer_record(name)]


def strength_choices(definition: GameDefinition) -> list[tuple[str, str, str | None]]:
    """Each strength of the game's computer players: (value, words, the ladder's line or None)."""
    return [(strength, tables.strength_words(strength).capitalize(), strength_line(definition, strength))
            for strength in definition.strengths]


def strength_line(definition: GameDefinition, strength: str) -> str | None:
    """The ladder's line of ``strength`` in the reader's language."""
    say = definition.strength_words(strength)
    return render(say, None, html=False) if say is not None else None


def render_game_setup(definition: GameDefinition, *, message: str | None = None, status: int = 200,
                      form: Mapping[str, Any] | None = None) -> ResponseReturnValue:
    form = form or {}
    seats = seat_count(definition, form.get("seats", definition.min_seats if definition.min_seats > 1 else 1))
    token = form.get("setup_token") or secrets.token_urlsafe(12)
    known = [name for name in records.known_names(definition, 200) if not is_computer_record(name)]
    return render_template(
        "setup/game.html", definition=definition, seats=seats, form=form, message=message, token=token,
        decks=deck_names(definition), known=known, returning=returning_players(definition),
        score_table=has_score_table(definition), strengths=strength_choices(definition),
        stacked=bool(form.get("stacked")),
        option_values={option.key: option_value(form, option.key, option.default) for option in definition.options},
    ), status


@bp.get("/<key>")
def game(key: str) -> ResponseReturnValue:
    definition = form_game(key)
    return render_game_setup(definition, form=request.args)


def seat_from_form(definition: GameDefinition, form: Mapping[str, Any], number: int,
                   seated: list[str]) -> tuple[str, tables.SeatSpec]:
    """Seat ``number`` as the form chose it: played by a person on this device or their own, or
    by the computer at a strength (``OptionError`` says what is wrong). A person's name typed as
    ``AI`` makes a computer seat too (R3.4). In a game with a score table, a person is a new
    player (a name not in it, R3.2) or a returning one picked from it (R3.3)."""
    played_by = form.get(f"device{number}", HERE)
    strength = form.get(f"strength{number}") or NORMAL
    if strength not in definition.strengths:
        strength = NORMAL
    if played_by == COMPUTER:
        if definition.bot is None:
            raise OptionError(gettext("Seat %(number)s: %(game)s has no computer player.", number=number + 1, game=definition.name))
        return COMPUTER_NAME, tables.SeatSpec(COMPUTER_NAME, True, HERE, strength)
    device = OWN if played_by == OWN else HERE
    if has_score_table(definition) and form.get(f"kind{number}") == RETURNING_PLAYER:
        name = form.get(f"returning{number}", "")
        people = {other.casefold() for other in seated if not is_computer_name(other)}
        if is_computer_record(name) or not is_known_name(name, people):
            raise OptionError(gettext("Seat %(number)s: choose one of the returning players listed.", number=number + 1))
    else:
        try:  # R3.2, R3.4: the one admission rule, as the terminal uses it
            name = admit_new_name(form.get(f"name{number}", ""), seated, computer_allowed=definition.bot is not None,
                                  known=score_table.has_name if has_score_table(definition) else None,
                                  known_hint=": choose Returning player to use it, or another name")
        except NameRefused as error:
            raise OptionError(gettext("Seat %(number)s: %(why)s", number=number + 1, why=error)) from None
    if is_computer_name(name):
        return COMPUTER_NAME, tables.SeatSpec(COMPUTER_NAME, True, HERE, strength)
    return name, tables.SeatSpec(name, False, device)


@bp.post("/<key>")
def start_other_game(key: str) -> ResponseReturnValue:
    """Validate the whole form (seats, options, deck), then create the game. The form's token
    makes a doubled post land on the game the first one created."""
    definition = form_game(key)
    form = request.form
    token = setup_key(form.get("setup_token", ""))
    if "change_seats" in form:  # the seat count changed (without JavaScript): the form again
        return render_game_setup(definition, form=form)
    seats = seat_count(definition, form.get("seats"))
    names: list[str] = []
    specs: list[tables.SeatSpec] = []
    try:
        for number in range(seats):
            name, spec = seat_from_form(definition, form, number, names)
            names.append(name)
            specs.append(spec)
        # (a field the form did not post is its default: a form of a game with fewer options)
        raw_options = {option.key: option_value(form, option.key) for option in definition.options if option.key in form}
        options = definition.validate_options(raw_options)
        deck = deck_name = None
        if form.get("deck"):
            deck_name, deck = resolve_deck(form["deck"], definition, seats)
    except OptionError as error:
        message = render(error.say, None, html=False) if error.say is not None else game_words(str(error))
        return render_game_setup(definition, message=message, status=422, form=form)
    except DeckError as error:
        return render_game_setup(definition, message=gettext("That deck cannot be used: %(why)s.", why=error), status=422, form=form)
    game = tables.SetUp(definition, specs, options=options, deck=deck, deck_name=deck_name, token=token)
    try:
        slug = tables.set_up(game, identity.own_holder(), client_address())
    except tables.AlreadySetUp as done:
        return to_the_game_set_up(done.slug)
    except tables.TooMany as error:
        return render_game_setup(definition, message=error.message, status=error.status, form=form)
    session.pop("setup", None)  # (the menus' set-up in progress, if any, is this one)
    return redirect(url_for("play.table", slug=slug), 303)

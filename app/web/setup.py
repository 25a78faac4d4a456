"""Setting up a game: the stacked-deck prompt (R2.2) and the seats, Menus B and C (R3)."""

from __future__ import annotations

import os

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for

from .. import store, tables
from ..htmx import is_htmx
from ..models import HERE, OWN
from ..rules import DeckError, is_computer_name, read_deck_file
from ..rules.menus import MENU_B, NotAChoice, parse_choice
from ..rules.players import COMPUTER_NAME
from ..rules.scores import check_player_name
from . import identity

bp = Blueprint("setup", __name__, url_prefix="/setup")

NEW, RETURNING = 1, 2


def current_setup() -> dict | None:
    setup = session.get("setup")
    return setup if isinstance(setup, dict) and setup.get("players") in (2, 3) else None


def no_setup():
    """The setup ended (or never began): a repeated form lands on the game it created."""
    done = session.get("setup_done")
    if done and store.find_game(done):
        return redirect(url_for("play.table", slug=done), 303)
    return redirect(url_for("menu.index"), 303)


# -- the stacked deck prompt (R2.2) ----------------------------------------------------------


def deck_names() -> list[str]:
    folder = current_app.config["DECKS_FOLDER"]
    try:
        return sorted(name for name in os.listdir(folder) if name.endswith(".deck"))
    except OSError:
        return []


def resolve_deck(answer: str):
    """A deck file from decks/ by name; only plain names (no folders) are looked up."""
    names = deck_names()
    name = answer if answer in names else (answer + ".deck" if answer + ".deck" in names else answer)
    if os.path.basename(name) != name or name.startswith("."):
        raise DeckError(f"'{answer}' is not a deck file name: type just the name, such as {names[0] if names else 'game.deck'}")
    if name not in names:
        raise DeckError(f"there is no deck file named '{answer}' in decks/")
    return name, read_deck_file(os.path.join(current_app.config["DECKS_FOLDER"], name))


def render_deck(setup: dict, message: str | None = None, answer: str = "", status: int = 200):
    template = "setup/_deck_form.html" if is_htmx() else "setup/deck.html"
    return render_template(template, setup=setup, names=deck_names(), message=message, answer=answer), status


@bp.get("/deck")
def deck():
    setup = current_setup()
    if setup is None or not setup.get("stacked"):
        return no_setup()
    return render_deck(setup)


@bp.post("/deck")
def choose_deck():
    setup = current_setup()
    if setup is None or not setup.get("stacked"):
        return no_setup()
    answer = request.form.get("deck", "").strip()
    if "cancel" in request.form or answer.casefold() == "no":  # R2.2: "no" goes back to Menu A
        session.pop("setup", None)
        return redirect(url_for("menu.index"), 303)
    if not answer:
        return render_deck(setup, "Type a deck file name, or no to go back to Menu A.", answer, 422)
    try:
        name, _cards = resolve_deck(answer)
    except DeckError as error:
        return render_deck(setup, f"That deck cannot be used: {error}.", answer, 422)
    setup["deck"] = name
    session["setup"] = setup
    return redirect(url_for("setup.seat"), 303)


# -- seats: Menu B, a new name, or Menu C --------------------------------------------------------


def returning_names(setup: dict) -> list[str]:
    """R3.3: the score table's names, sorted ignoring case, without humans already seated."""
    seated = {seat["name"].casefold() for seat in setup["seats"] if not seat["ai"]}
    return [name for name in store.score_table().names() if name.casefold() not in seated]


def render_seat(setup: dict, kind: int | None = None, message: str | None = None, status: int = 200, **form):
    template = "setup/_seat_form.html" if is_htmx() else "setup/seat.html"
    number = len(setup["seats"]) + 1
    names = returning_names(setup) if kind == RETURNING else []
    return render_template(template, setup=setup, number=number, kind=kind, menu_b=MENU_B,
                           names=names, message=message, form=form), status


@bp.get("/seat")
def seat():
    setup = current_setup()
    if setup is None or (setup.get("stacked") and not setup.get("deck")):
        return no_setup()
    raw = request.args.get("kind")
    if raw is None:
        return render_seat(setup)
    try:
        kind = parse_choice(raw, len(MENU_B))
    except NotAChoice as error:
        return render_seat(setup, None, str(error), 400)
    if kind == RETURNING and not returning_names(setup):
        return render_seat(setup, None, "There are no returning players to choose from.", 200)
    return render_seat(setup, kind)


@bp.post("/seat")
def add_seat():
    setup = current_setup()
    if setup is None or (setup.get("stacked") and not setup.get("deck")):
        return no_setup()
    try:
        kind = parse_choice(request.form.get("kind", ""), len(MENU_B))
    except NotAChoice as error:
        return render_seat(setup, None, str(error), 400)
    device = OWN if request.form.get("device") == OWN else HERE
    if kind == NEW:
        raw = request.form.get("name", "")
        try:
            name = check_player_name(raw)  # R3.2
        except ValueError as error:
            return render_seat(setup, NEW, str(error), 422, name=raw[:40], device=device)
        if is_computer_name(name):
            name = COMPUTER_NAME  # R3.4
        elif store.name_in_scores(name) or any(
                name.casefold() == s["name"].casefold() for s in setup["seats"]):
            return render_seat(setup, NEW, f"The name {name} is already taken: choose returning player "
                                           "to use it, or another name.", 422, name=name, device=device)
    else:
        name = request.form.get("name", "")
        if name not in returning_names(setup):
            return render_seat(setup, RETURNING, "Choose one of the returning players listed.", 422)
    setup["seats"].append({"name": name, "ai": is_computer_name(name), "device": device})
    if len(setup["seats"]) < setup["players"]:
        session["setup"] = setup
        return redirect(url_for("setup.seat"), 303)
    return start_game(setup)


def start_game(setup: dict):
    deck = None
    if setup.get("deck"):
        try:
            _name, deck = resolve_deck(setup["deck"])
        except DeckError as error:  # the file was removed or changed since it was chosen
            setup["deck"], setup["seats"] = None, []
            session["setup"] = setup
            return render_deck(setup, f"That deck cannot be used any more: {error}.", "", 422)
    specs = [tables.SeatSpec(s["name"], s["ai"], HERE if s["ai"] else s["device"]) for s in setup["seats"]]
    record, tokens = tables.create_game(specs, deck, setup.get("deck"))
    identity.remember(record.slug, tokens)
    session.pop("setup", None)
    session["setup_done"] = record.slug
    return redirect(url_for("play.table", slug=record.slug), 303)


@bp.post("/cancel")
def cancel():
    session.pop("setup", None)
    return redirect(url_for("menu.index"), 303)

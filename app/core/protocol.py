"""The protocol every game speaks (in the spirit of OpenSpiel's Game and State).

A ``GameDefinition`` describes a game: its key and name, seat limits, set-up options, deck, the
figures of its per-name statistics, its computer player, its action types (which class each
action is, its names as plain data, and who may make it), and how to make a state: new (from a
seed or a stacked deck) or from the plain data of a saved one.

A ``GameState`` is one game in progress:

- ``to_move()``: the seat whose turn it is, or ``None`` between rounds and at the end;
- ``legal(seat)``: the ``Move`` s that seat may make now (the doors show them as buttons, the
  bots and the tests choose from them), every one of them: its own business too, out of turn
  (``Move.private``: arranging its cards); ``legal(None)``: the moves anyone at the table may
  make (dealing the next round), which every seat's list also holds;
- ``apply(seat, action)``: applies the action whole and returns an ``Outcome``, or raises an
  ``IllegalAction`` having changed nothing. It is a template: the core checks once, in this
  order, that the game is not over, that the action is one of the game's, that the seat is one
  of its seats, and who may act now (the seat to move for a turn action, anyone while nobody is
  to move for a table action, any seat for its own); then the game's ``_step`` applies its rules;
- ``view(seat)``: what that seat may see, as plain data (``None``: a spectator);
- ``zones()``: where every card lies and who may see it there; ``hidden_from(seat)`` and
  ``card_locations()`` follow from them;
- ``is_over()``, ``results()`` and ``to_dict()``.

Every door (the web, the terminals, the simulator) goes through these, so every rule lives in
its game's package and nowhere else.

The keys of a view that the shared table shows (``View``; a game adds its own for its board):

    seat     the seat this view is for, or None
    players  one dict a seat: "seat", "name", "label" (the name as shown: "AI 2"), "computer"
    turn     the seat to move, or None
    stage    a short line for the status bar: "Round 2 of 3", "Hand 4", "Deal 1 of 1"
    prompt   what the seat to move is asked now: "draw a card"
    hand     the seat's own cards as ids (hand order), or None
    log      the last lines of the game's log (see ``Outcome``; ``GameState.view_log``), oldest first
    summary  None, or what the game's summary fragment shows between rounds (its ``title``, and
             ``title_say``: the title as a ``said`` text)
    stage_say, prompt_say   (optional) ``stage`` and ``prompt`` as ``said`` texts, for the web: a
             game's words with variable parts, which the web shows in its reader's language
"""

from __future__ import annotations

import dataclasses
import functools
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, NotRequired, Protocol, TypedDict, TypeGuard, final

from .cards import Card, DeckSpec
from .decks import parse_deck
from .names import is_computer_name


# -- refusals ------------------------------------------------------------------------------------


def N_(text: str) -> str:
    """Marks a game's words for the translation catalogue (the ``games`` domain, which
    scripts/games_catalogue.py extracts) and returns them unchanged: the terminals print the
    English, the web looks the words up where it shows them."""
    return text


class IllegalAction(Exception):
    """An action the rules refuse; the game is unchanged. ``str()`` is a message for players
    that says which rule and which cards, in the words the terminals print; ``say``, where the
    message has variable parts, is the same message as a ``said`` text for the web (without
    one, the web looks ``str()`` up in the catalogue as it is)."""

    code = "illegal"

    def __init__(self, message: str = "", say: Said | None = None):
        super().__init__(message)
        self.say = say


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


class NotASeat(NotYourTurn):
    """A seat number the game does not have (or no number at all): never that seat's turn."""

    code = "not_a_seat"


class WrongPhase(IllegalAction):
    """An action the game does not take at this point (a second draw, a discard before a draw)."""

    code = "wrong_phase"


class BadAction(IllegalAction):
    """Not an action of this game at all: an unknown name, a card that does not exist, a missing
    field. Doors answer it as a bad request."""

    code = "bad_action"


class GameIsOver(IllegalAction):
    code = "game_over"


# Refusals that several card games share; each game's rule book says when.


class PileEmpty(IllegalAction):
    """The chosen pile cannot give a card."""

    code = "pile_empty"


class CardNotInHand(IllegalAction):
    code = "card_not_in_hand"


class BadSelection(IllegalAction):
    """Not a selection at all: no cards, a card selected twice, an unknown card."""

    code = "bad_selection"


# -- moves, outcomes, results ------------------------------------------------------------------------


Said = list[Any]
"""A text in players' words: ``[template, fields]`` (see ``said``), plain JSON data."""


@dataclass(frozen=True)
class Move:
    """One thing a seat may do now.

    ``action`` names the action (the form field ``action``); ``label`` is its button's words;
    ``pick`` is how many cards of the seat's own hand it takes, ``(fewest, most)``, or None;
    ``target`` names a choice made on the board (``"meld"``, ``"column"``) and ``targets`` its
    possible values; ``params`` are fixed fields the action carries; ``menu`` groups moves that a
    rule book shows as one numbered menu, and ``number`` is the move's number in it (an option
    that is not possible now is left out, the others keep their numbers); ``primary`` marks the
    move most players make; ``private`` marks a move on the seat's own business (an action of
    kind ``OWN``, such as arranging its cards): it ends no turn and changes nothing anyone else
    sees, so the house keeps it as that seat's data, not as a move of the game (no new version,
    no line in the action log). ``as_dict(cards, target)`` is the action as plain data, which
    the game's ``action_from_dict`` reads.

    ``say``: the label in players' words (``said``), where it names a card: the web shows it
    instead of ``label``, which the terminals keep (and where the label has variable parts);
    ``confirm_say`` and ``yes_say`` the same for ``confirm`` and ``confirm_label``.

    ``confirm``: a move that costs points or cannot be taken back (dropping a deal, a
    declaration the rules will find wrong) asks first, in these words ("Drop this deal? It
    costs 20 points."); the house shows the question before the move is made (a dialog with
    JavaScript, a confirmation step on the table without it) and makes the move only once it
    is answered yes: the table's form then carries ``confirmed=1``. ``confirm_label`` is the
    yes button's words (default: "Yes, " and the label).
    """

    action: str
    label: str
    pick: tuple[int, int] | None = None
    target: str | None = None
    targets: tuple[str, ...] = ()
    params: tuple[tuple[str, str], ...] = ()
    menu: str | None = None
    number: int | None = None
    primary: bool = True
    private: bool = False
    confirm: str | None = None
    confirm_label: str | None = None
    say: Said | None = None
    confirm_say: Said | None = None
    yes_say: Said | None = None

    @property
    def yes_label(self) -> str:
        """The words of the button that answers ``confirm`` yes."""
        return self.confirm_label or f"Yes, {self.label[:1].lower()}{self.label[1:]}"

    @property
    def button(self) -> str:
        """The value of this move's button (form field ``move``): ``action|field=value|...``."""
        return "|".join([self.action] + [f"{key}={value}" for key, value in self.params])

    def as_dict(self, cards: Sequence[str] = (), target: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action, **dict(self.params)}
        if self.pick is not None:
            data["cards"] = list(cards)
        if self.target is not None:
            data[self.target] = target
        return data


Event = dict[str, Any]
"""A public log line: ``seat`` (or None), ``text`` (never naming a card its readers may not see),
``cards`` (ids shown beside the text), ``say`` (the line in players' words: ``said``), and
whatever the game adds (the round it belongs to...). The terminals print ``text``, word for word
as the rule books say; the web shows ``say``, or nothing for a line whose ``say`` is None (a line
that repeats what the board and the next lines show), or ``text`` for a line stored before lines
had a ``say``."""

def said(template: str | tuple[str, str], **fields: Any) -> Said:
    """A text in players' words, for the web, as a translation catalogue keeps one: a message
    template with named fields in braces ("{player} drew the {card}.") and the fields' values.
    ``template`` may be a pair (one, many), chosen by the field ``count`` as ngettext chooses. A
    field named ``card`` or ending in ``_card`` holds a card's id, one named ``cards`` or ending
    in ``_cards`` a list of ids: the web shows them as cards, in its own words. None in a card's
    place is a card its reader may not see (``hide_cards``); every other field is shown as it is
    (a name, a number, a place)."""
    return [template if isinstance(template, str) else list(template), fields]


def filled(say: Said) -> str:
    """A ``said`` text with no cards in it, filled in as the terminals print it (its plural
    chosen by ``count``): the English of a refusal made from a template."""
    template, fields = say
    if not isinstance(template, str):
        template = template[0] if fields.get("count") == 1 else template[1]
    return str(template).format(**{name: filled(value) if _is_said(value) else value for name, value in fields.items()})


def _is_said(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and isinstance(value[1], dict)


def refused(kind: type[IllegalAction], say: Said) -> IllegalAction:
    """A refusal of ``kind`` made from a ``said`` text without cards: its English ``filled``."""
    return kind(filled(say), say=say)


def is_card_field(name: str) -> bool:
    return name == "card" or name.endswith("_card")


def is_cards_field(name: str) -> bool:
    return name == "cards" or name.endswith("_cards")


def copy_said(say: Said | None) -> Said | None:
    """A ``said`` text as new plain data (its lists of cards too)."""
    if say is None:
        return None
    template, fields = say
    return [template if isinstance(template, str) else list(template),
            {name: list(value) if isinstance(value, list) else value for name, value in fields.items()}]


def hide_cards(say: Said | None, hidden: Collection[str]) -> Said | None:
    """``say`` with every card whose id is in ``hidden`` written as None (a card its reader may not
    see now: a line of an earlier hand naming a card dealt again since)."""
    if say is None:
        return None
    template, fields = say
    shown: dict[str, Any] = {}
    for name, value in fields.items():
        if is_card_field(name):
            value = None if value in hidden else value
        elif is_cards_field(name):
            value = [None if card in hidden else card for card in value]
        shown[name] = value
    return [template, shown]


def read_said(event: Mapping[str, Any]) -> dict[str, Any]:
    """The ``say`` of a saved log line, checked, as ``{"say": ...}`` (nothing for a line saved
    before lines had one); ``ValueError`` if it is not a ``said`` text."""
    if "say" not in event:
        return {}
    say = event["say"]
    if say is None:
        return {"say": None}
    if not (isinstance(say, list) and len(say) == 2 and isinstance(say[1], dict)):
        raise ValueError(f"an event's say is a template and its fields, not {say!r}")
    template = say[0]
    if not (isinstance(template, str) or (isinstance(template, list) and len(template) == 2
                                          and all(isinstance(text, str) for text in template))):
        raise ValueError(f"an event's say template is a text or a pair of texts, not {template!r}")
    return {"say": copy_said(say)}


def copy_log(events: Iterable[Event]) -> list[Event]:
    """Events as new plain data (their card lists too), for a view or a saved state."""
    return [dict(event, cards=list(event["cards"]), say=copy_said(event["say"])) if "say" in event
            else dict(event, cards=list(event["cards"])) for event in events]


LOG_KEPT = 20
"""How many of its log's last lines a saved state keeps, and a view shows (``GameState.log``).
The whole log is kept line by line where each action is stored (the door stores every applied
action's ``Outcome.events``), and read from there a page at a time; so a state is as large after
20,000 actions as after 100."""


class Outcome:
    """What one applied action did. ``events`` are the public log lines it added (``Event``)."""

    __slots__ = ("action", "seat", "events", "round_over", "game_over")

    def __init__(self, action: Any, seat: int | None = None):
        self.action = action
        self.seat = seat
        self.events: list[Event] = []
        self.round_over = False
        self.game_over = False

    def __repr__(self) -> str:
        return f"Outcome({self.action!r}, seat={self.seat}, events={len(self.events)})"


@dataclass(frozen=True)
class SeatResult:
    """A seat's result once the game is over: ``won`` (every seat tied for the win won),
    ``score`` (the game's own final figure), and ``figures``, what this game adds to the name's
    statistics (keys of the definition's ``statistics``; a figure left out does not count).
    ``item``: what the game was played on, for the statistics kept per item (``Stat.per_item``):
    a deal's number, say; None: no such statistics for this game."""

    seat: int
    name: str
    won: bool
    score: int | None
    figures: Mapping[str, int] = field(default_factory=dict)
    item: str | None = None


SUM, MIN, MAX, STREAK, RATIO = "sum", "min", "max", "streak", "ratio"
SECONDS, PERCENT = "seconds", "percent"


@dataclass(frozen=True)
class Stat:
    """One figure of a game's statistics, and how a game's figure joins the total (``combine``):

    - ``sum``; ``min`` (the fewest moves); ``max`` (the best deal);
    - ``streak``: a figure of 1 makes the run one longer, 0 ends it (wins in a row);
    - ``max`` or ``min`` with ``of``: the most (fewest) that another figure's total has been,
      after this game joined it (the best streak: ``Stat("best", "Best streak", "max",
      of="streak")``); listed after the figure it follows;
    - ``ratio`` with ``of=(numerator, denominator)``: worked out from two other totals when it is
      shown, never stored (the win rate).

    ``timed``: the figure is the game's time played in whole seconds, which the house measures
    (the game cannot: its rules know no clock); a result names the key, with any value, where it
    counts (a won deal). ``unit``: how it is shown (``seconds`` as minutes:seconds, ``percent``).
    ``per_item``: kept per name and item (``SeatResult.item``: each deal's best), not per name."""

    key: str
    label: str
    combine: str = SUM
    of: str | tuple[str, str] | None = None
    unit: str = ""
    timed: bool = False
    per_item: bool = False

    def join(self, total: int | None, figure: int | None) -> int | None:
        if figure is None:
            return total
        if self.combine == STREAK:
            return (total or 0) + 1 if figure else 0
        if total is None:
            return figure
        if self.combine == MIN:
            return min(total, figure)
        if self.combine == MAX:
            return max(total, figure)
        return total + figure

    @property
    def stored(self) -> bool:
        """Whether the figure is kept (a ratio is worked out when shown)."""
        return self.combine != RATIO

    def value(self, totals: Mapping[str, Any]) -> float | int | None:
        """The figure as kept in ``totals`` (a ratio: worked out from its two figures)."""
        if self.combine == RATIO:
            numerator, denominator = self.of if isinstance(self.of, tuple) else (None, None)
            top, bottom = totals.get(numerator or ""), totals.get(denominator or "")
            if not isinstance(top, int) or not isinstance(bottom, int) or bottom <= 0:
                return None
            return top / bottom
        found = totals.get(self.key)
        return found if isinstance(found, int) else None

    def show(self, totals: Mapping[str, Any]) -> str:
        """The figure in words for a page: ``""`` when there is none yet."""
        value = self.value(totals)
        if value is None:
            return ""
        if self.unit == PERCENT or self.combine == RATIO:
            return f"{round(100 * value)}%"
        if self.unit == SECONDS:
            seconds = int(value)
            hours, rest = divmod(seconds, 3600)
            return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
        return str(value)


def join_figures(stats: Iterable[Stat], totals: Mapping[str, Any], figures: Mapping[str, int]) -> dict[str, Any]:
    """``totals`` with one game's ``figures`` joined, each as its ``Stat`` says (in the order of
    ``stats``: a figure that follows another's total, ``of``, comes after it)."""
    joined = dict(totals)
    for stat in stats:
        if not stat.stored:
            continue
        if stat.of is not None and isinstance(stat.of, str):
            followed = joined.get(stat.of)
            figure = followed if stat.of in figures and isinstance(followed, int) else None
        else:
            figure = figures.get(stat.key)
        joined[stat.key] = stat.join(joined.get(stat.key), figure)
    return joined


# -- set-up options ------------------------------------------------------------------------------------


class OptionError(ValueError):
    """A set-up option that is not acceptable; the message says which and why (``say``: the
    same as a ``said`` text, for the web, where it has variable parts)."""

    def __init__(self, message: str = "", say: Said | None = None):
        super().__init__(message)
        self.say = say


@dataclass(frozen=True)
class Option:
    """A set-up option: ``kind`` is ``int`` (``low`` to ``high``), ``bool`` or ``choice``
    (one of ``choices``: (value, label) pairs). ``house``: a house rule, a change to the rule
    book's game (its default is the rule book's rule); a table shows the house rules it plays by,
    and statistics keep the results of other rules apart (``GameDefinition.variant_key``).
    ``rule``: the rule book's number of the variant (code and tests cite it; pages never show it)."""

    key: str
    label: str
    kind: str
    default: Any
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""
    house: bool = False
    rule: str = ""

    def words(self, value: Any) -> str:
        """The value in players' words: "yes", "no", a choice's label, a number."""
        if self.kind == "bool":
            return N_("yes") if value else N_("no")
        if self.kind == "choice":
            return next((label for choice, label in self.choices if choice == value), str(value))
        return str(value)

    def read(self, raw: Any) -> Any:
        """The option's value from a form field's text or a Python value."""
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().casefold()
            if text in ("1", "on", "yes", "true"):
                return True
            if text in ("0", "off", "no", "false", ""):
                return False
            raise refused_option(said("{option}: answer yes or no.", option=said(self.label)))
        if self.kind == "int":
            text = str(raw).strip()
            if isinstance(raw, bool) or not (text.isdigit() and text.isascii()) or len(text) > 9:
                raise refused_option(said("{option}: type a whole number from {low} to {high}.",
                                          option=said(self.label), low=self.low, high=self.high))
            number = int(text)
            if self.low is None or self.high is None or not self.low <= number <= self.high:
                raise refused_option(said("{option}: {number} is not between {low} and {high}.",
                                          option=said(self.label), number=number, low=self.low, high=self.high))
            return number
        text = str(raw).strip()
        for choice, _label in self.choices:
            if text == choice:
                return choice
        # the choices' labels, each the catalogue's, in a list of its own ("{c0}, {c1}")
        choices = said(", ".join(f"{{c{index}}}" for index in range(len(self.choices))),
                       **{f"c{index}": said(label) for index, (_value, label) in enumerate(self.choices)})
        raise refused_option(said("{option}: choose one of {choices}.", option=said(self.label), choices=choices))


def refused_option(say: Said) -> OptionError:
    """An ``OptionError`` made from a ``said`` text: its English ``filled``."""
    return OptionError(filled(say), say=say)


# -- take-backs ------------------------------------------------------------------------------------------
#
# A player may take back their own last action until the next seat acts, unless that action showed
# them or anyone a card that was hidden from them (a draw from the stock, a card turned up, a deal,
# a hit): the core keeps the state before each seat's action (``GameState.apply``) and proves from
# the zones whether it revealed a card (``revealed``). The table's creator chooses the option
# ``TAKE_BACKS``: off, asked (every other person at the table accepts; a computer player accepts at
# once) or free. It is kept with the state (``TAKE_BACK_KEY`` in its saved data), so a saved game,
# its replay and its import take back alike.

TAKE_BACKS_OFF, TAKE_BACKS_ASKED, TAKE_BACKS_FREE = "off", "asked", "free"
TAKE_BACKS = Option("take_backs", "Take-backs", "choice", TAKE_BACKS_OFF,
                    choices=((TAKE_BACKS_OFF, "Off"), (TAKE_BACKS_ASKED, "Asked (the others accept)"),
                             (TAKE_BACKS_FREE, "Free")),
                    help="A player may take back their last action until the next player acts, unless it "
                         "showed anyone a card that was hidden.")
TAKE_BACK_KEY = "take_back"  # the key of a saved state's take-back data
TOOK_BACK = "{player} took back their {what}."  # the log line of a take-back, in players' words
ASKS_TO_TAKE_BACK = "{player} asks to take back their {what}."
LETS_TAKE_BACK = "{player} lets {other} take back their {what}."
KEEPS = "{player} keeps {other}'s {what}: it stands."
TAKE_BACK_LINES = frozenset({TOOK_BACK, ASKS_TO_TAKE_BACK, LETS_TAKE_BACK, KEEPS})
# What a take-back names (``GameState.take_back_words``: an action's name), in the catalogue.
TAKE_BACK_WORDS = (N_("discard"), N_("draw"), N_("meld"), N_("lay off"), N_("hit"), N_("stay"), N_("move"),
                   N_("lay-down"), N_("declare"), N_("drop"), N_("undo"))


@dataclass(frozen=True)
class TakeBack:
    """A seat takes back its last action (free), or asks to (asked)."""


@dataclass(frozen=True)
class AcceptTakeBack:
    """Another seat accepts the take-back asked for."""


@dataclass(frozen=True)
class RefuseTakeBack:
    """Another seat refuses it: the action stands."""


CORE_ACTIONS: Mapping[str, type] = {"take_back": TakeBack, "accept_take_back": AcceptTakeBack,
                                    "refuse_take_back": RefuseTakeBack}
CORE_ACTION_NAMES: Mapping[type, str] = {cls: name for name, cls in CORE_ACTIONS.items()}


def revealed(hidden_before: Mapping[int | None, frozenset[Card]], hidden_after: Mapping[int | None, frozenset[Card]],
             mover: int) -> frozenset[Card]:
    """The cards an action of ``mover`` showed someone that were hidden from the mover too: a card
    hidden from a seat (or a spectator, None) before and not after, which ``mover`` could not see
    before either (so a discard, showing the mover's own card, reveals nothing; a draw from the
    stock does). ``hidden_*``: ``hidden_from`` of every seat and None, before and after."""
    unseen = hidden_before[mover]
    shown: set[Card] = set()
    for seat, before in hidden_before.items():
        shown |= (before - hidden_after[seat]) & unseen
    return frozenset(shown)


# -- the computer player --------------------------------------------------------------------------------


class Bot(Protocol):
    """A computer player, apart from the rules: the action ``seat`` takes now in ``state``.
    Deterministic for a given state (a stacked game with computer seats always plays the same).

    A bot whose choice may take longer than a request may wait (a search) says so with a class
    attribute ``off_request = True``: the house then never lets it play while answering a
    request, but off the request path (its job runner), and the game waits for it meanwhile."""

    def choose(self, state: Any, seat: int) -> Any: ...


def plays_off_request(bot: Bot | None) -> bool:
    return bool(getattr(bot, "off_request", False))


# The computer players' strengths, weakest first. ``NORMAL`` is the rule book's own computer
# player (``GameDefinition.bot``): a seat named AI, the terminals and every rule check play it.
EASY, NORMAL, STRONG = "easy", "normal", "strong"
STRENGTHS = (EASY, NORMAL, STRONG)
STRENGTH_WORDS = (N_("easy"), N_("normal"), N_("strong"), N_("Easy"), N_("Normal"), N_("Strong"))  # in the catalogue


@dataclass(frozen=True)
class Measured:
    """How a computer player did in the simulator's ladder (``python -m app.simulate --ladder``),
    as that command printed it: its share of ``games`` games against the player of strength
    ``against`` at two seats (a tie counting half), or, in a game played against the house,
    its mean return a round (``per_round``: +1 a round won, -1 a round lost)."""

    games: int
    share: float | None = None
    against: str = NORMAL
    per_round: float | None = None

    def line(self) -> str:
        """The figure in players' words: "beats normal in 2 of 3 games"."""
        return filled(self.words())

    def words(self) -> Said:
        """``line`` as a ``said`` text (the strength it was measured against a said text too)."""
        if self.per_round is not None:
            rounds = round(100 * abs(self.per_round))
            if rounds == 0:
                return said("wins as many rounds as it loses against the dealer")
            if self.per_round > 0:
                return said(("on balance wins {count} round in 100 against the dealer",
                             "on balance wins {count} rounds in 100 against the dealer"), count=rounds)
            return said(("on balance loses {count} round in 100 against the dealer",
                         "on balance loses {count} rounds in 100 against the dealer"), count=rounds)
        share = self.share if self.share is not None else 0.5
        beats = share >= 0.5
        won, of = _plain_fraction(share if beats else 1 - share)
        against = said(self.against)
        if won * 2 == of:
            return said("wins about half its games against {strength}", strength=against)
        if of <= 10:
            return said("beats {strength} in {won} of {of} games" if beats else
                        "loses to {strength} in {won} of {of} games", strength=against, won=won, of=of)
        return said("beats {strength} in {won}% of games" if beats else "loses to {strength} in {won}% of games",
                    strength=against, won=won)


def _plain_fraction(share: float) -> tuple[int, int]:
    """``share`` as the plainest fraction within 2.5 points of it (3 of 5, 2 of 3), else as a
    whole percentage (``(56, 100)``); never all of them or none unless it was so (99.4% is not
    "2 of 2")."""
    for of in (2, 3, 4, 5, 10):
        won = round(share * of)
        if 0 < won < of and abs(won / of - share) <= 0.025:
            return won, of
    return round(100 * share), 100


# -- questions answered off the request path ------------------------------------------------------


@dataclass(frozen=True)
class Question:
    """A question about a position whose answer takes longer to work out than a request may wait
    (a solver's verdict). ``key`` names the position: equal positions have equal keys, whichever
    game reached them, so an answer is worked out once and kept for all. ``data`` is what the
    answer is worked out from (plain JSON data); ``requires``: the keys a kept answer must hold
    to serve this question (a whole line of moves is worked out only where it is asked for)."""

    key: str
    data: Mapping[str, Any]
    requires: tuple[str, ...] = ()


class OverBudget(Exception):
    """Working out an answer took more than its budget (``Analyst.answer``); nothing is lost:
    asking again in the same process carries on where it stopped."""


class NeedsAnswers(Exception):
    """``new_state`` cannot deal yet: it needs the answers to ``questions`` (deal only winnable
    games needs the verdicts of the deals it walks through). The house asks them off the request
    path and calls again with the answers it has."""

    def __init__(self, questions: Sequence[Question], message: str = "") -> None:
        super().__init__(message or f"{len(questions)} answers are needed first")
        self.questions = list(questions)


class Analyst(Protocol):
    """A game's questions whose answers take longer than a request may wait: the house works
    them out off the request path (its job runner), within a budget, keeps each answer where
    every server sharing the database finds it (by the question's key), and hands the kept
    answers to the pages. Pure, like the rest of the game: no I/O, no clock.

    - ``question(state)``: the question about the state's position that its table shows the
      answer to (Seahaven Towers: "can this still be won, and how?"), or None (the game is over);
    - ``answer(data, budget)``: the answer to a question (its ``data``), as plain JSON data, or
      ``OverBudget`` once ``budget`` units of work (a solver's positions) were spent without one;
    - ``start_question(state)``: the question about the game's position as dealt, whose answer
      may show a whole solution (``solution``), or None;
    - ``solution(answer)``: the actions of a whole winning line in a kept answer (plain data, as
      ``action_to_dict`` writes them), or None;
    - ``solution_offered(state, answer)``: whether the table offers a whole solution now (after
      giving up, or in a lost position), ``answer`` being the kept answer of the state's
      position (None if there is none).

    A definition whose ``new_state`` needs answers before it can deal takes them as the keyword
    ``answers`` ({key: answer}; None: it may work them out itself, as a terminal does) and raises
    ``NeedsAnswers`` for those it lacks."""

    def question(self, state: Any) -> Question | None: ...

    def answer(self, data: Mapping[str, Any], budget: int) -> dict[str, Any]: ...

    def start_question(self, state: Any) -> Question | None: ...

    def solution(self, answer: Mapping[str, Any]) -> list[dict[str, Any]] | None: ...

    def solution_offered(self, state: Any, answer: Mapping[str, Any] | None) -> bool: ...


# -- who may make an action ---------------------------------------------------------------------------


class ActionKind(Enum):
    """Who may make an action, and when (the template ``GameState.apply`` checks it)."""

    TURN = "turn"  # the seat to move, on its turn
    TABLE = "table"  # anyone at the table, or no seat, while nobody is to move: dealing the next round
    # A seat, at any moment of play, on its own business (arranging its cards): the seat's private
    # data, which no other seat sees and no replay needs; its moves are ``Move.private``.
    OWN = "own"


TURN, TABLE, OWN = ActionKind.TURN, ActionKind.TABLE, ActionKind.OWN


@dataclass(frozen=True)
class ActionType:
    """One type of action of a game: its class, its names as plain data (the ``action`` field of
    ``action_to_dict``), and its kind."""

    cls: type
    names: tuple[str, ...]
    kind: ActionKind


# -- where the cards are --------------------------------------------------------------------------------


class Everyone:
    """Every seat and every spectator: ``seat in EVERYONE`` is always true."""

    def __contains__(self, seat: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "EVERYONE"


EVERYONE = Everyone()
NOBODY: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Zone:
    """Cards that lie together and who may see them there: ``EVERYONE``, ``NOBODY``, or a set of
    seats (a hand: its seat). A card everyone has seen go into a hidden place (taken from the
    discard pile, say) lies in a zone of its own that everyone may see."""

    name: str
    cards: Collection[Card]
    visible_to: Everyone | frozenset[int]
    holder: str | None = None  # whose hand the cards are part of (a seat's label, "Dealer"): None for a pile

    def visible(self, seat: int | None) -> bool:
        return seat in self.visible_to


# -- views ---------------------------------------------------------------------------------------------------


class View(TypedDict):
    """The keys every game's view has (see the module's docstring); a game's own view adds its
    board's keys in a ``TypedDict`` of its own."""

    seat: int | None
    players: list[dict[str, Any]]
    turn: int | None
    stage: str
    prompt: str | None
    hand: list[str] | None
    log: list[Event]
    summary: dict[str, Any] | None
    stage_say: NotRequired[Said]  # ``stage`` and ``prompt`` as ``said`` texts, for the web's words
    prompt_say: NotRequired[Said | None]


def seat_labels(names: Sequence[str]) -> list[str]:
    """The names as shown: several seats of one name (``AI``) are told apart by seat number,
    ``AI 2``, ``AI 3``."""
    return [f"{name} {seat + 1}" if names.count(name) > 1 else name for seat, name in enumerate(names)]


# -- what the house needs to know of a game, as data (like OpenSpiel's GameType) --------------

# How a game is set up (``GameDefinition.setup_flow``).
ONE_FORM = "one form"  # one form: the seats, the game's options, a stacked deck
MENUS = "menus"  # one question a page, in the words of the game's terminal menus (``MenuFlow``)

# What the house keeps of finished games, long-term (``GameDefinition.score_keeping``).
STATISTICS = "statistics"  # per-name figures: the definition's ``statistics``
SCORE_TABLE = "score table"  # the game's own score table and its file (``ScoreTableFormat``)


@dataclass(frozen=True)
class MenuFlow:
    """A set-up asked one question a page, as the game's terminal asks it. The first menu is the
    home page's first form: its answers show the scores, start a game of some players (with or
    without a stacked deck, whose name is asked next) or quit. Then every seat is asked the seat
    menu: a new player's name, or a returning player from the score table's names."""

    first_menu: tuple[str, ...]
    games: Mapping[int, tuple[int, bool]]  # an answer of the first menu -> (players, stacked deck?)
    view_scores: int  # the first menu's answer that shows the scores
    quit: int  # ...and the one that ends the session
    seat_menu: tuple[str, ...]  # a new player, a returning player: in this order
    names_listed: int = 20  # the returning players' list shows this many names; a search finds the others


class ScoreLine(Protocol):
    """A row of a game's score table (``ScoreTableFormat.row``): a name's games won, games lost
    and best score (None before a win)."""

    @property
    def name(self) -> str: ...
    @property
    def won(self) -> int: ...
    @property
    def lost(self) -> int: ...
    @property
    def best(self) -> int | None: ...


class ScoreTableClass(Protocol):
    """``ScoreTableFormat.table``: the game's table class, a table made of rows or read from its
    file's text. A table (of the game's own class) has ``scores`` ({casefolded name: row}),
    ``record_game``, ``to_csv`` and ``sorted_rows``."""

    def __call__(self, rows: Iterable[Any] = ...) -> Any: ...
    def from_csv(self, text: str) -> Any: ...


class ScoreFileError(ValueError):
    """A score table's file that cannot be read (``ScoreTableFormat.file_error``): why
    (``reason``), and the 1-based ``line`` of the problem (None: the whole file)."""

    def __init__(self, reason: str, line: int | None = None):
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class ScoreTableFormat:
    """A game's own long-term score table (games won, games lost, best score per name) and the
    text file that holds it: the game's pure reader and writer, which the house keeps its rows
    with. ``table(rows)`` has ``scores`` ({casefolded name: row}), ``record_game``, ``to_csv``,
    ``sorted_rows`` and ``table.from_csv(text)``; ``row(name, won, lost, best)``; ``file_error``
    (``reason``, ``line``) refuses a file; ``decode`` reads a file's bytes as text; ``diff``
    says what replacing one table by another changes; a name a spreadsheet would run as a formula
    starts with ``escape`` in the file."""

    table: ScoreTableClass
    row: Callable[[str, int, int, int | None], ScoreLine]
    file_error: type[ScoreFileError]
    decode: Callable[[bytes], str]
    diff: Callable[[Any, Any], dict[str, Any]]
    escape: str
    file_name: str = "scores.csv"


# -- the definition and the state -------------------------------------------------------------------


class GameDefinition(ABC):
    """A game, as the registry holds it. Subclasses set the class attributes and the methods."""

    key: str = ""
    name: str = ""
    summary: str = ""  # one line for the list of games
    # A few of its cards (their ids in ``deck``) that picture the game on its tile of the home
    # page; none: the deck's highest card of each of its first suits (``picture``).
    showcase: tuple[str, ...] = ()
    # What ``SeatResult.score`` counts, singular and plural, for lists of results ("Sam won, 2
    # points"; "52 cards home").
    score_unit: tuple[str, str] = ("point", "points")
    min_seats: int = 1
    max_seats: int = 1
    deck: DeckSpec | None = None
    deck_one_code_per_line = False  # deck files hold one code a line (21, T2.1)
    options: tuple[Option, ...] = ()
    statistics: tuple[Stat, ...] = ()
    bot: Bot | None = None  # the computer player, for seats named AI; None: the game has none
    # Its players of other strengths (``STRENGTHS``: easy, strong), beside ``bot``, the normal one.
    # Each sees only what its seat may see (``view(seat)``) and chooses among ``legal(seat)``.
    other_bots: ClassVar[Mapping[str, Bot]] = {}
    # How each strength did in the simulator's ladder (``Measured``), kept as the command printed
    # it, for the players who choose a computer player: ``strength_note``.
    measured: ClassVar[Mapping[str, Measured]] = {}
    analyst: Analyst | None = None  # questions answered off the request path (a solver): ``Analyst``
    # A player's own settings of the game's table (sending cards home by themselves), remembered
    # per browser; the game's forms send them with the actions they change.
    preferences: tuple[Option, ...] = ()
    # Every action type of the game; the two below follow from it.
    action_types: tuple[ActionType, ...] = ()
    # The names of the actions anyone at the table may make without a seat (dealing the next
    # round): the moves of ``legal(None)``. Every other action needs the seat it is made for.
    table_actions: frozenset[str] = frozenset()
    action_kinds: ClassVar[Mapping[type, ActionKind]] = {}
    # What the house needs to know, as data (see ``MenuFlow`` and ``ScoreTableFormat`` above):
    setup_flow: str = ONE_FORM
    menus: MenuFlow | None = None  # the MENUS flow's menus
    # The folder of its stacked deck files, under the decks folder: None is ``<key>/``, "" the
    # decks folder itself.
    decks_folder: str | None = None
    score_keeping: str = STATISTICS
    score_table: ScoreTableFormat | None = None  # the SCORE_TABLE's rows and file
    # The folder of its own templates (``_board.html``; ``_hand``, ``_summary``, ``_results``,
    # ``_scores``, ``_rematch`` if it has them), relative to the folder of the definition's
    # module: the table reads them as ``games/<key>/...``. None: they are the house's
    # ``templates/games/<key>/``.
    templates_folder: str | None = None
    # Where a replay may jump to: the log line that starts a round (a hand, a deal), by its
    # ``said`` template, and the round's short name from that line's fields ("Hand {hand}").
    # Empty: the game is one deal (a replay has no rounds to jump between).
    round_lines: Mapping[str, str] = {}

    def round_name(self, event: Event) -> str | None:
        """The short name of the round ``event`` (a logged line, plain data) starts, or None
        if it starts none (``round_lines``)."""
        say = event.get("say")
        if not isinstance(say, list) or len(say) != 2 or not isinstance(say[0], str):
            return None
        name = self.round_lines.get(say[0])
        if name is None or not isinstance(say[1], dict):
            return None
        try:
            return name.format(**say[1])
        except (KeyError, IndexError, ValueError):
            return None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _wrap_definition(cls)
        if "action_types" in cls.__dict__:
            cls.table_actions = frozenset(name for action_type in cls.action_types if action_type.kind is TABLE
                                          for name in action_type.names)
            cls.action_kinds = {action_type.cls: action_type.kind for action_type in cls.action_types}

    def validate_options(self, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every option's value: from ``raw`` where given, else its default (``OptionError``)."""
        raw = raw or {}
        values = {}
        for option in self.options:
            values[option.key] = option.read(raw[option.key]) if option.key in raw else option.default
        return values

    def house_rules(self, values: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The options of ``values`` that differ from their defaults, as (label, value in words),
        in the definition's order: what a table, a replay and an export show beside the game."""
        shown = []
        for option in self.options:
            if option.house and option.key in values and values[option.key] != option.default:
                shown.append((option.label, option.words(values[option.key])))
        return shown

    def variant_key(self, values: Mapping[str, Any]) -> str:
        """A short, stable name of the options of ``values`` that differ from their defaults
        ("" for the rule book's own game): statistics keep results of other rules apart by it."""
        return ";".join(f"{option.key}={option.read(values[option.key])!s}".lower() for option in self.options
                        if option.house and option.key in values and option.read(values[option.key]) != option.default)

    @property
    def takes_back(self) -> bool:
        """Whether the game's tables may allow take-backs (``TAKE_BACKS`` is one of its options)."""
        return any(option.key == TAKE_BACKS.key for option in self.options)

    def check_seats(self, names: Sequence[str]) -> None:
        self.check_seat_count(len(names))

    def check_seat_count(self, count: int) -> None:
        if not self.min_seats <= count <= self.max_seats:
            raise OptionError(f"{self.name} seats {self.seat_range()} players, not {count}.")

    def seat_range(self) -> str:
        if self.min_seats == self.max_seats:
            return str(self.min_seats)
        return f"{self.min_seats} to {self.max_seats}"

    def picture(self) -> tuple[str, ...]:
        """The cards (ids in ``deck``) that picture the game: ``showcase``, else the deck's
        highest card of each of its first four suits; none without a deck."""
        if self.showcase or self.deck is None:
            return self.showcase
        deck = self.deck
        return tuple(next(card.id for card in reversed(deck.cards) if card.suit == suit) for suit in deck.suits[:4])

    def bot_of(self, strength: str = NORMAL) -> Bot | None:
        """The computer player of ``strength`` (``STRENGTHS``): the rule book's own for normal;
        None if the game has no computer player of that strength."""
        return self.bot if strength == NORMAL else self.other_bots.get(strength)

    @property
    def strengths(self) -> tuple[str, ...]:
        """The strengths this game's computer players come in, weakest first."""
        return tuple(strength for strength in STRENGTHS if self.bot_of(strength) is not None)

    def strength_note(self, strength: str) -> str | None:
        """A line for players choosing a computer player of ``strength``, from what the ladder
        measured of it ("beats normal in 2 of 3 games"); None if it was not measured."""
        measured = self.measured.get(strength)
        return measured.line() if measured is not None else None

    def strength_words(self, strength: str) -> Said | None:
        """``strength_note`` as a ``said`` text, for the web."""
        measured = self.measured.get(strength)
        return measured.words() if measured is not None else None

    def round_returns(self, state: Any, seat: int) -> list[int] | None:
        """For a game played against the house (21's dealer), ``seat``'s return in each round of
        the finished ``state`` (+1 won, 0 a tie, -1 lost): the simulator measures each strength
        by its mean. None (the default): a game played between the seats, measured head to head."""
        return None

    baseline_label = "random play"  # what the baseline bot does, in the simulator's words

    def tally(self, state: Any) -> Mapping[str, int]:
        """Figures of one finished game that the simulator adds up (turns, blocked rounds...)."""
        return {}

    def tally_lines(self, totals: Mapping[str, int], games: int) -> list[str]:
        """The simulator's lines for the summed ``tally`` figures of ``games`` games."""
        return []

    def baseline_bot(self, rng: random.Random) -> Bot | None:
        """A weak player (it discards at random, say) that the simulator measures the computer
        player against, its choices drawn from ``rng``; None if the game has none."""
        return None

    item_noun = "item"  # what an item of the statistics kept per item is called ("deal")

    def describe_item(self, item: str) -> Said:
        """An item of the statistics kept per item (``SeatResult.item``), in words: "Deal 612"."""
        return said("{item}", item=item)

    def deck_preview(self, cards: Sequence[Card]) -> list[tuple[Said, list[Card]]]:
        """How a stacked deck deals, for the admin's preview: (what, cards) pairs, from the
        game's own deal."""
        return [(said("Top of the deck"), list(cards[:10]))]

    def deck_for(self, seats: int) -> DeckSpec:
        """The deck a game of ``seats`` players uses (a game may use more decks for more seats)."""
        if self.deck is None:
            raise ValueError(f"{self.name} is not played with a deck")
        return self.deck

    def parse_deck(self, text: str, seats: int | None = None) -> list[Card]:
        """A stacked deck from deck-file text, for a game of ``seats`` players (any number the
        game seats, if None); ``DeckError`` says what is wrong."""
        deck = self.deck_for(seats if seats is not None else self.min_seats)
        return parse_deck(text, deck, one_per_line=self.deck_one_code_per_line)

    @abstractmethod
    def new_state(self, names: Sequence[str], *, options: Mapping[str, Any] | None = None,
                  seed: int | str | None = None, stacked_deck: Sequence[Card] | None = None) -> GameState:
        """A new game for these seat names (``AI``: a computer seat), dealt from ``stacked_deck``
        or shuffled with a generator seeded by ``seed`` (kept in the state)."""

    @abstractmethod
    def from_dict(self, data: Mapping[str, Any]) -> GameState:
        """A saved state; ``ValueError`` if the data is not a consistent game."""

    def dealt_again(self, state: GameState) -> GameState | None:
        """The game ``state`` as it was dealt, from what the state keeps of its deal (its seats'
        names, its seed or stacked deck): for a game stored before its state as dealt was kept.
        None if the state does not say how it was dealt."""
        return None

    @abstractmethod
    def action_from_dict(self, data: Any) -> Any:
        """An action from plain data (a form, a saved log row); ``BadAction`` if it is none.
        (A game may set its actions module's function here: ``staticmethod(action_from_dict)``.)"""

    @abstractmethod
    def action_to_dict(self, action: Any) -> dict[str, Any]:
        """An action as plain data: ``action_from_dict(action_to_dict(a)) == a``."""

    def __repr__(self) -> str:
        return f"<game {self.key}>"


class GameState(ABC):
    """One game in progress. See the module's docstring for the protocol. ``deck`` is the deck
    this game is played with (every card of it is somewhere, always).

    ``log`` holds the public events (the game's log lines) this state knows, oldest first: every
    line since it was dealt or read from saved data, and always at least the game's last
    ``LOG_KEPT``; ``log_before`` lines of the game's log come before ``log[0]``. A saved state
    keeps the last ``LOG_KEPT`` lines only, and what the rules still need of the older ones as
    compact facts (``log_facts``); views show the last lines (``view_log``), and every line is
    shown to a seat through ``shown_log``, whether it comes from the state or from the stored
    actions."""

    definition: GameDefinition
    deck: DeckSpec
    game_over_text = "The game is over."

    def __init__(self, definition: GameDefinition, names: Sequence[str]):
        self.definition = definition
        self._action_kinds = definition.action_kinds  # (apply's first look-up, kept at hand)
        self._names = list(names)
        self._labels: list[str] | None = None  # (set here: an attribute added later slows every lookup)
        self.log: list[Event] = []
        self.log_before = 0
        # Take-backs (see ``TAKE_BACKS``): the table's choice, the state before the last action
        # of a seat that may take it back ({"seat", "what", "state"}), and the seats that
        # accepted a take-back asked for (None: none is asked).
        self.take_backs = TAKE_BACKS_OFF
        self._kept: dict[str, Any] | None = None
        self._accepted: list[int] | None = None
        # Cards everyone saw before a take-back put them back where they were hidden (a discard
        # taken back into the hand): card -> the name of the zone it went back to. Everyone still
        # knows the card lies there (``zones`` shows it so) until it leaves that zone or the round
        # ends.
        self._known: dict[Card, str] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _wrap_state(cls)

    @property
    def names(self) -> list[str]:
        """The seats' names, seat 0 first (``AI`` for a computer seat)."""
        return list(self._names)

    @abstractmethod
    def to_move(self) -> int | None: ...

    @abstractmethod
    def legal(self, seat: int | None) -> list[Move]: ...

    @final
    def apply(self, seat: int | None, action: Any) -> Outcome:
        """Apply ``action`` for ``seat`` (None: no seat, for a table action) whole, or raise an
        ``IllegalAction`` having changed nothing. The checks every game shares come first, once,
        in this order; then the game's own ``_step``."""
        mover = self.to_move()  # (None at the end: the simulator's hot path asks once)
        if mover is None and self.is_over():
            raise GameIsOver(self.game_over_text)
        kind = self._action_kinds.get(type(action))
        if kind is None:
            if type(action) in CORE_ACTION_NAMES and self.take_backs != TAKE_BACKS_OFF:
                return self._take_back_step(seat, action)
            raise BadAction(f"That is not an action of {self.definition.name}.",
                            say=said("That is not an action of {game}.", game=self.definition.name))
        if kind is TURN:
            if seat != mover or type(seat) is not int:  # (the seat to move is a seat: no more checks)
                self._check_seat(seat)
                if mover is None:
                    raise refused(WrongPhase, self.between_rounds_refusal())
                raise refused(NotYourTurn, self.out_of_turn_refusal(seat))
        else:
            self._check_seat(seat)
            if kind is TABLE:
                if mover is not None:
                    raise refused(WrongPhase, self.mid_round_refusal())
            elif seat is None:
                raise NotASeat("Only a player at the table can do that.")
        if self.take_backs == TAKE_BACKS_OFF or kind is OWN:
            return self._step(seat, action)
        return self._step_kept(seat, action)

    # -- take-backs -------------------------------------------------------------------------------------

    def hidden_by_seat(self) -> dict[int | None, frozenset[Card]]:
        """``hidden_from`` every seat and a spectator (None), from one reading of the zones."""
        zones = self.zones()
        seats: list[int | None] = [*range(len(self._names)), None]
        return {seat: frozenset(card for zone in zones if seat not in zone.visible_to for card in zone.cards)
                for seat in seats}

    def _step_kept(self, seat: int | None, action: Any) -> Outcome:
        """``_step``, keeping the state before it for a take-back if the action is a seat's and
        showed nobody a card hidden from that seat (``revealed``, proved from the zones)."""
        before = self._bare_dict()
        hidden = self.hidden_by_seat()
        outcome = self._step(seat, action)  # (a refusal changes nothing: the kept state stays)
        self._accepted = None
        self._kept = None
        if self._known and outcome.round_over:
            self._known = {}
        if seat is not None and not self.is_over() and not revealed(hidden, self.hidden_by_seat(), seat):
            self._kept = {"seat": seat, "what": self.definition.action_to_dict(action)["action"], "state": before}
        return outcome

    def _bare_dict(self) -> dict[str, Any]:
        data = self.to_dict()
        data.pop(TAKE_BACK_KEY, None)
        return data

    def may_take_back(self, seat: int | None) -> bool:
        """Whether ``seat`` may take back (or ask to take back) its last action now."""
        kept = self._kept
        return kept is not None and kept["seat"] == seat and self._accepted is None

    def take_back_asked(self) -> int | None:
        """The seat whose take-back is asked for and not yet answered, or None."""
        return self._kept["seat"] if self._kept is not None and self._accepted is not None else None

    def take_back_words(self, what: str) -> str:
        """An action's name (``action_to_dict``'s) as the thing taken back: "discard", "lay off"
        (each game's are in ``TAKE_BACK_WORDS``, for the catalogue)."""
        return what.replace("_", " ")

    def take_back_fields(self) -> dict[str, Any]:
        """What the game's own log lines hold beyond ``log_event``'s fields (21: its ``kind``)."""
        return {}

    def take_back_moves(self, seat: int | None) -> list[Move]:
        """The take-back moves of ``seat`` now: taking back (or asking to) its last action, or
        answering another seat's request; ``legal`` adds them to the game's moves."""
        kept = self._kept
        if kept is None or not self.is_seat(seat):
            return []
        what = self.take_back_words(kept["what"])
        if kept["seat"] == seat:
            if self._accepted is not None:
                return []
            if self.take_backs == TAKE_BACKS_ASKED and self._people_asked(seat):
                return [Move("take_back", f"Ask to take back your {what}", primary=False,
                             say=said("Ask to take back your {what}", what=said(what)))]
            return [Move("take_back", f"Take back your {what}", primary=False,
                         say=said("Take back your {what}", what=said(what)))]
        if self._accepted is not None and seat not in self._accepted and seat in self._people_asked(kept["seat"]):
            name = self.label(kept["seat"])
            return [Move("accept_take_back", f"Let {name} take back their {what}",
                         say=said("Let {player} take back their {what}", player=name, what=said(what))),
                    Move("refuse_take_back", f"Keep {name}'s {what}", primary=False,
                         say=said("Keep {player}'s {what}", player=name, what=said(what)))]
        return []

    def _people_asked(self, asking: int) -> list[int]:
        """The seats that answer ``asking``'s request: every person but ``asking`` (a computer
        player accepts at once)."""
        return [seat for seat, name in enumerate(self._names) if seat != asking and not is_computer_name(name)]

    def _take_back_step(self, seat: int | None, action: Any) -> Outcome:
        if not self.is_seat(seat):
            raise NotASeat("Only a player at the table can do that.")
        outcome = Outcome(action, seat)
        kept = self._kept
        if type(action) is TakeBack:
            if kept is None or not self.may_take_back(seat):
                raise WrongPhase("You have nothing to take back now: only your last action, before the next "
                                 "player acts, and only if it showed nobody a hidden card.")
            what = self.take_back_words(kept["what"])
            if self.take_backs == TAKE_BACKS_ASKED and self._people_asked(seat):
                self._accepted = []
                self._take_back_line(outcome, seat, f"{self.label(seat)} asks to take back their {what}.",
                                     said(ASKS_TO_TAKE_BACK, player=self.label(seat),
                                          what=said(what)))
                return outcome
            self._restore(outcome)
            return outcome
        if kept is None or self._accepted is None or seat == kept["seat"] or seat in self._accepted \
                or seat not in self._people_asked(kept["seat"]):
            raise WrongPhase("Nobody asks you to let them take something back now.")
        what, asking = self.take_back_words(kept["what"]), self.label(kept["seat"])
        if type(action) is RefuseTakeBack:
            self._accepted = None
            self._kept = None
            self._take_back_line(outcome, seat, f"{self.label(seat)} keeps {asking}'s {what}: it stands.",
                                 said(KEEPS, player=self.label(seat),
                                      other=asking, what=said(what)))
            return outcome
        self._accepted.append(seat)
        if set(self._people_asked(kept["seat"])) <= set(self._accepted):
            self._restore(outcome)
        else:
            self._take_back_line(outcome, seat, f"{self.label(seat)} lets {asking} take back their {what}.",
                                 said(LETS_TAKE_BACK, player=self.label(seat),
                                      other=asking, what=said(what)))
        return outcome

    def _restore(self, outcome: Outcome) -> None:
        """The state before the kept action, with the game's log as it is now and the take-back's
        line (read by the game with the rest: a game may read facts from its log)."""
        kept = self._kept
        assert kept is not None  # (checked by the caller)
        seat, what = kept["seat"], self.take_back_words(kept["what"])
        line: Event = {"seat": seat, "text": f"{self.label(seat)} took back their {what}.", "cards": [],
                       "say": said(TOOK_BACK, player=self.label(seat), what=said(what)), **self.take_back_fields()}
        data = dict(kept["state"])
        data.update(self.log_to_dict())  # the log goes on: its lines are stored as they were told
        data["log"] = [*data["log"], line]
        restored = self.definition.from_dict(data)
        seen = {card for zone in self.zones() if zone.visible_to is EVERYONE for card in zone.cards}
        known = dict(self._known)
        for zone in restored.zones():
            if zone.visible_to is not EVERYONE:
                known.update((card, zone.name) for card in zone.cards if card in seen)
        mode = self.take_backs
        self.__dict__.update(restored.__dict__)
        self.take_backs = mode
        self._kept = None
        self._accepted = None
        self._known = known
        outcome.events.append(copy_log([line])[0])

    def _take_back_line(self, outcome: Outcome, seat: int, text: str, say: Said) -> None:
        self.log_event(outcome, seat, text, say=say, **self.take_back_fields())

    def take_back_to_dict(self) -> dict[str, Any]:
        return {"mode": self.take_backs, "kept": self._kept, "accepted": self._accepted,
                "known": {card.id: zone for card, zone in self._known.items()}}

    def known_zones(self, zones: list[Zone]) -> list[Zone]:
        """``zones`` with the cards everyone saw before a take-back (``_known``) shown to everyone
        while they lie in the zone they went back to."""
        known = self._known
        if not known:
            return zones
        shown: list[Zone] = []
        for zone in zones:
            seen = [card for card in zone.cards if known.get(card) == zone.name] if zone.visible_to is not EVERYONE \
                else []
            if not seen:
                shown.append(zone)
                continue
            shown.append(Zone(zone.name, [card for card in zone.cards if card not in seen], zone.visible_to))
            shown.append(Zone(f"{zone.name}, seen before a take-back", seen, EVERYONE))
        return shown

    def read_take_back(self, data: Any) -> None:
        """The take-back data of a saved state (``take_back_to_dict``); ``ValueError`` if wrong."""
        if not isinstance(data, Mapping):
            raise ValueError("take-back data is a mapping")
        mode = data.get("mode")
        if mode not in (TAKE_BACKS_OFF, TAKE_BACKS_ASKED, TAKE_BACKS_FREE):
            raise ValueError(f"unknown take-backs {mode!r}")
        kept, accepted = data.get("kept"), data.get("accepted")
        if kept is not None:
            if not (isinstance(kept, Mapping) and self.is_seat(kept.get("seat")) and isinstance(kept.get("what"), str)
                    and isinstance(kept.get("state"), Mapping) and TAKE_BACK_KEY not in kept["state"]):
                raise ValueError("a kept state is a seat's, with its action and the state before it")
            kept = {"seat": kept["seat"], "what": kept["what"], "state": dict(kept["state"])}
        if accepted is not None and (kept is None or not isinstance(accepted, list)
                                     or not all(self.is_seat(seat) for seat in accepted)):
            raise ValueError("a take-back accepted is one asked for, by seats")
        known = data.get("known") or {}
        if not isinstance(known, Mapping) or not all(isinstance(zone, str) for zone in known.values()):
            raise ValueError("the cards known after a take-back are card ids and zones")
        self.take_backs = str(mode)
        self._kept = kept
        self._accepted = list(accepted) if accepted is not None else None
        self._known = {self.deck.parse(str(card)): zone for card, zone in known.items()}

    def is_seat(self, seat: object) -> TypeGuard[int]:
        """Is ``seat`` one of this game's seat numbers (not None, not True, not "0")?"""
        return type(seat) is int and 0 <= seat < len(self._names)

    def _check_seat(self, seat: object) -> None:
        if seat is not None and not self.is_seat(seat):
            raise NotASeat(f"There is no seat {seat} at this table.",
                           say=said("There is no seat {seat} at this table.", seat=str(seat)[:20]))

    @abstractmethod
    def _step(self, seat: int | None, action: Any) -> Outcome:
        """The game's own rules for an action ``apply`` has let through (a turn action is the
        seat to move's): apply it whole, or raise an ``IllegalAction`` having changed nothing."""

    def out_of_turn_refusal(self, seat: int | None) -> Said:
        """Words refusing ``seat`` a turn action while another seat is to move (a ``said`` text
        without cards: the terminals print it ``filled``)."""
        mover = self.to_move()
        return said("It is {player}'s turn.", player=self.label(mover)) if mover is not None else \
            said("It is not your turn.")

    def between_rounds_refusal(self) -> Said:
        """Words refusing a turn action while nobody is to move (between rounds)."""
        return said("The round is over: the next round must be dealt first.")

    def mid_round_refusal(self) -> Said:
        """Words refusing a table action while a round is being played."""
        return said("The round is still being played.")

    def log_event(self, outcome: Outcome, seat: int | None, text: str, cards: Iterable[Card] = (),
               **more: Any) -> Event:
        """Add a public event to the log and to ``outcome``: ``more`` are the game's own fields."""
        event: Event = {"seat": seat, "text": text, "cards": [card.id for card in cards], **more}
        self.log.append(event)
        outcome.events.append(event)
        return event

    # -- the log ------------------------------------------------------------------------------------

    @property
    def log_total(self) -> int:
        """How many lines the game's log has: the next line's number (the deal's first is 0)."""
        return self.log_before + len(self.log)

    def shown_log(self, seat: int | None, lines: Sequence[Event], first: int) -> list[Event]:
        """``lines``, the game's log lines from line number ``first`` on, as ``seat`` (None: a
        spectator) may read them now, as new plain data. The view's last lines and the whole
        game's log (read from the stored actions) are both shown through it, so a game that
        hides what an old line showed (a card of an earlier round, in play again) does it here."""
        return copy_log(lines)

    def tells_of_an_earlier_deal(self, line: Event) -> bool:
        """Whether a log line tells of a deal whose cards have since been gathered and shuffled
        again: the cards it names tell where they were, not where they are now, so the privacy
        checks do not read its words. A game that never deals a card twice has none."""
        return False

    def view_log(self, seat: int | None) -> list[Event]:
        """A view's ``log``: the game's last ``LOG_KEPT`` lines, as ``seat`` may read them."""
        lines = self.log[-LOG_KEPT:]
        return self.shown_log(seat, lines, self.log_total - len(lines))

    def log_to_dict(self) -> dict[str, Any]:
        """The log as saved data keeps it (a game's ``to_dict`` adds these keys): the last
        ``LOG_KEPT`` lines (``log``), how many lines come before them (``log_before``) and the
        game's compact facts of those (``log_facts``)."""
        cut = max(0, len(self.log) - LOG_KEPT)
        return {"log": copy_log(self.log[cut:]), "log_before": self.log_before + cut,
                **self.log_facts(self.log[:cut])}

    def log_facts(self, older: Sequence[Event]) -> dict[str, Any]:
        """What the rules still need of the log's lines before the saved ones, as plain data
        (Mason Rummy: every card a line named): this state's facts of the lines before
        ``log[0]``, together with those of ``older``, its first lines, which saved data leaves
        out. A game whose rules and views read no older line keeps none."""
        return {}

    def read_log(self, data: Mapping[str, Any], read_line: Callable[[Any], Event]) -> None:
        """The log of saved ``data`` (the keys of ``log_to_dict``), each line read by
        ``read_line``; the game reads its own facts. Data saved before the log moved to the
        stored actions holds every line, and no ``log_before``: all of them are read."""
        self.log = [read_line(line) for line in data["log"]]
        before = data.get("log_before", 0)
        if type(before) is not int or before < 0:
            raise ValueError(f"log_before {before!r} is not a count of lines")
        self.log_before = before

    @abstractmethod
    def view(self, seat: int | None) -> View: ...

    def stage(self) -> str:
        """The view's ``stage`` line alone (a list of games shows it beside each game): a game says
        it without building a whole view."""
        return self.view(None)["stage"]

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def results(self) -> list[SeatResult]:
        """Every seat's result once the game is over; [] before."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]: ...

    @abstractmethod
    def zones(self) -> list[Zone]:
        """Every card of the game, once, in the zone where it lies now, with who may see it there:
        the one account of privacy, which ``hidden_from`` and ``card_locations`` read. Once the
        game is over nothing is hidden (``public_once_over``)."""

    def public_once_over(self, zones: list[Zone]) -> list[Zone]:
        """``zones`` as they are once the game is over: every card is public then (every hand is
        shown in the results, the replay's last steps and the whole log). A game's ``zones``
        returns through this."""
        if not self.is_over():
            return zones
        return [zone if zone.visible_to is EVERYONE else dataclasses.replace(zone, visible_to=EVERYONE)
                for zone in zones]

    def hidden_from(self, seat: int | None) -> set[Card]:
        """The cards ``seat`` may not see now (others' hands, face-down cards, the stock)."""
        return {card for zone in self.zones() if seat not in zone.visible_to for card in zone.cards}

    def every_hand(self) -> list[tuple[str, list[Card]]]:
        """Every hand at the table, whole, whoever may see its cards: (its holder, its cards), in
        the zones' order, from the zones that say whose hand they are part of (``Zone.holder``).
        Only for eyes that may see everything: a finished game's replay shows them at each step."""
        hands: dict[str, list[Card]] = {}
        for zone in self.zones():
            if zone.holder is not None:
                hands.setdefault(zone.holder, []).extend(zone.cards)
        return list(hands.items())

    def seats_with_private_cards(self) -> set[int]:
        """The seats that have a place of their own others may not see (a hand), even while every
        card in it happens to be known: none when every card is face up or face down for all
        alike, as at 21."""
        seats: set[int] = set()
        for zone in self.zones():
            if isinstance(zone.visible_to, frozenset):
                seats |= zone.visible_to
        return seats

    def card_locations(self) -> Counter[Card]:
        """How many times each card is somewhere (a pile, a hand, the table): 1 each, always."""
        found: Counter[Card] = Counter()
        for zone in self.zones():
            found.update(zone.cards)
        return found

    def label(self, seat: int) -> str:
        """The name shown for a seat: several ``AI`` seats are told apart as ``AI 2``, ``AI 3``."""
        labels = self._labels
        if labels is None:  # worked out once: the names never change
            labels = self._labels = seat_labels(self._names)
        return labels[seat]

    def seat_view(self, seat: int) -> dict[str, Any]:
        """The keys every view gives each seat in ``players``: ``seat``, ``name``, ``label`` and
        ``computer``; a game adds its own."""
        name = self._names[seat]
        return {"seat": seat, "name": name, "label": self.label(seat), "computer": is_computer_name(name)}

    def copy(self) -> GameState:
        return self.definition.from_dict(self.to_dict())

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, GameState) and self.definition is other.definition
                and self.to_dict() == other.to_dict())

    __hash__ = None  # type: ignore[assignment]  # a state is mutable


# -- what the core adds to every game's methods (take-backs) ------------------------------------------


def _wrap_state(cls: type[GameState]) -> None:
    """A game's ``to_dict`` with the take-back data added (when the table allows take-backs), and
    its ``legal`` with the take-back moves (when there are any)."""
    game_to_dict = cls.__dict__.get("to_dict")
    if game_to_dict is not None and not getattr(game_to_dict, "_takes_back", False):
        @functools.wraps(game_to_dict)
        def to_dict(self: GameState) -> dict[str, Any]:
            data: dict[str, Any] = game_to_dict(self)
            if self.take_backs != TAKE_BACKS_OFF:
                data[TAKE_BACK_KEY] = self.take_back_to_dict()
            return data

        to_dict._takes_back = True  # type: ignore[attr-defined]
        cls.to_dict = to_dict  # type: ignore[method-assign]
    game_zones = cls.__dict__.get("zones")
    if game_zones is not None and not getattr(game_zones, "_takes_back", False):
        @functools.wraps(game_zones)
        def zones(self: GameState) -> list[Zone]:
            found: list[Zone] = game_zones(self)
            return self.known_zones(found) if self._known else found

        zones._takes_back = True  # type: ignore[attr-defined]
        cls.zones = zones  # type: ignore[method-assign]
    game_legal = cls.__dict__.get("legal")
    if game_legal is not None and not getattr(game_legal, "_takes_back", False):
        @functools.wraps(game_legal)
        def legal(self: GameState, seat: int | None) -> list[Move]:
            moves: list[Move] = game_legal(self, seat)
            if self._kept is None:
                return moves
            return moves + self.take_back_moves(seat)

        legal._takes_back = True  # type: ignore[attr-defined]
        cls.legal = legal  # type: ignore[method-assign]


def _wrap_definition(cls: type[GameDefinition]) -> None:
    """A game's ``new_state`` and ``from_dict`` that read the take-backs, and its actions' readers
    and writers that know the core's take-back actions."""
    game_new = cls.__dict__.get("new_state")
    if game_new is not None and not getattr(game_new, "_takes_back", False):
        @functools.wraps(game_new)
        def new_state(self: GameDefinition, names: Sequence[str], *args: Any, **kwargs: Any) -> GameState:
            state: GameState = game_new(self, names, *args, **kwargs)
            options = kwargs.get("options") or {}
            if self.takes_back and TAKE_BACKS.key in options:
                state.take_backs = TAKE_BACKS.read(options[TAKE_BACKS.key])
            return state

        new_state._takes_back = True  # type: ignore[attr-defined]
        cls.new_state = new_state  # type: ignore[method-assign]
    game_from = cls.__dict__.get("from_dict")
    if game_from is not None and not getattr(game_from, "_takes_back", False):
        @functools.wraps(game_from)
        def from_dict(self: GameDefinition, data: Mapping[str, Any]) -> GameState:
            take_back = data.get(TAKE_BACK_KEY) if isinstance(data, Mapping) else None
            if take_back is not None:
                data = {key: value for key, value in data.items() if key != TAKE_BACK_KEY}
            state: GameState = game_from(self, data)
            if take_back is not None:
                state.read_take_back(take_back)
            return state

        from_dict._takes_back = True  # type: ignore[attr-defined]
        cls.from_dict = from_dict  # type: ignore[method-assign]
    for name, wrap in (("action_from_dict", _reading_core_actions), ("action_to_dict", _writing_core_actions)):
        found = cls.__dict__.get(name)
        if found is None:
            continue
        function = found.__func__ if isinstance(found, staticmethod) else found
        if getattr(function, "_takes_back", False):
            continue
        wrapped = wrap(function)
        setattr(cls, name, staticmethod(wrapped) if isinstance(found, staticmethod) else wrapped)


def _reading_core_actions(function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def action_from_dict(*args: Any) -> Any:
        data = args[-1]
        name = data.get("action") if isinstance(data, Mapping) else None
        if isinstance(name, str) and name in CORE_ACTIONS:
            return CORE_ACTIONS[name]()
        return function(*args)

    action_from_dict._takes_back = True  # type: ignore[attr-defined]
    return action_from_dict


def _writing_core_actions(function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def action_to_dict(*args: Any) -> dict[str, Any]:
        name = CORE_ACTION_NAMES.get(type(args[-1]))
        if name is not None:
            return {"action": name}
        result: dict[str, Any] = function(*args)
        return result

    action_to_dict._takes_back = True  # type: ignore[attr-defined]
    return action_to_dict

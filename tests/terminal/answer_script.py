"""Write the answer lines that make the terminal game play a chosen game (R9.4).

Typing a whole game's answers by hand is error-prone, so the terminal tests play the game here
first, through ``app.games.mason.Game`` (the same engine the terminal uses), and record the exact lines
a person would type: Menu D numbers, Menu E numbers, Menu F selections and discard numbers.
Feeding those lines to ``python -m app.terminal`` must then replay the very same game.

A *strategy* decides for a human seat, one step at a time: given the game and the seat it
returns the next action (``Draw``, ``LayDown`` or ``Discard``). ``greedy`` draws from the stock,
lays down every play it finds (a new run, else a new meld, else a single card onto its own sets)
and discards card 1. It is written here, not borrowed from the computer player, so games between
humans depend only on the rules, never on the AI's strategy (R8.3 leaves that to the project).
``AI`` seats play themselves (R8) and need no answers; a game with AI seats must therefore take
its expected numbers from the replay (``expected_rows``), not from a table written by hand.
Several ``AI`` seats share the one name (R3.4); the program tells them apart on screen by seat
number (``seat_label``: ``AI 1``, ``AI 2``, ``AI 3``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from app.games.mason import (
    DISCARD_PILE, DRAW_PHASE, ROUND_OVER, STOCK, Card, Discard, Draw, Game, LayDown, LayDownRefused, NextRound,
)
from app.games.mason.bot import play_computer_turn
from app.games.mason.melds import MIN_SET_SIZE, is_meld, is_run
from app.games.mason.players import is_computer_name

Strategy = Callable[[Game, int], "Draw | LayDown | Discard"]


def find_play(cards: Sequence[Card], own_sets) -> tuple[Card, ...] | None:
    """A play in ``cards`` (hand order): the first longest run, else the largest meld (highest
    value first), else the first card that fits one of ``own_sets``; None if there is none."""
    best: tuple[Card, ...] = ()
    for start in range(len(cards)):
        for end in range(len(cards), start + MIN_SET_SIZE - 1, -1):
            stretch = tuple(cards[start:end])
            if len(stretch) > len(best) and is_run(stretch):
                best = stretch
                break
    if best:
        return best
    for value in reversed("23456789TJQKA"):
        same = tuple(card for card in cards if card.value == value)
        if len(same) > len(best) and is_meld(same):
            best = same
    if best:
        return best
    for card in cards:
        if any(card_set.fits(card) for card_set in own_sets):
            return (card,)
    return None


def greedy(game: Game, seat: int):
    """Draw from the stock (R5.3: the discard pile if the stock cannot give a card), lay down
    every play ``find_play`` sees, then discard card 1 of Menu F."""
    hand = game.players[seat].hand
    if game.phase == DRAW_PHASE:
        return Draw(STOCK if game.can_draw(STOCK) else DISCARD_PILE)
    found = find_play(hand.cards, hand.laid_down)
    if found is not None:
        return LayDown(found)
    return Discard(hand.cards[0])


def never_lay_down(game: Game, seat: int):
    """Never lay anything down: draw from the stock, discard card 1 (answers 1, 2, 1 each turn)."""
    if game.phase == DRAW_PHASE:
        return Draw(STOCK if game.can_draw(STOCK) else DISCARD_PILE)
    return Discard(game.players[seat].hand.cards[0])


@dataclass
class PlayedGame:
    """A game played through the engine, and the answers that replay it in the terminal."""

    game: Game
    turn_lines: list[str] = field(default_factory=list)  # Menu D/E/F answers only
    events: list[str] = field(default_factory=list)  # every log line, all rounds, in order
    refusals: list[str] = field(default_factory=list)  # reasons of refused lay-downs
    round_events: list[list[str]] = field(default_factory=list)  # events per round
    went_out: list[int | None] = field(default_factory=list)  # per round: the seat that went out (None: blocked)

    def answers(self, menu_a: str, seat_lines: Sequence[str], deck_name: str | None = None,
                after: Sequence[str] = ("6",)) -> list[str]:
        """All the answers: Menu A, the deck file name, the seats, the turns, then ``after``."""
        head = [menu_a] + ([deck_name] if deck_name is not None else [])
        return head + list(seat_lines) + self.turn_lines + list(after)


def number_of(hand: Sequence[Card], card: Card) -> int:
    """Menu F number (R9.2 order) of ``card``."""
    return list(hand).index(card) + 1


def play(names: Iterable[str], deck: Sequence[Card] | None = None, seed: int | None = None,
         strategy: Strategy | dict[int, Strategy] = greedy, max_steps: int = 20000) -> PlayedGame:
    """Play a whole game: ``AI`` seats by R8, the others by ``strategy`` (one for all human
    seats, or a dict seat -> strategy). Returns the finished game and the answer lines."""
    game = Game.new(list(names), stacked_deck=deck, seed=seed)
    played = PlayedGame(game)
    played.events.append(game.round_log()[0]["text"])
    played.round_events.append([game.round_log()[0]["text"]])
    lines = played.turn_lines

    def note(outcome) -> None:
        for event in outcome.events:
            played.events.append(event["text"])
            played.round_events[-1].append(event["text"])
        if outcome.round_over:
            played.went_out.append(outcome.went_out)

    for _ in range(max_steps):
        if game.is_over():
            return played
        if game.phase == ROUND_OVER:
            outcome = game.apply(None, NextRound())
            played.round_events.append([])
            note(outcome)
            continue
        seat = game.turn
        if game.players[seat].is_computer:
            for outcome in play_computer_turn(game, seat):
                note(outcome)
                if outcome.round_over:
                    break
            continue
        choose = strategy[seat] if isinstance(strategy, dict) else strategy
        action = choose(game, seat)
        hand = list(game.players[seat].hand.cards)
        if isinstance(action, Draw):
            lines.append("1" if action.source == STOCK else "2")
        elif isinstance(action, LayDown):
            lines += ["1", ",".join(str(number_of(hand, card)) for card in action.cards)]
        elif isinstance(action, Discard):
            lines += ["2", str(number_of(hand, action.card))]
        else:  # pragma: no cover - a strategy bug
            raise TypeError(f"not an action: {action!r}")
        try:
            note(game.apply(seat, action))
        except LayDownRefused as refusal:
            played.refusals.append(str(refusal))
    raise RuntimeError("the scripted game did not end")  # pragma: no cover


def seat_label(names: Sequence[str], seat: int) -> str:
    """The name the program shows for ``seat`` (0-based) in a game seating ``names``: the name
    itself, but when several seats share it (only ``AI`` can, R3.4) the name and the 1-based seat
    number, ``AI 2``. Written here from the rule, not taken from ``Game.label``."""
    name = names[seat]
    return f"{name} {seat + 1}" if list(names).count(name) > 1 else name


def expected_rows(played: PlayedGame, before: Iterable[tuple[str, int, int, int | None]] = ()):
    """The score table rows (name, won, lost, best) after ``played``, starting from ``before``:
    R7.3 (lowest total wins, ties all win), R7.4 (best = lowest winning score), R3.4 (every AI
    seat counts on the one AI row). Rows sorted by name ignoring case, as the program writes them."""
    rows = {name.casefold(): [name, won, lost, best] for name, won, lost, best in before}
    low = min(player.score for player in played.game.players)
    for player in played.game.players:
        name = "AI" if is_computer_name(player.name) else player.name
        row = rows.setdefault(name.casefold(), [name, 0, 0, None])
        if player.score == low:
            row[1] += 1
            row[3] = player.score if row[3] is None else min(row[3], player.score)
        else:
            row[2] += 1
    return [tuple(row) for _, row in sorted(rows.items())]


def scores_csv(rows: Iterable[tuple[str, int, int, int | None]]) -> str:
    """The exact scores.csv text (R7.5) for rows (name, won, lost, best), in the given order."""
    text = '"name","games won","games lost","best score"\n'
    for name, won, lost, best in rows:
        text += f'"{name}","{won}","{lost}","{"" if best is None else best}"\n'
    return text

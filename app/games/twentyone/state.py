"""21 as a game state of the protocol (T3, T5, T7): rounds at one table of 1 to 5 players
against the dealer.

The dealer is part of the state, not a seat. A round: the deal (T3.1), then each player in seat
order hits or stays until they stay, go bust or reach exactly 21 (T3.2, T3.3); once every
player is done, the dealer plays only if someone still stands (T7.1), card by card (T3.4, T5.2);
each standing player's result is decided against the dealer alone. Between rounds nobody is to
move and anyone at the table may deal the next round or end the table. The game ends after the
``rounds`` option's number of rounds (0: only when the table is ended).

Privacy (T3.2, T3.3, T7.2): every face-up card is public; the deck and every face-down card
(the dealer's hidden card, and a hidden card that went to the discard pile without being turned
over) are hidden from everyone. The discard pile shows its face-up cards (each was seen on the
table), a hidden card in it only as a place.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from app.core.cards import Card as CoreCard
from app.core.protocol import (
    EVERYONE, NOBODY, Event, GameDefinition, GameState, Move, Outcome, Said, SeatResult, View, Zone, copy_log,
    N_, filled, read_said, said, seat_labels,
)
from app.core.saved import one_of, reading, whole

from .actions import Action, Deal, EndTable, Hit
from .cards import DECK, Card, Deck
from .table import ACTION, BUST_LIMIT, DEALER_STANDS_ON, DEALER_WINS, END, PLAYER_WINS, RESULT, ROUND, TWENTY_ONE, Table

STATE_FORMAT = 1

# the game's phase
PLAYING, BETWEEN, OVER = "playing", "between", "over"
# a seat's part in the current round
TO_PLAY, STAYED, BUST, NATURAL, CHARLIE = N_("to play"), N_("stayed"), N_("bust"), "21", N_("five cards")
STATUSES = (TO_PLAY, STAYED, BUST, NATURAL, CHARLIE)
CHARLIE_CARDS = 5  # T8.4
# Who wins a tie (T8.5): nobody (T3.4, the default), or the dealer.
PUSH, DEALER_TIES = "push", "dealer"
# a seat's result in a round
WON, LOST, TIED = N_("won"), N_("lost"), N_("tied")
RESULTS = (WON, LOST, TIED)
WHO_WON = {PLAYER_WINS: WON, DEALER_WINS: LOST}

HIT_MOVE = Move("hit", "Hit")
STAY_MOVE = Move("stay", "Stay")
END_MOVE = Move("end", "End the table", primary=False)
SOLO_NAME = "Player"  # one player at the table is "Player" in every line, as in T4-T6

# The log line that starts a round (a replay jumps to it: the definition's ``round_lines``).
ROUND_DEALT = "Round {round}."


# -- the lines that end a round (T5.1; with several players each names its player) ----------------


def bust_line(round_number: int, name: str | None = None) -> str:
    if name is None:
        return f"Player went bust. Dealer won round {round_number}!"
    return f"{name} went bust. Dealer won round {round_number} against {name}!"


def natural_line(round_number: int, name: str | None = None) -> str:
    return f"{name or SOLO_NAME} wins round {round_number} with a natural 21!"


def dealer_note(dealer_value: int) -> str:
    """What T5.1 says of the dealer's final hand before the result, or ""."""
    if dealer_value > BUST_LIMIT:
        return "Dealer went bust."
    if dealer_value == TWENTY_ONE:
        return "Dealer has a natural 21!"
    return ""


def showdown_line(result: str, round_number: int, name: str | None = None) -> str:
    if name is None:
        return {WON: f"Player wins round {round_number}!", LOST: f"Dealer wins round {round_number}!",
                TIED: f"Tie! No one wins round {round_number}!"}[result]
    return {WON: f"{name} wins round {round_number}!", LOST: f"Dealer wins round {round_number} against {name}!",
            TIED: f"Tie! No one wins round {round_number} between {name} and the dealer!"}[result]


# The round's results in players' words (the web's log; the terminal prints T5.1's lines)
DEALER_NOTE_SAID = {"bust": "The dealer went bust with {dealer}.", "21": "The dealer has 21!"}
RESULT_SAID = {WON: "{player} wins round {round}: {value} against the dealer's {dealer}.",
               LOST: "The dealer wins round {round} against {player}: {dealer} against {value}.",
               TIED: "{player} and the dealer tie round {round} at {value}."}


def result_said(result: str, round_number: int, player: str, value: int, dealer: int, note: str = "") -> Said:
    """A player's result against the dealer in players' words, after the dealer's ``note``
    (``DEALER_NOTE_SAID``'s key, with one player: all on one line, as T5.1's)."""
    told = said(RESULT_SAID[result], player=player, round=round_number, value=value, dealer=dealer)
    if note:  # (two sentences, each its own in a catalogue)
        return said("{note} {result}", note=said(DEALER_NOTE_SAID[note], dealer=dealer), result=told)
    return told


def note_key(dealer_value: int) -> str:
    """``dealer_note``'s case as a key of ``DEALER_NOTE_SAID``, or ""."""
    if dealer_value > BUST_LIMIT:
        return "bust"
    return "21" if dealer_value == TWENTY_ONE else ""


def table_rules(options: Mapping[str, Any]) -> dict[str, Any]:
    """The house rules the table itself plays by (T8.1-T8.3), from the game's options; a game
    saved before them has none: the rule book's."""
    return {"aces_high": options.get("aces", "one") == "eleven",
            "dealer_stands_on": options.get("dealer_stands_on", DEALER_STANDS_ON),
            "dealer_hits_soft_17": bool(options.get("dealer_hits_soft_17", False))}


class TwentyOneView(View):
    """What a seat sees of a game of 21 (T3.2, T7.2): the shared keys and the table's."""

    round: int
    rounds: int
    phase: str
    hands: list[dict[str, Any]]
    dealer: dict[str, Any]
    deck_count: int
    discard_count: int
    discard_pile: list[str | None]


class TwentyOneState(GameState):
    game_over_text = "The game is over: the table is closed."

    def __init__(self, definition: GameDefinition, names: Sequence[str], options: Mapping[str, Any],
                 seed: int | str, table: Table):
        super().__init__(definition, names)
        self.deck = DECK
        self.options = dict(options)
        self.seed = seed
        self.table = table
        self.round_number = 0
        self.phase = BETWEEN
        self.turn: int | None = None
        self.status: list[str] = [TO_PLAY] * len(names)
        self.results_now: list[str | None] = [None] * len(names)  # this round's results so far
        self.history: list[list[str]] = []  # every finished round's results, seat by seat
        # What the game's log lines before ``log`` told (``log_facts``): the results lines of
        # their last round since its "Round" line.
        self._round_results_before: list[Event] = []

    @classmethod
    def new(cls, definition: GameDefinition, names: Sequence[str], options: Mapping[str, Any],
            seed: int | str, stacked_deck: Sequence[CoreCard] | None) -> TwentyOneState:
        """A new game with round 1 dealt."""
        if stacked_deck is not None:
            cards = list(stacked_deck)
            if len(cards) != DECK.size or set(cards) != set(DECK.cards):
                raise ValueError(f"a stacked deck holds the {DECK.size} cards of 21 once each")
            deck = Deck(cards)
        else:
            deck = Deck.shuffled(random.Random(f"{seed}/deck"))  # T2.4
        state = cls(definition, names, options, seed, Table(cls._line_names(names), deck, seed=seed,
                                                            **table_rules(options)))
        state._start_round(Outcome(Deal()))
        return state

    @staticmethod
    def _line_names(names: Sequence[str]) -> list[str]:
        if len(names) == 1:
            return [SOLO_NAME]
        return seat_labels(names)  # several AI seats are AI 1, AI 2, ...

    # -- reading ------------------------------------------------------------------------------------

    @property
    def rounds(self) -> int:
        rounds: int = self.options["rounds"]
        return rounds

    @property
    def several(self) -> bool:
        return len(self._names) > 1

    def to_move(self) -> int | None:
        return self.turn if self.phase == PLAYING else None

    def is_over(self) -> bool:
        return self.phase == OVER

    def hand_value(self, seat: int) -> int:
        """The value of a seat's hand (every player's card is face up: anyone may add it up)."""
        return self.table.players[seat].hand_value

    def tally(self, seat: int) -> dict[str, int]:
        """T5.3: rounds won, lost and tied by a seat so far."""
        counts = Counter(results[seat] for results in self.history)
        return {result: counts[result] for result in RESULTS}

    def legal(self, seat: int | None) -> list[Move]:
        if self.phase == OVER or (seat is not None and not self.is_seat(seat)):
            return []
        if self.phase == BETWEEN:
            return [Move("deal", f"Deal round {self.round_number + 1}",
                         say=said("Deal round {round}", round=self.round_number + 1)), END_MOVE]
        if seat is not None and seat == self.turn:
            return [HIT_MOVE, STAY_MOVE]
        return []

    def take_back_fields(self) -> dict[str, Any]:
        return {"kind": ACTION, "deck": self.table.refills}  # a line of the web's log only, as "Player stays." is

    def _line_name(self, seat: int) -> str | None:
        """How result lines name a seat: None (the word "Player") when one player sits."""
        return self.table.players[seat].name if self.several else None

    # -- acting -------------------------------------------------------------------------------------

    def out_of_turn_refusal(self, seat: int | None) -> Said:
        return said("It is {player}'s turn to hit or stay.", player=self.label(self.turn))  # type: ignore[arg-type]

    def between_rounds_refusal(self) -> Said:
        return said("Round {round} is over: deal round {next} first.", round=self.round_number,
                    next=self.round_number + 1)

    def mid_round_refusal(self) -> Said:
        return said("Round {round} is still being played: it is {player}'s turn to hit or stay.",
                    round=self.round_number, player=self.label(self.turn))  # type: ignore[arg-type]

    def _step(self, seat: int | None, action: Action) -> Outcome:
        """The core has checked the seat and the moment: from here the action applies whole."""
        outcome = Outcome(action, seat)
        if isinstance(action, Deal):
            self._start_round(outcome)
        elif isinstance(action, EndTable):
            self._end_game(outcome, f"The table is ended after round {self.round_number}.",
                           said("The table is ended after round {round}.", round=self.round_number))
        elif isinstance(action, Hit):
            self._hit(seat, outcome)  # type: ignore[arg-type]  # a turn action: the seat to move
        else:
            self._stay(seat, outcome)  # type: ignore[arg-type]
        return outcome

    def _record(self, outcome: Outcome) -> None:
        events = self.table.take_events()
        self.log.extend(events)
        outcome.events.extend(events)

    def _start_round(self, outcome: Outcome) -> None:
        if self.round_number:
            self.table.clear_table()  # T3.5; the deck carries on (T3.7)
        self.round_number += 1
        self.table.note(None, f"Round {self.round_number}", kind=ROUND,
                        say=said(ROUND_DEALT, round=self.round_number))
        self.table.deal_hands()
        self.table.show_table([self.label(seat) for seat in range(len(self._names))])
        self.status = [TO_PLAY] * len(self._names)
        self.results_now = [None] * len(self._names)
        self.phase = PLAYING
        # Nobody holds 21 after the deal (T1.2), but where aces may count 11 (T8.1): a player
        # dealt 21 wins at once, as 21 after a hit does (T3.3).
        for seat in range(len(self._names)):
            if self.table.player_natural(seat):
                self.status[seat], self.results_now[seat] = NATURAL, WON
                name = self._line_name(seat)
                self.table.note(seat, natural_line(self.round_number, name), kind=RESULT,
                                say=said("{player} has 21 and wins round {round}!", player=self.label(seat),
                                         round=self.round_number))
        self.turn = -1
        self._next_player(outcome)
        self._record(outcome)

    def _hit(self, seat: int, outcome: Outcome) -> None:
        name, label = self._line_name(seat), self.label(seat)
        self.table.note(seat, f"{name or SOLO_NAME} hits.")  # (the hand's line below says what came)
        bust = self.table.player_hit(seat)
        player = self.table.players[seat]
        self.table.show_after(seat, said("{player} hits and draws the {card}: {value}.", player=label,
                                         card=player.hand[-1].id, value=player.hand_value))
        if bust:  # T3.2
            self.status[seat], self.results_now[seat] = BUST, LOST
            self.table.note(seat, bust_line(self.round_number, name), kind=RESULT,
                            say=said("{player} went bust: the dealer wins round {round} against {player}.",
                                     player=label, round=self.round_number))
        elif self.table.player_natural(seat):  # T3.3
            self.status[seat], self.results_now[seat] = NATURAL, WON
            self.table.note(seat, natural_line(self.round_number, name), kind=RESULT,
                            say=said("{player} has 21 and wins round {round}!", player=label, round=self.round_number))
        elif self.options.get("five_card_charlie") and len(player.hand) >= CHARLIE_CARDS:  # T8.4
            self.status[seat], self.results_now[seat] = CHARLIE, WON
            self.table.note(seat, f"{name or SOLO_NAME} wins round {self.round_number} with five cards!",
                            kind=RESULT, say=said("{player} holds five cards without going over and wins round "
                                                  "{round}!", player=label, round=self.round_number))
        if self.status[seat] != TO_PLAY:
            self._next_player(outcome)
        self._record(outcome)

    def _stay(self, seat: int, outcome: Outcome) -> None:
        self.table.note(seat, f"{self._line_name(seat) or SOLO_NAME} stays.",
                        say=said("{player} stays on {value}.", player=self.label(seat), value=self.hand_value(seat)))
        self.status[seat] = STAYED
        self._next_player(outcome)
        self._record(outcome)

    def _next_player(self, outcome: Outcome) -> None:
        assert self.turn is not None  # (a seat has just played)
        following = [seat for seat in range(self.turn + 1, len(self._names)) if self.status[seat] == TO_PLAY]
        if following:
            self.turn = following[0]
            return
        self._finish_round(outcome)

    def _finish_round(self, outcome: Outcome) -> None:
        """T7.1: the dealer plays only if someone still stands; each standing player's result
        against the dealer alone (T3.4)."""
        standing = [seat for seat, status in enumerate(self.status) if status == STAYED]
        if standing:
            self.table.dealer_hit()
            dealer = self.table.dealer.hand_value
            note, key = dealer_note(dealer), note_key(dealer)
            if note and self.several:
                self.table.note(None, note, kind=RESULT, say=said(DEALER_NOTE_SAID[key], dealer=dealer))
            for seat in standing:
                result = WHO_WON.get(self.table.who_won(seat), TIED)
                if result == TIED and self.options.get("ties") == DEALER_TIES:  # T8.5
                    result = LOST
                self.results_now[seat] = result
                line = showdown_line(result, self.round_number, self._line_name(seat))
                if note and not self.several:
                    line = f"{note} {line}"  # T5.1: all on one line
                self.table.note(seat, line, kind=RESULT,
                                say=result_said(result, self.round_number, self.label(seat), self.hand_value(seat),
                                                dealer, key if not self.several else ""))
        self.history.append(cast(list[str], list(self.results_now)))  # every seat has its result now
        self.turn = None
        self.phase = BETWEEN
        outcome.round_over = True
        if self.rounds and self.round_number >= self.rounds:
            self._end_game(outcome, f"That was the last round ({self.rounds}).",
                           said("That was the last round ({rounds}).", rounds=self.rounds))

    def _end_game(self, outcome: Outcome, why: str, why_said: Said) -> None:
        self.phase = OVER
        self.turn = None
        self.table.note(None, why, kind=END, say=why_said)
        for seat in range(len(self._names)):
            tally = self.tally(seat)
            self.table.note(seat, f"{self.label(seat)}: {tally[WON]} won, {tally[LOST]} lost, "
                                  f"{tally[TIED]} tied.", kind=END,
                            say=said("{player}: {won} won, {lost} lost, {tied} tied.", player=self.label(seat),
                                     won=tally[WON], lost=tally[LOST], tied=tally[TIED]))
        outcome.game_over = True
        self._record(outcome)

    # -- results --------------------------------------------------------------------------------------

    def results(self) -> list[SeatResult]:
        """T5.3: each seat's rounds won, lost and tied; a seat won the game when it won more rounds
        than it lost; its score is its rounds won."""
        if self.phase != OVER:
            return []
        results = []
        for seat, name in enumerate(self._names):
            tally = self.tally(seat)
            results.append(SeatResult(seat, name, tally[WON] > tally[LOST], tally[WON], {
                "rounds_won": tally[WON], "rounds_lost": tally[LOST], "rounds_tied": tally[TIED]}))
        return results

    # -- what each seat sees --------------------------------------------------------------------------

    def zones(self) -> list[Zone]:
        """Every face-up card is public (T3.2, T3.3, T7.2); the deck and every face-down card (the
        dealer's hidden card, and a hidden card that went to the discard pile without being
        turned over) are hidden from everyone. The log names a card only while it lies face up
        (``event``); a card it named lies face down again only once the discard pile has become
        the deck (T3.6), shuffled, and then its old lines tell where it *was*
        (``tells_of_an_earlier_deal``)."""
        table = self.table
        places: list[tuple[str, Iterable[Card], str | None]] = [
            ("deck", table.deck, None), ("discard pile", table.discard_pile, None),
            ("dealer's hand", table.dealer.hand, "Dealer")]
        places += [(f"{self.label(seat)}'s hand", player.hand, self.label(seat))
                   for seat, player in enumerate(table.players)]
        zones = []
        for name, cards, holder in places:
            shown: list[CoreCard] = []
            hidden: list[CoreCard] = []
            for card in cards:
                (shown if card.face_up else hidden).append(card.core)
            zones += [Zone(name, shown, EVERYONE, holder), Zone(f"{name}, face down", hidden, NOBODY, holder)]
        return self.public_once_over(zones)

    def view(self, seat: int | None) -> TwentyOneView:
        table = self.table
        own = seat if self.is_seat(seat) else None
        dealer = table.dealer
        return {
            "seat": own,
            "players": [{**self.seat_view(index), **self.tally(index)} for index in range(len(self._names))],
            "turn": self.to_move(),
            "stage": self.stage(),
            "stage_say": self.stage_said(),
            "prompt": filled(prompt := self._prompt(own)),
            "prompt_say": prompt,
            "hand": [card.id for card in table.players[own].hand] if own is not None else None,
            "log": self.view_log(seat),
            "summary": self._summary() if self.phase != PLAYING else None,
            "round": self.round_number,
            "rounds": self.rounds,
            "phase": self.phase,
            "hands": [{"seat": index, "label": self.label(index), "line": table.hand_line(index),
                       "cards": [card.id for card in player.hand], "value": player.hand_value,
                       "status": self.status[index], "result": self.results_now[index]}
                      for index, player in enumerate(table.players)],
            "dealer": {"line": table.hand_line(None),
                       "cards": [card.id if card.face_up else None for card in dealer.hand],
                       "hidden": sum(1 for card in dealer.hand if not card.face_up),
                       "value": dealer.hand_value if dealer.all_face_up else None,
                       "showing": dealer.shown_value,
                       "played": bool(table.dealer_turn),
                       "bust": bool(table.dealer_turn) and dealer.hand_value > BUST_LIMIT,
                       "steps": [{"cards": list(step["cards"]), "value": step["value"]} for step in table.dealer_turn]},
            "deck_count": len(table.deck),
            "discard_count": len(table.discard_pile),
            # Every face-up card was seen on the table (T7.2); a hidden card that went there
            # without being turned over stays hidden (None).
            "discard_pile": [card.id if card.face_up else None for card in table.discard_pile],
        }

    def stage(self) -> str:
        return filled(self.stage_said())

    def stage_said(self) -> Said:
        if self.rounds:
            return said("Round {round} of {rounds}", round=self.round_number, rounds=self.rounds)
        return said("Round {round}", round=self.round_number)

    def _prompt(self, seat: int | None) -> Said:
        if self.phase == OVER:
            return said("The game is over.")
        if self.phase == BETWEEN:
            return said("Deal round {round}, or end the table.", round=self.round_number + 1)
        assert self.turn is not None  # (playing: a seat is to play)
        value = self.table.players[self.turn].hand_value
        if seat == self.turn:
            # the status bar: "Your turn, Ann: hit or stay with 16?"
            return said("hit or stay with {value}?", value=value)
        return said("{player} is deciding (hand worth {value}): hit or stay.", player=self.label(self.turn),
                    value=value)

    def _summary(self) -> dict[str, Any]:
        return {
            "round": self.round_number,
            "title": f"Round {self.round_number} is over",
            "title_say": said("Round {round} is over", round=self.round_number),
            "lines": [entry["text"] for entry in self._last_round_results()],
            "said": [entry.get("say") or said(entry["text"]) for entry in self._last_round_results()],
            "results": [{"seat": seat, "label": self.label(seat), "result": result}
                        for seat, result in enumerate(self.history[-1] if self.history else [])],
            "tally": [{"seat": seat, "label": self.label(seat), **self.tally(seat)}
                      for seat in range(len(self._names))],
        }

    def _last_round_results(self) -> list[Event]:
        entries: list[Event] = []
        for entry in reversed(self.log):
            if entry["kind"] == ROUND:
                return entries[::-1]
            if entry["kind"] == RESULT:
                entries.append(entry)
        return self._round_results_before + entries[::-1]  # the round began before the lines held

    def tells_of_an_earlier_deal(self, line: Event) -> bool:
        """T3.6: a line of a deck that has since been refilled from the discard pile."""
        return bool(line.get("deck", self.table.refills) < self.table.refills)

    def log_facts(self, older: Sequence[Event]) -> dict[str, Any]:
        results = list(self._round_results_before)
        for entry in older:
            if entry["kind"] == ROUND:
                results = []
            elif entry["kind"] == RESULT:
                results.append(entry)
        return {"log_round_results": copy_log(results)}

    # -- plain data -----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.definition.key,
            "format": STATE_FORMAT,
            "names": list(self._names),
            "options": dict(self.options),
            "seed": self.seed,
            "round": self.round_number,
            "phase": self.phase,
            "turn": self.turn,
            "status": list(self.status),
            "results": list(self.results_now),
            "history": [list(results) for results in self.history],
            **self.log_to_dict(),
            **self.table.to_dict(),
        }

    @classmethod
    def from_dict(cls, definition: GameDefinition, data: Mapping[str, Any]) -> TwentyOneState:
        with reading("game of 21"):
            return cls._from_dict(definition, data)

    @classmethod
    def _from_dict(cls, definition: GameDefinition, data: Mapping[str, Any]) -> TwentyOneState:
        if data["game"] != definition.key or data["format"] != STATE_FORMAT:
            raise ValueError("not a saved game of 21 in this format")
        names = data["names"]
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise ValueError("names is a list of names")
        definition.check_seats(names)
        options = definition.validate_options(data["options"])
        seed = data["seed"]
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise ValueError("the seed is a number or a text")
        table = Table.from_dict(data, cls._line_names(names), seed, **table_rules(options))
        state = cls(definition, names, options, seed, table)
        state.round_number = whole(data["round"])
        state.phase = one_of(data["phase"], (PLAYING, BETWEEN, OVER))
        state.turn = data["turn"]
        state.status = [one_of(status, STATUSES) for status in data["status"]]
        state.results_now = [None if result is None else one_of(result, RESULTS) for result in data["results"]]
        state.history = [[one_of(result, RESULTS) for result in results] for results in data["history"]]
        state.read_log(data, cls._entry)
        state._round_results_before = [cls._entry(entry) for entry in data.get("log_round_results", [])]
        state._check()
        return state

    @staticmethod
    def _entry(entry: Any) -> Event:
        seat = entry["seat"]
        if not (seat is None or (isinstance(seat, int) and not isinstance(seat, bool))):
            raise ValueError("an event's seat is a number or None")
        if not isinstance(entry["text"], str) or not isinstance(entry["kind"], str):
            raise ValueError("an event has a text and a kind")
        return {"seat": seat, "text": entry["text"], "cards": [DECK.parse(card).id for card in entry["cards"]],
                "kind": entry["kind"], "deck": whole(entry.get("deck", 0)), **read_said(entry)}

    def _check(self) -> None:
        """The saved data must be a game the rules could have reached."""
        seats = len(self._names)
        table = self.table
        if len(self.status) != seats or len(self.results_now) != seats or any(len(r) != seats for r in self.history):
            raise ValueError("one status and one result a seat")
        if self.round_number < 1 or len(self.history) not in (self.round_number - 1, self.round_number):
            raise ValueError("the rounds do not add up")
        if self.phase == PLAYING:
            if (not self.is_seat(self.turn) or self.status[self.turn] != TO_PLAY
                    or len(self.history) == self.round_number):
                raise ValueError("the seat to play is not playing")
        elif self.turn is not None or len(self.history) != self.round_number:
            raise ValueError("between rounds and at the end nobody is to play")
        for seat, player in enumerate(table.players):
            value, status = player.hand_value, self.status[seat]
            fits = {TO_PLAY: value < TWENTY_ONE and self.phase == PLAYING, STAYED: value < TWENTY_ONE,
                    BUST: value > BUST_LIMIT, NATURAL: value == TWENTY_ONE,
                    CHARLIE: value < TWENTY_ONE and len(player.hand) == CHARLIE_CARDS}[status]
            if not fits:
                raise ValueError(f"seat {seat} cannot be '{status}' with a hand worth {value}")
        if any(not card.face_up for player in table.players for card in player.hand):
            raise ValueError("players' cards are face up")
        if any(not card.face_up for card in table.dealer.hand[:1] + table.dealer.hand[2:]):
            raise ValueError("only the dealer's second card may be face down")

"""The computer player (C6), apart from the rules: ``ComputerPlayer.choose(game, seat)`` returns the
one action that seat takes now, deterministically for a given state, and acts only through
``RummyState.apply``. It uses only what the seat may see (C7.1): its own hand, the melds, the
discard pile, the hand sizes, and the cards every player saw face up during the hand.

- C6.1 draw: the top of the discard pile when it would at once make a new meld with the hand or
  lay off on any meld; otherwise the stock.
- C6.2 play: everything it can, one play per call: the longest run first, then the largest set,
  then a lay-off (the first card in hand order that fits, on the first fitting meld in table
  order). A play that C3.3 would refuse is skipped (or shortened by a card, when that keeps it a
  meld).
- C6.3 discard: ``discard_scores`` below: each card's points against what it is worth keeping.

``RandomDiscardPlayer`` draws and plays the same way but discards at random: the baseline the
strategy is measured against (``bench/rummy_bot.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .actions import DISCARD_PILE, STOCK, Action, DiscardCard, DrawCard, LayOff, MeldCards
from .cards import (
    ALL, BIT, CARDS, POINTS_OF, RANK_MASK, RANK_OF, RANKS, SUIT_BITS, SUITS, numbers,
)
from .state import DRAW, RummyState
from .melds import RUN_STARTS, fitting_any

# -- tables ------------------------------------------------------------------------------------------


def _longest_run(holding: int) -> tuple[int, int]:
    """(length, lowest rank) of the longest stretch of consecutive ranks in a 13-bit holding of
    one suit, the lowest first on a tie; (0, 0) for an empty holding."""
    best = (0, 0)
    rank = 0
    while rank < RANKS:
        if holding >> rank & 1:
            start = rank
            while rank < RANKS and holding >> rank & 1:
                rank += 1
            if rank - start > best[0]:
                best = (rank - start, start)
        rank += 1
    return best


def _longest_runs() -> tuple[tuple[int, int], ...]:
    """``_longest_run`` of every holding. Only about a hundred answers differ: each is one
    shared tuple, so the table is 64 KB of references rather than half a megabyte of tuples."""
    distinct: dict[tuple[int, int], tuple[int, int]] = {}
    return tuple(distinct.setdefault(run, run) for run in map(_longest_run, range(1 << RANKS)))


LONGEST_RUN = _longest_runs()

# A card's neighbourhood: with the hand shifted up two bits, ``(hand << 2 & WINDOW[card]) >> card``
# is 5 bits for the ranks r-2 .. r+2 of the card's suit (bit 2: the card itself), none beyond the
# ace or the king (C1.1: a run does not wrap).
WINDOW = tuple(sum(1 << (suit * RANKS + r + 2) for r in range(rank - 2, rank + 3) if 0 <= r < RANKS)
               for suit in range(SUITS) for rank in range(RANKS))
CARD_RANK_MASK = tuple(RANK_MASK[RANK_OF[card]] for card in range(SUITS * RANKS))  # a card's rank, all suits
# Neighbourhoods (bit 2 set) in which the card is part of three in a row.
IN_A_RUN = tuple(any(bits & run == run for run in (0b00111, 0b01110, 0b11100)) for bits in range(32))

@dataclass(frozen=True)
class Weights:
    """What the discard strategy (C6.3) counts, in points (tuned by head-to-head games, see
    ``bench/README.md``). A card's discard score is its points, less what it is worth keeping:

    - ``pair`` for each other card of its rank in hand, while a card of that rank is live;
    - ``near`` for each same-suit neighbour in hand, for each live card that would make the run;
    - ``gap`` for a same-suit card two ranks away, when the card between them is live;
    - ``feed`` when it fits a meld on the table (the next player could take it and lay it off);
    - ``danger`` when it goes with a card the next player is known to hold (taken from the
      discard pile), by rank or as a same-suit neighbour.

    Points count ``late`` times when an opponent holds ``late_size`` cards or fewer, at tables
    of at most ``late_players`` seats (with more players, shedding points early cost games).
    ``live``: which cards may still come. ``"adaptive"``: while the stock holds at least
    ``stock_left`` cards a seat and has not been turned over, every card not seen face up in
    this hand; after that, the discard pile comes back (C4.1) and only the melds and the cards
    known to be in other hands are out. ``"seen"`` and ``"table"`` are those two rules alone;
    ``"none"``: every card not in hand."""

    pair: int = 12
    near: int = 10
    gap: int = 7
    feed: int = 6
    danger: int = 4
    late: int = 3
    late_size: int = 3
    late_players: int = 2
    live: str = "adaptive"
    stock_left: int = 2
    run_keep: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "run_keep", _run_keep_table(self))  # made once: a frozen table


def _run_keep_table(weights: Weights) -> tuple[int, ...]:
    """Keep values of a card's run prospects, indexed by ``held << 5 | live``: five bits each
    around the card's rank r (bit 0: r-2, bit 1: r-1, bit 2: r, bit 3: r+1, bit 4: r+2) of the
    same suit held in hand, and of those still live (may yet be drawn)."""
    table = []
    for held in range(32):
        for live in range(32):
            keep = 0
            if held & 0b00010:  # r-1 held: r-1 r completes with r-2 or r+1
                keep += weights.near * (bool(live & 0b00001) + bool(live & 0b01000))
            if held & 0b01000:  # r+1 held: r r+1 completes with r-1 or r+2
                keep += weights.near * (bool(live & 0b00010) + bool(live & 0b10000))
            if held & 0b00001 and not held & 0b00010 and live & 0b00010:  # r-2 _ r
                keep += weights.gap
            if held & 0b10000 and not held & 0b01000 and live & 0b01000:  # r _ r+2
                keep += weights.gap
            table.append(keep)
    return tuple(table)


DEFAULT_WEIGHTS = Weights()


# -- C6.1 and C6.2 -------------------------------------------------------------------------------------


def makes_meld(card: int, hand: int) -> bool:
    """C6.1: would ``card`` make a new meld with two or more cards of ``hand``?"""
    if (hand & RANK_MASK[RANK_OF[card]]).bit_count() >= 2:
        return True
    return IN_A_RUN[(((hand | BIT[card]) << 2) & WINDOW[card]) >> card]


def draw_source(game: RummyState, seat: int) -> str:
    """C6.1: the discard pile's top if it makes a new meld or lays off; otherwise the stock."""
    top = game.discard.top()
    if top is not None:
        hand = game.players[seat].hand.mask
        if makes_meld(top, hand) or fitting_any(game.melds) & BIT[top]:
            return DISCARD_PILE
    return STOCK


def next_play(game: RummyState, seat: int) -> MeldCards | LayOff | None:
    """C6.2: the next meld or lay-off, or None when there is nothing (more) to play."""
    hand = game.players[seat].hand.mask
    taken = game.taken
    # The hands a play may not leave: the card taken this turn alone (C3.3, unless it may go
    # back, C9.3), and no card at all where the last card must be discarded (C9.2).
    alone = (BIT[taken] if taken is not None and not game.discard_back else -1, 0 if game.must_discard else -1)
    # Runs first, longest first (on a tie, the first suit in C D H S order, then the lowest).
    if hand & (hand >> 1) & (hand >> 2) & RUN_STARTS:
        best_length = 0
        best = 0
        for suit in range(SUITS):
            length, low = LONGEST_RUN[(hand >> (suit * RANKS)) & SUIT_BITS]
            if length > best_length:
                best_length = length
                best = ((1 << length) - 1) << (suit * RANKS + low)
        play = _allowed(best, hand, alone)
        if play:
            return MeldCards(tuple(CARDS[n] for n in numbers(play)))
    # Then sets, the largest first (on a tie, the lowest rank).
    clubs, diamonds = hand & SUIT_BITS, (hand >> 13) & SUIT_BITS
    hearts, spades = (hand >> 26) & SUIT_BITS, hand >> 39
    ranks = (clubs & diamonds & (hearts | spades)) | (hearts & spades & (clubs | diamonds))  # 3 or 4 suits
    if ranks:
        fours = ranks & clubs & diamonds & hearts & spades
        rank = ((fours or ranks) & -(fours or ranks)).bit_length() - 1
        play = _allowed(hand & RANK_MASK[rank], hand, alone)
        if play:
            return MeldCards(tuple(CARDS[n] for n in numbers(play)))
    # Then lay-offs: the first card in hand order that fits, on the first meld that takes it.
    if game.melds:
        fits = fitting_any(game.melds) & hand
        while fits:
            bit = fits & -fits
            fits ^= bit
            if _forbidden(hand & ~bit, alone):
                continue
            for number, meld in enumerate(game.melds, start=1):
                if meld.fits & bit:
                    return LayOff(CARDS[bit.bit_length() - 1], number)
    return None


def _forbidden(left: int, alone: tuple[int, int]) -> bool:
    """Whether a play may not leave ``left`` in hand: ``alone`` holds the hands it may not leave."""
    return left in alone


def _allowed(play: int, hand: int, alone: tuple[int, int]) -> int:
    """``play``, or ``play`` less its highest (or lowest) card when the rules forbid leaving what it
    leaves (C3.3, C9.2) and the shorter play is still a meld; 0 when none can be played."""
    if not _forbidden(hand & ~play, alone):
        return play
    if play.bit_count() > 3:
        for shorter in (play & ~(1 << (play.bit_length() - 1)), play & (play - 1)):  # a shorter run, a set of three
            if not _forbidden(hand & ~shorter, alone):
                return shorter
    return 0


# -- C6.3: the discard ------------------------------------------------------------------------------


def discard_scores(game: RummyState, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> list[tuple[int, int]]:
    """``(score, card)`` for each card the seat may discard (C3.3): the highest score goes."""
    run_keep = weights.run_keep
    players = game.players
    hand = players[seat].hand.mask
    taken = game.taken
    allowed = hand & ~BIT[taken] if taken is not None else hand
    seen = game.seen
    fits = table = 0
    for meld in game.melds:
        fits |= meld.fits
        table |= meld.mask
    # The cards that may still come to this hand (``Weights.live``).
    if weights.live == "seen" or (weights.live == "adaptive" and not game.turned_over
                                  and len(game.stock) >= weights.stock_left * len(players)):
        live = ALL & ~hand & ~seen
    elif weights.live in ("table", "adaptive"):
        others = 0
        for index, player in enumerate(players):
            if index != seat:
                others |= player.hand.mask
        live = ALL & ~hand & ~table & ~(others & seen)
    else:
        live = ALL & ~hand
    weight = 1
    if len(players) <= weights.late_players:
        for index, player in enumerate(players):
            if index != seat and player.hand.mask.bit_count() <= weights.late_size:
                weight = weights.late  # an opponent may go out soon: every point left costs (C5.1)
                break
    known = players[(seat + 1) % len(players)].hand.mask & seen  # the next player's taken cards
    hand_up, live_up, known_up = hand << 2, live << 2, known << 2  # for the WINDOW look-ups
    pair, feed, danger = weights.pair, weights.feed, weights.danger
    windows, rank_masks, points_of = WINDOW, CARD_RANK_MASK, POINTS_OF  # locals: the loop is hot
    scores = []
    while allowed:
        bit = allowed & -allowed
        allowed ^= bit
        card = bit.bit_length() - 1
        window = windows[card]
        same_rank = rank_masks[card]
        keep = run_keep[((hand_up & window) >> card) << 5 | ((live_up & window) >> card)]
        same = (hand & same_rank).bit_count() - 1
        if same and live & same_rank:
            keep += pair * same
        score = weight * points_of[card] - keep
        if fits & bit:
            score -= feed  # the next player could take it and lay it off
        if known and (known & same_rank or ((known_up & window) >> card) & 0b11011):
            score -= danger  # it goes with a card the next player took from the discard pile
        scores.append((score, card))
    return scores


def choose_discard(game: RummyState, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> int:
    """C6.3: the card with the highest discard score; on a tie, the later in hand order (the
    higher rank, or the later suit)."""
    return max(discard_scores(game, seat, weights))[1]


class ComputerPlayer:
    """The computer player of seats named ``AI`` (C6)."""

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS):
        self.weights = weights

    def choose(self, game: RummyState, seat: int) -> Action:
        if game.phase is DRAW:
            return DrawCard(draw_source(game, seat))
        play = next_play(game, seat)
        if play is not None:
            return play
        return DiscardCard(CARDS[self.discard(game, seat)])

    def discard(self, game: RummyState, seat: int) -> int:
        return choose_discard(game, seat, self.weights)

    def __repr__(self) -> str:
        return "ComputerPlayer()"


class RandomDiscardPlayer(ComputerPlayer):
    """The baseline: C6.1 and C6.2 as the computer player, but a random discard (one the rules
    allow), drawn from ``rng``."""

    def __init__(self, rng: random.Random):
        super().__init__()
        self.rng = rng

    def discard(self, game: RummyState, seat: int) -> int:
        hand = game.players[seat].hand.mask
        if game.taken is not None:
            hand &= ~BIT[game.taken]
        return self.rng.choice(list(numbers(hand)))

    def __repr__(self) -> str:
        return "RandomDiscardPlayer()"

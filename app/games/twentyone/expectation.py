"""The exact expected return of hitting and of staying at 21, from the cards a seat has not seen.

A seat at 21 sees every face-up card: every hand on the table, the dealer's up card, and the
face-up cards of the discard pile (T3.5, T7.2). The rest, the *unseen* cards, are the deck, the
dealer's hidden card and any hidden card that went to the discard pile without being turned over
(T3.5); from the seat's knowledge each of them is any of the unseen cards alike. So the hidden
card and every card the deck deals are drawn one by one, without replacement, from the unseen
cards, and the expectation is a recursion over their composition (how many of each value are
left, T1.2), for the seat's own hits (T3.2, T3.3) and then the dealer's hidden card and draws
while 16 or less (T3.4): ``stay`` is P(won) - P(lost) against the dealer's final hand,
``hit`` averages, over the value drawn, a bust (-1), a 21 (+1, T3.3) or the better of staying
and hitting again. Values are memoised by (the seat's total, the composition left): the same
composition is reached through many orders of draws, and through the seat's later decisions
of the same round.

The deck runs out (T3.6) only when the round may deal more cards than it holds: then the
recursion also follows how many cards the deck still deals, and at its end the refill, the
discard pile shuffled: its face-up cards, and the unseen cards that are not in the deck (the
hidden discards; the dealer's hidden card is not among them, so it is set apart first, one of
the unseen cards alike, if the dealer has not shown it yet).

While no refill can happen, hitting on 11 or less is never worse than staying (the card drawn
cannot bust, and by symmetry the dealer's cards are as likely whether or not the seat took one
first), so the recursion does not work out staying there: the argmax is the same, and the
cost is a fraction.

The expectation is exact for a seat with no seat after it still to play (one player at the
table, or the last to play): players after it take cards before the dealer plays, and their
choices are not modelled (the dealer's cards are drawn as if the seat were the last).
"""

from __future__ import annotations

from dataclasses import dataclass

from .table import BUST_LIMIT, DEALER_STANDS_ON, TWENTY_ONE

VALUES = tuple(range(1, 11))  # T1.2: A is 1, T J Q K are 10
BITS = 5  # a value's count takes 5 bits of a composition (at most 16 tens)
UNIT = {value: 1 << (BITS * (value - 1)) for value in VALUES}
MASK = (1 << BITS) - 1
FINALS = DEALER_STANDS_ON, 18, 19, 20, TWENTY_ONE  # the dealer's final values short of bust (T3.4)
BUST = len(FINALS)  # the index of "the dealer went bust" in a distribution of the dealer's finals
_MEMO_KEPT = 400_000  # values kept between decisions (a round's later decisions reuse them)


def pack(counts: tuple[int, ...]) -> int:
    """A composition (counts of the values 1-10) as one int: 5 bits a value."""
    return sum(count << (BITS * index) for index, count in enumerate(counts))


def unpack(packed: int) -> tuple[int, ...]:
    return tuple((packed >> (BITS * index)) & MASK for index in range(len(VALUES)))


@dataclass(frozen=True)
class Position:
    """What a seat knows when it decides: its total (under 21), the dealer's up card's value,
    the unseen cards' counts by value (``unseen[0]``: aces ... ``unseen[9]``: tens), how many
    cards the deck still holds, and the face-up discards' counts by value (what a refill adds
    to the hidden discards)."""

    total: int
    up: int
    unseen: tuple[int, ...]
    deck: int
    discards: tuple[int, ...] = (0,) * 10


@dataclass(frozen=True)
class Expectation:
    """The expected return (+1 won, 0 tied, -1 lost) of staying now and of hitting now (and
    playing on at best); ``hit`` is exact too, and ``best`` is the larger."""

    stay: float
    hit: float

    @property
    def best(self) -> float:
        return max(self.stay, self.hit)

    @property
    def hits(self) -> bool:
        """Whether hitting is the better move (staying on an exact tie)."""
        return self.hit > self.stay


def most_draws(position: Position) -> int:
    """How many cards the round can still deal at most: the seat's draws but the last sum to 20
    less its total at most, the dealer's draws but the last to 15 less its up card (its hidden
    card is 1 at least), and they are different unseen cards; plus the two last draws."""
    budget = (BUST_LIMIT - 1 - position.total) + (DEALER_STANDS_ON - 2 - position.up)
    count = 0
    for value in VALUES:
        for _ in range(position.unseen[value - 1]):
            if budget < value:
                return count + 2
            budget -= value
            count += 1
    return count + 2


def expectation(position: Position) -> Expectation:
    """The exact expected return of staying and of hitting in ``position``."""
    if sum(position.unseen) < 1:
        raise ValueError("no unseen card: the dealer's hidden card is always unseen until it is shown")
    if position.deck >= most_draws(position):
        return _Shoe.endless(position.up).decide(position.total, pack(position.unseen), sum(position.unseen))
    return _RefillShoe(position).decide()


# -- the recursion over a composition -----------------------------------------------------------------


class _Shoe:
    """The recursion over the unseen cards' composition while the deck cannot run out, its values
    memoised: one shoe per dealer's up card, kept between decisions. Its dealer's finals (from a
    total and a composition the dealer draws from, the hidden card shown) serve the refill's
    recursions too."""

    _by_up: dict[int, _Shoe] = {}

    def __init__(self, up: int):
        self.up = up
        self.player: dict[int, tuple[float, float]] = {}  # (composition, total) -> (stay, hit)
        self.dealer: dict[int, tuple[float, ...]] = {}  # (composition, dealer's total) -> finals

    @classmethod
    def endless(cls, up: int) -> _Shoe:
        shoe = cls._by_up.get(up)
        if shoe is None or len(shoe.player) + len(shoe.dealer) > _MEMO_KEPT:
            shoe = cls._by_up[up] = cls(up)
        return shoe

    def decide(self, total: int, packed: int, count: int) -> Expectation:
        stay, hit = self.values(total, packed, count, True)
        return Expectation(stay, hit)

    def values(self, total: int, packed: int, count: int, root: bool = False) -> tuple[float, float]:
        """(stay, hit) at ``total``. Below 12 only ``hit`` is worked out (stay is -2: never the
        better, see the module's docstring) unless this is the decision asked about."""
        key = packed << 5 | total
        found = self.player.get(key)
        if found is not None and (found[0] > -2 or not root):
            return found
        hit = 0.0
        for value in VALUES:
            have = (packed >> (BITS * (value - 1))) & MASK
            if not have:
                continue
            chance = have / count
            after = total + value
            if after > BUST_LIMIT:  # T3.2
                hit -= chance
            elif after == TWENTY_ONE:  # T3.3
                hit += chance
            else:
                stay_after, hit_after = self.values(after, packed - UNIT[value], count - 1)
                hit += chance * (stay_after if stay_after > hit_after else hit_after)
        stay = self.stay(total, packed, count) if root or total > BUST_LIMIT - 10 else -2.0
        found = (stay, hit)
        self.player[key] = found
        return found

    def stay(self, total: int, packed: int, count: int) -> float:
        """T3.4: the dealer shows the hidden card, draws while 16 or less; the higher value wins."""
        finals = [0.0] * (BUST + 1)
        for value in VALUES:
            have = (packed >> (BITS * (value - 1))) & MASK
            if have:
                chance = have / count
                for index, share in enumerate(self.dealer_finals(self.up + value, packed - UNIT[value], count - 1)):
                    finals[index] += chance * share
        return outcome(total, finals)

    def dealer_finals(self, dealer: int, packed: int, count: int) -> tuple[float, ...]:
        """The chances of the dealer's finals (``FINALS``, then bust) from ``dealer`` (T3.4)."""
        if dealer >= DEALER_STANDS_ON:
            return _STANDS[dealer]
        key = packed << 5 | dealer
        found = self.dealer.get(key)
        if found is not None:
            return found
        finals = [0.0] * (BUST + 1)
        for value in VALUES:
            have = (packed >> (BITS * (value - 1))) & MASK
            if have:
                chance = have / count
                for index, share in enumerate(self.dealer_finals(dealer + value, packed - UNIT[value], count - 1)):
                    finals[index] += chance * share
        found = tuple(finals)
        self.dealer[key] = found
        return found


def _stands(dealer: int) -> tuple[float, ...]:
    finals = [0.0] * (BUST + 1)
    finals[BUST if dealer > BUST_LIMIT else dealer - DEALER_STANDS_ON] = 1.0
    return tuple(finals)


_STANDS = {dealer: _stands(dealer) for dealer in range(DEALER_STANDS_ON, BUST_LIMIT + 11)}
# A hit that reaches 21 wins at once (T3.3); over 21 loses (T3.2).
_ENDS = {TWENTY_ONE: 1.0, **{reached: -1.0 for reached in range(BUST_LIMIT + 1, BUST_LIMIT + 11)}}


def outcome(total: int, finals: tuple[float, ...] | list[float]) -> float:
    """P(won) - P(lost) of a seat that stays on ``total`` against the dealer's finals (T3.4)."""
    result = finals[BUST]
    for index, final in enumerate(FINALS):
        if final < total:
            result += finals[index]
        elif final > total:
            result -= finals[index]
    return result


# -- a refill may happen this round ------------------------------------------------------------------


class _RefillShoe:
    """The recursion when the deck may run out this round (T3.6). Until it does, a node of the
    seat's decisions is (its total, the unseen cards left, the cards the deck still deals), and
    the dealer's (its total, 0 before the hidden card is shown, the same cards). A card needed
    from the empty deck comes from the discard pile: the face-up discards and the unseen cards
    but the hidden one (``_Refilled`` while the seat plays; once the dealer has shown it, the
    shoe's recursion over that composition)."""

    def __init__(self, position: Position):
        self.position = position
        self.shoe = _Shoe.endless(position.up)
        self.discards = pack(position.discards)
        self.memo: dict[tuple[int, int, int], tuple[float, float]] = {}
        self.dealer_memo: dict[tuple[int, int, int], tuple[float, ...]] = {}
        self.after_refill: dict[int, _Refilled] = {}

    def decide(self) -> Expectation:
        position = self.position
        stay, hit = self.values(position.total, pack(position.unseen), position.deck)
        return Expectation(stay, hit)

    def values(self, total: int, unseen: int, deck: int) -> tuple[float, float]:
        if not deck:  # the next card comes from the refilled deck; the hidden card is not known
            refilled = self.after_refill.get(unseen)
            if refilled is None:
                refilled = self.after_refill[unseen] = _Refilled(self.shoe, unseen, self.discards + unseen)
            return refilled.values(total, self.discards + unseen)
        key = (total, unseen, deck)
        found = self.memo.get(key)
        if found is not None:
            return found
        hit = 0.0
        count = _count(unseen)
        for value, have in _present(unseen):
            reached = total + value
            hit += have / count * (_ENDS[reached] if reached >= TWENTY_ONE else
                                   max(self.values(reached, unseen - UNIT[value], deck - 1)))
        found = (outcome(total, self.dealer_finals(0, unseen, deck)), hit)
        self.memo[key] = found
        return found

    def dealer_finals(self, dealer: int, unseen: int, deck: int) -> tuple[float, ...]:
        """The dealer's finals once the seat stays: the hidden card shown (``dealer`` 0: not yet;
        any unseen card alike), then cards while 16 or less (T3.4), from the deck, then from the
        refilled deck (T3.6)."""
        if dealer >= DEALER_STANDS_ON:
            return _STANDS[dealer]
        if dealer and not deck:
            refilled = self.discards + unseen
            return self.shoe.dealer_finals(dealer, refilled, _count(refilled))
        key = (dealer, unseen, deck)
        found = self.dealer_memo.get(key)
        if found is not None:
            return found
        finals = [0.0] * (BUST + 1)
        count = _count(unseen)
        for value, have in _present(unseen):
            shares = (self.dealer_finals(self.position.up + value, unseen - UNIT[value], deck) if not dealer
                      else self.dealer_finals(dealer + value, unseen - UNIT[value], deck - 1))
            for index, share in enumerate(shares):
                finals[index] += have / count * share
        found = tuple(finals)
        self.dealer_memo[key] = found
        return found


class _Refilled:
    """The rest of the round once the deck was refilled while the seat plays (T3.6): the new
    deck is the discard pile, ``base`` (the face-up discards and the unseen cards, ``unseen``)
    less the dealer's hidden card, any of the unseen cards alike. The seat does not know which:
    each card it draws tells it something, so a node is (its total, ``base`` less the cards
    drawn since), and the hidden card's value is v with a chance in proportion to
    unseen[v] * left[v] / base[v] (its prior, times the chance of the draws seen with v set
    apart)."""

    def __init__(self, shoe: _Shoe, unseen: int, base: int):
        self.shoe = shoe
        self.unseen = unseen
        self.base = base
        self.memo: dict[int, tuple[float, float]] = {}

    def holes(self, left: int) -> list[tuple[float, int]]:
        """(chance, value) of the hidden card, given the cards ``left`` of ``base``."""
        weights = [(have * _field(left, value) / _field(self.base, value), value)
                   for value, have in _present(self.unseen)]
        total = sum(weight for weight, _value in weights)
        return [(weight / total, value) for weight, value in weights if weight]

    def values(self, total: int, left: int) -> tuple[float, float]:
        key = left << 5 | total
        found = self.memo.get(key)
        if found is not None:
            return found
        holes = self.holes(left)
        count = _count(left) - 1  # the cards of the deck: what is left but the hidden card
        hit = 0.0
        for value, have in _present(left):
            chance = sum(share * (have - (value == hole)) for share, hole in holes) / count
            if chance:
                reached = total + value
                hit += chance * (_ENDS[reached] if reached >= TWENTY_ONE else
                                 max(self.values(reached, left - UNIT[value])))
        stay = sum(share * outcome(total, self.shoe.dealer_finals(self.shoe.up + hole, left - UNIT[hole], count))
                   for share, hole in holes)
        found = (stay, hit)
        self.memo[key] = found
        return found


def _field(packed: int, value: int) -> int:
    return (packed >> (BITS * (value - 1))) & MASK


def _count(packed: int) -> int:
    return sum(unpack(packed))


def _present(packed: int) -> list[tuple[int, int]]:
    return [(value, have) for value, have in zip(VALUES, unpack(packed)) if have]


def best_move_hits(position: Position) -> bool:
    """Whether hitting has the better exact expected return in ``position`` (staying on a tie):
    on 11 or less, while the deck cannot run out, hitting without working it out (see the
    module's docstring)."""
    if position.total <= BUST_LIMIT - 10 and position.deck >= most_draws(position):
        return True
    return expectation(position).hits

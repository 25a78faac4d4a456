"""The hand evaluator (P5.4, P7.1): the fewest points a hand can count, exactly, over every way to
arrange it, with an arrangement that gives them.

P5.4: if the hand holds two sequences, one of them pure, only the cards outside valid groups
count; otherwise every card counts. Jokers count 0 and are wild.

How it stays exact and fast:

- Jokers are one pool: printed jokers and the cards of the wild rank. A card of the wild rank
  only ever gains by standing as itself in a pure sequence (elsewhere a joker may take its place
  and it counts 0 as a joker), so the search first picks *the* pure sequence the hand must hold
  (every run of three or more consecutive cards of one suit, wild cards in their natural place
  counted): few candidates, and none in most hands, which then count every card.
- The other cards are covered by a memoised search over (the natural cards left, jokers left):
  the lowest card left either counts or goes into one of the groups whose lowest card it is
  (sequences of its suit with the jokers their gaps need, sets of its rank), with one more bit of
  answer: the best cover with and without a second sequence (three jokers left over make one).
- Natural cards are counted by kind in 2-bit fields of one integer (two decks hold two cards
  alike), so two copies of a card are one state, not two.

``evaluate(cards, wild_rank)`` gives an ``Evaluation``. ``HandContext`` evaluates every
sub-hand of one hand with one memo: the computer player's discard (each of 14 cards left out)
costs little more than one evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterable, Sequence

from app.core.cards import Card

from .cards import ACE_HIGH
from .groups import PURE, judge_group

INF = 1 << 20


@dataclass
class Evaluation:
    """``points``: the fewest points the cards count (P5.4, not capped at 80); ``groups``: the
    arrangement that gives them, each ``(label, cards)``; ``ungrouped``: the cards left outside;
    ``qualifies``: the arrangement holds two sequences, one pure (else every card counts);
    ``complete``: every card is in a valid group of such an arrangement (a valid declaration)."""

    points: int
    groups: list[tuple[str, list[Card]]] = field(default_factory=list)
    ungrouped: list[Card] = field(default_factory=list)
    qualifies: bool = False

    @property
    def complete(self) -> bool:
        return self.qualifies and not self.ungrouped


class HandContext:
    """The search over one hand (and any of its sub-hands: ``evaluate_without``)."""

    def __init__(self, cards: Sequence[Card], wild_rank: str):
        self.cards = list(cards)
        self.wild_rank = wild_rank
        printed = [card for card in cards if card.is_joker]
        wilds = [card for card in cards if not card.is_joker and card.rank == wild_rank]
        naturals = [card for card in cards if not card.is_joker and card.rank != wild_rank]
        self.printed = printed
        self.wilds = wilds
        # natural kinds in suit-then-rank order: field f of a state is bits 2f, 2f+1
        kinds: dict[tuple[int, int], list[Card]] = {}
        for card in sorted(naturals, key=lambda c: (c.suit_index, c.order, c.copy)):
            kinds.setdefault((card.suit_index, card.order), []).append(card)
        self.kinds = list(kinds)
        self.kind_cards = list(kinds.values())
        self.field_of = {kind: index for index, kind in enumerate(self.kinds)}
        self.units = [1 << (2 * index) for index in range(len(self.kinds))]
        self.ones = sum(self.units)
        self.points = [cards_[0].points for cards_ in self.kind_cards]
        self.full = sum(unit * len(cards_) for unit, cards_ in zip(self.units, self.kind_cards))
        # wild cards by kind, the same way (for the pure sequences they may stand in)
        wild_kinds: dict[tuple[int, int], list[Card]] = {}
        for card in sorted(wilds, key=lambda c: (c.suit_index, c.copy)):
            wild_kinds.setdefault((card.suit_index, card.order), []).append(card)
        self.wild_kinds = list(wild_kinds)
        self.wild_kind_cards = list(wild_kinds.values())
        self.wild_units = [1 << (2 * index) for index in range(len(self.wild_kinds))]
        self.wild_full = sum(unit * len(cards_) for unit, cards_ in zip(self.wild_units, self.wild_kind_cards))
        self.jokers = len(printed) + len(wilds)
        self.groups = self._groups(self.jokers)
        self.pure = self._pure_sequences()
        self.memo: dict[int, tuple[int, int]] = {}

    # -- the candidates -----------------------------------------------------------------------------

    def _groups(self, jokers: int) -> list[list[tuple[int, int, bool]]]:
        """For each field, the groups whose lowest card it is: (mask, jokers needed, is a
        sequence). Only natural cards are in masks; jokers fill the gaps."""
        best: dict[int, tuple[int, bool]] = {}

        def offer(mask: int, need: int, sequence: bool) -> None:
            if need > jokers:
                return
            known = best.get(mask)
            if known is None or need < known[0] or (need == known[0] and sequence and not known[1]):
                best[mask] = (need, sequence)

        by_suit: dict[int, list[tuple[int, int]]] = {}
        by_rank: dict[int, list[int]] = {}
        for index, (suit, order) in enumerate(self.kinds):
            by_suit.setdefault(suit, []).append((order, index))
            by_rank.setdefault(order, []).append(index)
        units = self.units
        for items in by_suit.values():
            for placing in (False, True):  # the ace low, then high
                if placing and items[0][0] != 0:
                    continue
                places = sorted((ACE_HIGH if placing and order == 0 else order, index) for order, index in items)
                count = len(places)
                for start in range(count):
                    # extend to the right while the gaps stay within the jokers
                    stack = [(start, units[places[start][1]], 1)]
                    while stack:
                        last, mask, size = stack.pop()
                        span = places[last][0] - places[start][0] + 1
                        offer(mask, max(3, span) - size, True)
                        for nxt in range(last + 1, count):
                            gaps = places[nxt][0] - places[start][0] + 1 - (size + 1)
                            if gaps > jokers:
                                break
                            stack.append((nxt, mask | units[places[nxt][1]], size + 1))
        for indexes in by_rank.values():
            count = len(indexes)
            for chosen in range(1, 1 << count):
                size = chosen.bit_count()
                if size < 2 or size > 4:
                    continue
                mask = sum(units[indexes[i]] for i in range(count) if chosen >> i & 1)
                offer(mask, max(0, 3 - size), False)
        groups: list[list[tuple[int, int, bool]]] = [[] for _ in self.kinds]
        for mask, (need, sequence) in best.items():
            lowest = ((mask & -mask).bit_length() - 1) >> 1
            groups[lowest].append((mask, need, sequence))
        for candidates in groups:
            candidates.sort(key=lambda g: (g[1], -g[0].bit_count()))
        return groups

    def _pure_sequences(self) -> list[tuple[int, int, int]]:
        """Every pure sequence the hand holds: (natural mask, wild mask, wild cards used)."""
        places: dict[int, dict[int, tuple[bool, int]]] = {}
        for index, (suit, order) in enumerate(self.kinds):
            places.setdefault(suit, {})[order] = (False, self.units[index])
        for index, (suit, order) in enumerate(self.wild_kinds):
            places.setdefault(suit, {})[order] = (True, self.wild_units[index])
        found = []
        for held in places.values():
            if 0 in held:
                held = dict(held)
                held[ACE_HIGH] = held[0]
            for start in range(ACE_HIGH + 1):
                if start not in held:
                    continue
                mask = wild_mask = wild_used = 0
                for end in range(start, min(start + 13, ACE_HIGH + 1)):
                    if end not in held:
                        break
                    is_wild, unit = held[end]
                    if is_wild:
                        wild_mask |= unit
                        wild_used += 1
                    else:
                        mask |= unit
                    if end - start >= 2:
                        found.append((mask, wild_mask, wild_used))
        return found

    # -- the search ---------------------------------------------------------------------------------

    def _cover(self, state: int, jokers: int) -> tuple[int, int]:
        """(fewest points left outside groups, the same with at least one sequence among the
        groups) for the natural cards ``state`` and ``jokers`` jokers."""
        memo = self.memo
        key = state << 4 | jokers
        found = memo.get(key)
        if found is not None:
            return found
        if state == 0:
            found = (0, 0 if jokers >= 3 else INF)
        else:
            index = ((state & -state).bit_length() - 1) >> 1
            points = self.points[index]
            cover = self._cover
            free, with_sequence = cover(state - self.units[index], jokers)
            free += points
            with_sequence += points
            present = (state | state >> 1) & self.ones
            for mask, need, sequence in self.groups[index]:
                if need > jokers:
                    break
                if present & mask != mask:
                    continue
                other_free, other_sequence = cover(state - mask, jokers - need)
                if other_free < free:
                    free = other_free
                if sequence:
                    if other_free < with_sequence:
                        with_sequence = other_free
                elif other_sequence < with_sequence:
                    with_sequence = other_sequence
            found = (free, with_sequence)
        memo[key] = found
        return found

    def _best(self, state: int, wild_state: int, jokers: int) -> tuple[int, tuple[int, int, int] | None]:
        """The fewest points (P5.4) and the pure sequence that gives them (None: every card
        counts)."""
        best, chosen = INF, None
        present = (state | state >> 1) & self.ones
        wild_present = (wild_state | wild_state >> 1)
        for pure in self.pure:
            mask, wild_mask, wild_used = pure
            if present & mask != mask or wild_present & wild_mask != wild_mask:
                continue
            value = self._cover(state - mask, jokers - wild_used)[1]
            if value < best:
                best, chosen = value, pure
                if value == 0:
                    break
        if chosen is None:
            return self._all_points(state), None
        return best, chosen

    def _all_points(self, state: int) -> int:
        total = 0
        for index, points in enumerate(self.points):
            total += ((state >> (2 * index)) & 3) * points
        return total

    # -- answers ------------------------------------------------------------------------------------------

    def points_without(self, card: Card | None = None) -> int:
        """The fewest points of the hand less ``card`` (the whole hand for None)."""
        state, wild_state, jokers = self._start(card)
        return self._best(state, wild_state, jokers)[0]

    def evaluate_without(self, card: Card | None = None) -> Evaluation:
        state, wild_state, jokers = self._start(card)
        points, pure = self._best(state, wild_state, jokers)
        return self._arrangement(card, state, wild_state, jokers, points, pure)

    def _start(self, card: Card | None) -> tuple[int, int, int]:
        state, wild_state, jokers = self.full, self.wild_full, self.jokers
        if card is None:
            return state, wild_state, jokers
        if card.is_joker:
            return state, wild_state, jokers - 1
        if card.rank == self.wild_rank:
            return state, wild_state - self.wild_units[self.wild_kinds.index((card.suit_index, card.order))], jokers - 1
        return state - self.units[self.field_of[(card.suit_index, card.order)]], wild_state, jokers

    # -- the arrangement ----------------------------------------------------------------------------

    def _arrangement(self, left_out: Card | None, state: int, wild_state: int, jokers: int, points: int,
                     pure: tuple[int, int, int] | None) -> Evaluation:
        pools = [list(cards) for cards in self.kind_cards]
        wild_pools = [list(cards) for cards in self.wild_kind_cards]
        joker_pool = [card for card in self.printed if card is not left_out]
        if left_out is not None and not left_out.is_joker:
            pool = (wild_pools[self.wild_kinds.index((left_out.suit_index, left_out.order))]
                    if left_out.rank == self.wild_rank else pools[self.field_of[(left_out.suit_index, left_out.order)]])
            pool.remove(left_out)
        raw_groups: list[tuple[list[Card], int]] = []  # (natural cards, jokers it takes)
        need_sequence = pure is not None
        if pure is not None:
            mask, wild_mask, wild_used = pure
            cards = self._take(mask, pools) + self._take(wild_mask, wild_pools)
            raw_groups.append((cards, 0))
            state -= mask
            wild_state -= wild_mask
            jokers -= wild_used
        # the wild cards not standing as themselves are jokers
        for pool in wild_pools:
            joker_pool.extend(pool)
        ungrouped: list[Card] = []
        target_index = 1 if need_sequence else 0
        while state:
            target = self._cover(state, jokers)[target_index]
            index = ((state & -state).bit_length() - 1) >> 1
            after = self._cover(state - self.units[index], jokers)
            if after[target_index] + self.points[index] == target:
                ungrouped.append(pools[index].pop(0))
                state -= self.units[index]
                continue
            present = (state | state >> 1) & self.ones
            for mask, need, sequence in self.groups[index]:
                if need > jokers or present & mask != mask:
                    continue
                after = self._cover(state - mask, jokers - need)
                value = after[0] if (sequence or not need_sequence) else after[1]
                if value == target:
                    raw_groups.append((self._take(mask, pools), need))
                    state -= mask
                    jokers -= need
                    if sequence:
                        target_index = 0
                        need_sequence = False
                    break
            else:  # pragma: no cover - the memo always holds the step that gave the value
                raise AssertionError("the arrangement does not rebuild")
        groups: list[list[Card]] = []
        for cards, need in raw_groups:
            groups.append(cards + [joker_pool.pop() for _ in range(need)])
        if need_sequence and pure is not None:  # the second sequence: jokers alone
            groups.append(joker_pool[:])
            joker_pool.clear()
        qualifies = pure is not None
        if qualifies:
            joker_pool = self._absorb(groups, joker_pool)
        else:
            ungrouped.extend(joker_pool)
            joker_pool = []
        ungrouped.extend(joker_pool)
        labelled = [(judge_group(cards, self.wild_rank).kind, ordered_group(cards, self.wild_rank)) for cards in groups]
        labelled.sort(key=lambda item: (_KIND_ORDER.get(item[0], 9), _first_key(item[1])))
        if not qualifies:
            points = sum(card.points for card in ungrouped if not _joker(card, self.wild_rank)) + \
                sum(card.points for _k, cards in labelled for card in cards if not _joker(card, self.wild_rank))
        return Evaluation(points, labelled, sorted(ungrouped, key=_sort_key), qualifies)

    def _absorb(self, groups: list[list[Card]], jokers: list[Card]) -> list[Card]:
        """Put jokers left over into groups that stay valid, keeping a pure sequence."""
        left = []
        for joker in jokers:
            for cards in sorted(groups, key=lambda g: _absorb_rank(g, self.wild_rank)):
                before = judge_group(cards, self.wild_rank).kind
                after = judge_group(cards + [joker], self.wild_rank).kind
                if after == "not a valid group" or (after in ("set",) and before != "set"):
                    continue
                if before == PURE and after != PURE:
                    pures = sum(1 for g in groups if judge_group(g, self.wild_rank).kind == PURE)
                    if pures < 2:
                        continue
                cards.append(joker)
                break
            else:
                left.append(joker)
        return left

    def _take(self, mask: int, pools: list[list[Card]]) -> list[Card]:
        cards = []
        index = 0
        while mask:
            if mask & 3:
                cards.append(pools[index].pop(0))
            mask >>= 2
            index += 1
        return cards


_KIND_ORDER = {"pure sequence": 0, "impure sequence": 1, "set": 2}


def _joker(card: Card, wild_rank: str) -> bool:
    return card.is_joker or card.rank == wild_rank


def _sort_key(card: Card) -> int:
    return card.sort_key


def _first_key(cards: list[Card]) -> int:
    return cards[0].sort_key if cards else 0


def _absorb_rank(cards: list[Card], wild_rank: str) -> int:
    kind = judge_group(cards, wild_rank).kind
    return {"impure sequence": 0, "set": 1, "pure sequence": 2}.get(kind, 3)


def ordered_group(cards: Sequence[Card], wild_rank: str) -> list[Card]:
    """A group in reading order: a sequence low to high with its jokers in the gaps, a set by
    suit, jokers last."""
    kind = judge_group(cards, wild_rank).kind
    if kind == PURE:
        orders = sorted(card.order for card in cards)
        high = orders[0] == 0 and orders[-1] == 12 and orders[1] != 1
        return sorted(cards, key=lambda c: ACE_HIGH if high and c.order == 0 else c.order)
    naturals = [card for card in cards if not _joker(card, wild_rank)]
    jokers = [card for card in cards if _joker(card, wild_rank)]
    if kind != "impure sequence" or not naturals or len(cards) > 13:
        return sorted(naturals, key=_sort_key) + jokers
    orders = [card.order for card in naturals]
    places = orders
    if 0 in orders:
        ace_high = [ACE_HIGH if order == 0 else order for order in orders]
        if max(ace_high) - min(ace_high) < max(orders) - min(orders):
            places = ace_high
    placed = sorted(zip(places, naturals), key=lambda item: item[0])
    result: list[Card] = []
    spare = list(jokers)
    for (place, card), following in zip(placed, placed[1:] + [(None, None)]):
        result.append(card)
        if following[0] is not None:
            for _gap in range(following[0] - place - 1):
                result.append(spare.pop())
    # the jokers left extend the sequence upwards while there is room, then downwards
    top = placed[-1][0]
    while spare and top < ACE_HIGH and not (top == 12 and placed[0][0] == 0):
        result.append(spare.pop())
        top += 1
    return spare + result


def evaluate(cards: Iterable[Card], wild_rank: str) -> Evaluation:
    """The fewest points ``cards`` count (P5.4) and an arrangement that gives them."""
    return HandContext(list(cards), wild_rank).evaluate_without(None)


def hand_value(cards: Iterable[Card], wild_rank: str) -> int:
    """Only the fewest points (P5.4, uncapped)."""
    return HandContext(list(cards), wild_rank).points_without(None)

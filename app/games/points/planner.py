"""How far a hand is from a declaration: the strong computer player's measure (P3, P5.1).

``cards_to_go(hand)`` is the fewest cards the seat must still draw (each replacing one of its
cards) before 13 of its cards make a valid declaration: at least two sequences, one of them
pure, every card in a group (P5.1). A hand is read as *target groups*: groups of its cards that
the cards still to come would complete (a sequence's window of consecutive places with gaps,
a set's rank with suits missing). Its cards outside every target group are thrown away one a
draw; the 13 places of the declaration are the target groups' places (their cards and gaps),
and any places left over take cards drawn later (a joker, a card extending a sequence). So the
measure is 13 less the most cards the hand can keep in target groups whose places add up to 13
at most, one of them a pure sequence and another a sequence (when none is, three places for
each are kept free). Jokers (P2.2) fill gaps of impure sequences and sets, or extend groups;
a gap of a pure sequence needs its own card, so it counts only while that card is still unseen
(``live``): in the closed deck or another hand, not on the open pile nor in this hand. A gap
of an impure sequence or a set, and a place left over, count as fillable: by a joker or by its
own card, one of which may still come (the measure is the fewest draws if they come).

The search: the hand's natural cards by kind in 2-bit fields of one integer (two decks hold two
cards alike), in suit-then-rank order; the lowest card left either goes (a card to throw away)
or is the lowest of a target group (every window of its suit from it to another card of its
suit, or three places around it; every set of its rank); memoised by (the cards left, jokers
left, places left, the sequences held so far). A card of the wild rank is a joker here, or
stands in its own place in a sequence when a card of its suit is near (both are tried).

The outs of a discard (``outs_without``): for each unseen card, whether the hand less the
discard and with that card keeps more. The added card's own target groups are tried first, so
what is left to search is the hand less the discard, the same searches for every card added.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

from app.core.cards import Card

from .cards import ACE_HIGH, RANKS, SUITS, is_joker

PLACES = 13  # P2.1, P5.1: the 13 cards of a declaration
NO_WAY = -100  # below any count of cards: no layout of 13 places can be completed
FIRST_PURE, ANY_SEQUENCE = 3, 3  # the places of a sequence made of cards still to come


def card_code(suit_index: int, order: int) -> str:
    return RANKS[order] + SUITS[suit_index]


class Template:
    """A target group whose lowest card is one kind: ``mask`` its kinds (one unit each; for a set
    all of them must be held, for a sequence those held fill their places), ``size`` its places
    (a set's 3 or 4; a sequence's window), ``sequence``, ``pure_gaps_live`` (every place of the
    window whose card the hand does not hold has a live card), ``dead`` (the kinds of the window
    whose card has no live copy left: as a pure sequence their places must be filled by the
    hand's own card)."""

    __slots__ = ("mask", "size", "sequence", "pure_gaps_live", "dead")

    def __init__(self, mask: int, size: int, sequence: bool, pure_gaps_live: bool = False, dead: int = 0):
        self.mask = mask
        self.size = size
        self.sequence = sequence
        self.pure_gaps_live = pure_gaps_live
        self.dead = dead


class Planner:
    """The measure for hands of one deal: the wild rank and which cards are still live (unseen
    copies by code, ``live(code)``)."""

    def __init__(self, wild_rank: str, live: Callable[[str], int]):
        self.wild_rank = wild_rank
        self.live = live
        self._kept: dict[tuple[str, ...], list[_Search]] = {}

    def cards_to_go(self, hand: Sequence[Card]) -> int:
        """The fewest draws before 13 of ``hand``'s cards can be declared (0: they can now)."""
        return PLACES - max(search.most_kept(search.full, search.jokers) for search in self._searches(hand))

    def cards_to_go_without(self, hand: Sequence[Card]) -> dict[Card, int]:
        """``cards_to_go`` of the hand less each of its cards, the searches shared (a discard's
        choice among 14 cards costs little more than one measure)."""
        found: dict[Card, int] = {}
        for search in self._searches(hand):
            for card in hand:
                state, jokers = search.without(card)
                if jokers < 0:
                    continue
                to_go = PLACES - search.most_kept(state, jokers)
                if to_go < found.get(card, PLACES + 1):
                    found[card] = to_go
        return found

    def outs_without(self, hand: Sequence[Card], candidates: Iterable[Card], unseen: Sequence[Card],
                     budget: int | None = None) -> dict[Card, int]:
        """For each candidate card to throw away: how many of the ``unseen`` cards would bring
        the hand less that card closer to a declaration if drawn next (its *outs*: the more, the
        likelier the next draw helps). With a ``budget`` (positions the searches may hold), the
        candidates are taken in order until it is spent: those left out get -1."""
        searches = self._searches(hand)
        jokers = sum(1 for card in unseen if is_joker(card, self.wild_rank))
        naturals: dict[tuple[int, int], tuple[Card, int]] = {}
        for card in unseen:
            if not is_joker(card, self.wild_rank):
                kind = (card.suit_index, card.order)
                naturals[kind] = (card, naturals[kind][1] + 1 if kind in naturals else 1)
        found: dict[Card, int] = {}
        for candidate in candidates:
            if budget is not None and found and sum(len(search.memo) for search in searches) > budget:
                found[candidate] = -1
                continue
            starts = [(search, *search.without(candidate)) for search in searches]
            starts = [(search, state, left) for search, state, left in starts if left >= 0]
            now = max(search.most_kept(state, left) for search, state, left in starts)
            outs = jokers if max(search.most_kept(state, left + 1) for search, state, left in starts) > now else 0
            # cards whose target groups are alike (far from every card of the hand: alone with
            # two gaps) bring the hand as close: each such answer is worked out once
            answers: dict[tuple[object, ...], bool] = {}
            for card, count in naturals.values():
                signature = tuple(search.signature(card, self) for search, _state, _left in starts)
                closer = answers.get(signature)
                if closer is None:
                    closer = answers[signature] = max(search.most_kept_with(state, left, card, self)
                                                      for search, state, left in starts) > now
                if closer:
                    outs += count
            found[candidate] = outs
        return found

    def _searches(self, hand: Sequence[Card]) -> list[_Search]:
        """One search for each way the hand's cards of the wild rank may be taken: each a joker,
        or standing as itself in a sequence of its suit where a card of its suit lies within two
        places of it (elsewhere it keeps no more as itself than as a joker but for a pure
        sequence's first card, which any card may be). Kept for the same hand's next questions."""
        key = tuple(sorted(card.id for card in hand))
        found = self._kept.get(key)
        if found is not None:
            return found
        printed = sum(1 for card in hand if card.is_joker)
        wild = [card for card in hand if not card.is_joker and card.rank == self.wild_rank]
        naturals = [card for card in hand if not is_joker(card, self.wild_rank)]
        may_stand = [card for card in wild if any(
            other.suit == card.suit and _near(other.order, card.order) for other in naturals)]
        found = self._kept[key] = [
            _Search(self, naturals + list(standing), printed + len(wild) - count)
            for count in range(len(may_stand) + 1) for standing in combinations(may_stand, count)]
        return found


def _near(order: int, other: int) -> bool:
    """Two ranks of a suit at most two places apart (the ace low or high, P1.2)."""
    return min(abs(order - other), abs((order or ACE_HIGH) - (other or ACE_HIGH))) <= 2


class _Search:
    def __init__(self, planner: Planner, naturals: list[Card], jokers: int):
        self.jokers = jokers
        counts: dict[tuple[int, int], int] = {}
        for card in naturals:
            counts[(card.suit_index, card.order)] = counts.get((card.suit_index, card.order), 0) + 1
        self.kinds = sorted(counts)
        self.units = [1 << (2 * index) for index in range(len(self.kinds))]
        index_of = {kind: index for index, kind in enumerate(self.kinds)}
        self.field_of = {card: index_of[(card.suit_index, card.order)] for card in naturals}
        self.ones = sum(self.units)
        self.full = sum(unit * counts[kind] for unit, kind in zip(self.units, self.kinds))
        self.templates = [self._templates(index, planner) for index in range(len(self.kinds))]
        self.extra: dict[tuple[int, int], list[Template]] = {}
        self.memo: dict[int, int] = {}

    def _templates(self, index: int, planner: Planner) -> list[Template]:
        """The target groups whose lowest card (in the search's order) is kind ``index``."""
        suit, order = self.kinds[index]
        return self._groups(suit, order, planner, self.units[index], later_only=True)

    def _groups(self, suit: int, order: int, planner: Planner, unit: int, later_only: bool) -> list[Template]:
        """The target groups of a card of this suit and order, with the search's kinds: with
        ``later_only`` those of kinds after it (it is the lowest left), else with any (a card
        added to the hand, ``unit`` 0: not one of the search's kinds)."""
        found: list[Template] = []
        # sets of its rank: it and any kinds of its rank in other suits (P3.3)
        others = [other_unit for (other_suit, other_order), other_unit in zip(self.kinds, self.units)
                  if other_order == order and (other_suit > suit if later_only else other_suit != suit)]
        for count in range(len(others) + 1):
            for chosen in combinations(others, count):
                found.append(Template(unit + sum(chosen), max(3, count + 1), False))
        # sequences of its suit (P3.1, P3.2): places 0-13, the ace at 0 or 13 (P1.2)
        held = {other_order: other_unit for (other_suit, other_order), other_unit in zip(self.kinds, self.units)
                if other_suit == suit and other_unit != unit}
        if 0 in held:
            held[ACE_HIGH] = held[0]
        windows: set[tuple[int, int]] = set()
        for place in ([0, ACE_HIGH] if order == 0 else [order]):
            # below it in its suit: any kind for a card added; for the lowest kind left, only
            # when it is an ace high (the kinds below it are after it in the search's order)
            below = not later_only or place == ACE_HIGH
            bottoms = [place] + ([other for other in held if other < place] if below else [])
            tops = [place] + [other for other in held if other > place]
            for bottom in bottoms:
                for top in tops:
                    if top - bottom + 1 > PLACES:
                        continue
                    if top - bottom >= 2:
                        windows.add((bottom, top))
                        continue
                    for low in range(max(0, top - 2), bottom + 1):
                        if low + 2 <= ACE_HIGH:
                            windows.add((low, low + 2))
            for low, high in windows:
                if not low <= place <= high:
                    continue
                mask, dead, gaps_live = unit, 0, True
                for other in range(low, high + 1):
                    if other == place:
                        continue
                    other_unit = held.get(other)
                    live = planner.live(card_code(suit, 0 if other == ACE_HIGH else other)) > 0
                    if other_unit is None:
                        gaps_live = gaps_live and live
                    else:
                        mask |= other_unit
                        if not live:
                            dead |= other_unit
                found.append(Template(mask, high - low + 1, True, gaps_live, dead))
            windows.clear()
        return _dominant(found)

    def without(self, card: Card) -> tuple[int, int]:
        """(the cards, the jokers) of the search less ``card`` (jokers -1: it is not here)."""
        kind = self.field_of.get(card)
        if kind is not None:
            return self.full - self.units[kind], self.jokers
        return self.full, self.jokers - 1

    def most_kept(self, state: int, jokers: int) -> int:
        """The most of these cards (``state``, and ``jokers``) target groups can keep."""
        return self._best(state, jokers, PLACES, False, 0)

    def extra_templates(self, card: Card, planner: Planner) -> list[Template]:
        kind = (card.suit_index, card.order)
        templates = self.extra.get(kind)
        if templates is None:
            templates = self.extra[kind] = self._groups(card.suit_index, card.order, planner, 0, later_only=False)
        return templates

    def signature(self, card: Card, planner: Planner) -> tuple[object, ...]:
        """What ``most_kept_with`` depends on of ``card``: its target groups (or its kind, if the
        search holds a copy of it)."""
        kind = (card.suit_index, card.order)
        if kind in self.kinds:
            return kind
        return tuple((template.mask, template.size, template.sequence, template.pure_gaps_live, template.dead)
                     for template in self.extra_templates(card, planner))

    def most_kept_with(self, state: int, jokers: int, card: Card, planner: Planner) -> int:
        """``most_kept`` of these cards and one more natural card: its own target groups are
        tried first, so the searches of the cards left are the ones without it (shared)."""
        kind = (card.suit_index, card.order)
        if kind in self.kinds:  # a second copy of a kind (two decks): one more in its field
            return self._best(state + self.units[self.kinds.index(kind)], jokers, PLACES, False, 0)
        templates = self.extra_templates(card, planner)
        goes = self._best(state, jokers, PLACES, False, 0)
        return self._placed(state, jokers, PLACES, False, 0, templates, 1, goes)

    def _best(self, state: int, jokers: int, room: int, pure: bool, sequences: int) -> int:
        if not state:
            return self._end(jokers, room, pure, sequences)
        key = (((state << 4 | jokers) << 4 | room) << 1 | pure) << 2 | sequences
        found = self.memo.get(key)
        if found is not None:
            return found
        index = ((state & -state).bit_length() - 1) >> 1
        best = self._best(state - self.units[index], jokers, room, pure, sequences)  # it goes
        best = self._placed(state, jokers, room, pure, sequences, self.templates[index], 0, best)
        self.memo[key] = best
        return best

    def _placed(self, state: int, jokers: int, room: int, pure: bool, sequences: int, templates: list[Template],
                more: int, best: int) -> int:
        """The most kept with a card in one of ``templates`` (``more``: cards of the group that
        are not in ``state``), or ``best`` if none keeps more. A template is tried only if its
        group and every card left (or every place left, if fewer) could beat ``best``."""
        ones = self.ones
        present = (state | state >> 1) & ones
        cards = present.bit_count() + (state & ones << 1).bit_count()
        if best >= min(room, cards + more + jokers):
            return best
        for template in templates:
            size = template.size
            if size > room:
                continue
            mask = template.mask
            if template.sequence:
                used = present & mask
                held = used.bit_count()
                gaps = size - held - more
                filled = min(jokers, gaps)
                if held + more + filled + min(room - size, cards - held + jokers - filled) <= best:
                    continue
                after = min(sequences + 1, 2)
                if template.pure_gaps_live and not template.dead & ~used:
                    kept = held + more + self._best(state - used, jokers, room - size, True, after)
                    if kept > best:
                        best = kept
                    if not filled:
                        continue
                kept = held + more + filled + self._best(state - used, jokers - filled, room - size, pure, after)
            else:
                if present & mask != mask:
                    continue
                held = mask.bit_count()
                filled = min(jokers, size - held - more)
                if held + more + filled + min(room - size, cards - held + jokers - filled) <= best:
                    continue
                kept = held + more + filled + self._best(state - mask, jokers - filled, room - size, pure, sequences)
            if kept > best:
                best = kept
        return best

    @staticmethod
    def _end(jokers: int, room: int, pure: bool, sequences: int) -> int:
        """The jokers left, once the natural cards are placed: into a sequence of cards to come
        if one is still needed, then extending groups; the places a missing pure sequence and
        a missing second sequence need stay free."""
        need = free = 0
        if not pure:
            need += FIRST_PURE
            sequences += 1
        if sequences < 2:
            need += ANY_SEQUENCE
            free = ANY_SEQUENCE
        if need > room:
            return NO_WAY
        return min(jokers, free + room - need)


def _dominant(templates: list[Template]) -> list[Template]:
    """The templates worth trying: of those holding the same kinds in as many places, a
    sequence before a set, one whose pure sequence may still come before one whose cannot."""
    best: dict[tuple[int, int], Template] = {}
    for template in templates:
        key = (template.mask, template.size)
        known = best.get(key)
        if known is None or _rank(template) > _rank(known):
            best[key] = template
    return list(best.values())


def _rank(template: Template) -> tuple[bool, bool, int]:
    return template.sequence, template.sequence and template.pure_gaps_live, -template.dead.bit_count()


def live_counts(deck_cards: Iterable[Card], seen: Iterable[Card]) -> Callable[[str], int]:
    """``live(code)``: how many copies of a card the seat has not seen (its deck's cards less the
    seen ones)."""
    counts: dict[str, int] = {}
    for card in deck_cards:
        counts[card.code] = counts.get(card.code, 0) + 1
    for card in seen:
        counts[card.code] -= 1
    return lambda code: counts.get(code, 0)

"""The exact solver of Seahaven Towers (S5): can this position still be won, and how.

Plain Python, standard library only. The ideas (memoised search over positions, runs moved as
units, safe foundation moves, canonical position keys) are those every good Seahaven solver
shares; the code is this project's own.

How it searches
---------------
A column's cards are always a *prefix* of the cards it was dealt (cards leave only from the
bottom) followed by a run of appended cards, each one lower than the card it covers, of the same
suit (S3.3). So, given the columns as dealt, a position is fixed by how many dealt cards each
column still holds (the *depths*) and which kings sit in columns of their own; every other card
not on a foundation is *floating*, and where a floating card lies is decided canonically:

- a card goes to its foundation as soon as it can: always safe, since building is by suit and a
  card is only ever useful as the place for its own suit's next lower card, which is home already;
- a floating card lies on its next higher card when that card is the bottom of a column
  (a dealt card left at the bottom, or a floating card lying there in its turn), or on its king
  when its king sits in a column; any other floating card takes a cell.

Every real arrangement of the same depths and kings reaches the canonical one by free moves
(cell to column, card to foundation), and the canonical one needs the fewest cells, so nothing is
lost. The cells a position needs are counted exactly; a position is possible only with at most 4.

A column's *unit* is its bottom run: the longest run of dealt cards at its bottom (each one lower
than the one above it, same suit) with the floating cards lying on it. Moving part of a unit
never helps (a card's only column is its next higher card, which is in the unit), so a move
takes the whole unit: onto the card above its top card when that card is a column's bottom (it
needs unit-1 free cells to carry the cards over one at a time, S3.1), into a free empty column
if the top card is a king (unit-1 cells too), or else into the cells (unit cells). Each such move
lowers the total depth, so the positions form a DAG over depths. Kings may also move between the
cells and the empty columns without changing the depths: the positions that differ only in that
way form a small group (at most 16), explored together, so the search never meets a cycle and
every memoised verdict is exact.

The search is a depth-first search that tries the unit moves most promising first (most cards
home after the move, then fewest dealt cards covering the suits' next cards for their
foundations, then fewest cells used) and memoises every position's verdict: lost, or the step of
a winning line. Its shortcuts change no verdict (``Solver(prune=False)`` switches them all off;
the tests compare):

- *A unit onto a king's run* (``unit_moves``): once every king is home or in a column of its own,
  a unit that can go onto the end of a king's run, uncovering a dealt card, does so at once: no
  king will leave its column again, so the unit can still do there all it could do where it was,
  it covers nothing that will need digging out, and it uncovers the card it lay on.
- *A king waiting in a cell beside a free column* (``search``): the member of the kings' group
  with that king in the column makes every other unit move as well or better (more cells free,
  as many places) and can come back, so such a member only contributes moves of kings' units
  into the free column.
- *Kings into their columns* (``kings_to_columns``): by the rule above, when the columns with no
  dealt card left (kings' columns among them) outnumber the floating kings (kings in cells or in
  columns of their own), or match them and no king is the top card of a column's bottom run, the
  member with every floating king in a
  column is the only one with moves of its own, and every member reaches it (a king in a cell
  can always take a free column). So the position is that member: its key is the only one of
  the group the search meets, and ``hint`` first moves the waiting kings into the columns.
- *Lost at a glance* (``stuck``): with no cell free, the only moves are single cards going onto
  columns (and kings into free columns); a position where no sequence of such moves could uncover
  a card that goes home, or one a card in a cell could go onto, or empty a column, never frees a
  cell nor sends a card home, so it is lost. The test over-estimates what those moves reach
  (every card that could ever move, moved, each a place for its next lower card), so a position
  it calls lost is lost. It judges a position when the search reaches it (not counted as
  expanded), not when it is made: most children are never tried.

Positions are tuples of ints (bit masks of cards, the depths packed in one key); a child is made
from its parent by changing only what its move changes, and one whose key the memo knows to be
lost is dropped before it is built. A kings' group is built only when the position has a king
move of its own (a king in a cell and a free column, or a king's run in a column that fits in
the free cells); otherwise it is the position alone. ``winnable``, ``hint`` and ``line`` take a
``budget``: the most positions one call may expand (``positions`` counts them) before it raises
``SolverBudgetExceeded``; verdicts are memoised only once complete, so the memo stays exact and a
later call carries on (redoing at most the positions the search was in the middle of).

A winning line is made of single-card moves (S3.1): from a real ``Layout``, the free moves that
make it canonical, then the memoised step, a unit carried card by card through the cells
(``_expand``), and so on; the rules check every move. ``hint`` gives the next move of that line
and depends on the layout only, even half way through carrying a unit.
"""

from __future__ import annotations

import hashlib
import importlib
import types
from collections import OrderedDict
from collections.abc import Sequence
from typing import Final

from app.core.cards import Card

from .rules import CELLS, COLUMNS, KING, Layout
from .solver_budget import SolverBudgetExceeded

LANE: Final = 14  # each suit's 13 cards take bits 0-12 of a 14-bit lane (bit LANE*suit + rank order)
_LANES = range(4)
ONES: Final = sum(1 << (LANE * suit) for suit in _LANES)
GUARDS: Final = ONES << 13  # bit 13 of each lane, above the king, keeps lane arithmetic inside the lane
CARD_BITS: Final = sum(((1 << 13) - 1) << (LANE * suit) for suit in _LANES)
KING_BITS: Final = ONES << KING
NOT_KINGS: Final = CARD_BITS & ~KING_BITS
KINGS_OF: Final = tuple(sum(1 << (LANE * suit + KING) for suit in _LANES if group >> suit & 1) for group in range(16))
DEPTH_BITS: Final = 5  # a column holds at most 6 dealt cards plus 12 appended ones: 18 < 32
DEPTH_MASK: Final = (1 << DEPTH_BITS) - 1
KINGS_SHIFT: Final = DEPTH_BITS * COLUMNS

GOAL: Final = ("goal",)
_MISSING: Final = object()
_SHIFT: Final = tuple(DEPTH_BITS * index for index in range(COLUMNS))
_DEPTHS_MASK: Final = (1 << KINGS_SHIFT) - 1
_DONE_SUITS: Final = {sum(1 << (LANE * suit) for suit in _LANES if group >> suit & 1): group for group in range(16)}
_FIELD_LOWS: Final = sum(1 << shift for shift in _SHIFT)  # the lowest bit of each column's depth field
_NO_LIMIT: Final = 1 << 62
# a position (the fields: ``Solver``'s tables section); typed so that mypyc (scripts/build-solver) keeps them ints
Position = tuple[int, int, int, int, int, int, int, int, int, int, int, int]
# The fields of a unit move (``units_of[column][depth]``): the change of the key; the dealt card
# it uncovers (0 if none); whether the column is then left with a king's run only; the run's
# length; its bottom card's bit position and the bits below that card; the bit of its top card's
# suit if that card is a king; the dealt cards leaving; the changes of bottoms and tops; its bottom
# card; the uncovered card's bit position and the bits below it; the depth left and the dealt cards
# left in the column.
(_U_KEY, _U_UNCOVERED, _U_CONVERTS, _U_LENGTH, _U_BOTTOM_AT, _U_BELOW_BOTTOM, _U_KING, _U_LEAVING, _U_BOTTOMS,
 _U_TOPS, _U_BOTTOM, _U_UNCOVERED_AT, _U_BELOW_UNCOVERED, _U_NEW_DEPTH, _U_LEFT) = range(15)
_KING_OF_SUIT: Final = tuple(1 << (LANE * suit + KING) for suit in _LANES)
_KING_AT: Final = tuple(LANE * suit + KING for suit in _LANES)
# [bit_length of a card bit]: the cards from that card up to its suit's king (the forced rule)
_UP_TO_KING: Final = tuple(0 if not length or (length - 1) % LANE > KING
                    else ((1 << (LANE * ((length - 1) // LANE) + KING + 1)) - (1 << (length - 1)))
                    for length in range(LANE * 4 + 1))


def card_bit(card: Card) -> int:
    return 1 << (LANE * card.suit_index + card.order)


class Solver:
    """The solver for one deal: ``piles`` are the ten columns as dealt (or any layout's columns,
    taken as dealt). Positions are judged from real layouts of that deal; verdicts are memoised
    for the solver's life, so asking after every move costs little.

    ``winnable``, ``hint`` and ``line`` take an optional ``budget``: the most positions that
    call may expand (``positions`` counts them); past it they raise ``SolverBudgetExceeded``."""

    def __init__(self, piles: Sequence[Sequence[Card]], *, prune: bool = True):
        if len(piles) != COLUMNS:
            raise ValueError(f"a deal has {COLUMNS} columns")
        if any(len(pile) > DEPTH_MASK for pile in piles):
            raise ValueError("no column of a game holds that many cards")
        self.prune = prune  # the search's shortcuts (the module's docstring); tests compare without
        self.piles = [tuple(pile) for pile in piles]
        self.memo: dict[int, tuple | None] = {}
        self._build()

    @property
    def positions(self) -> int:
        """Positions expanded so far (the memo's misses), over the solver's life."""
        return self._count()

    # -- tables ------------------------------------------------------------------------------------
    #
    # A position is a tuple (key, kings, in columns, bottoms, tops, lowest, floating, held, used,
    # home, burial, empty): the key packs each column's depth (DEPTH_BITS a column) and, above
    # them, ``kings`` (bit s: suit s's king has a column of its own); the card sets are bit masks
    # (``card_bit``): the dealt cards still in the columns, the columns' bottom cards, the top
    # cards of the columns' bottom runs, the lowest card of each suit not home (a guard bit for a
    # suit all home), the floating cards (neither in the columns as dealt nor home) and those of
    # them lying in columns; ``used`` is the number of cells the floating cards need, ``home`` the
    # cards home, ``burial`` the dealt cards covering the suits' next cards for their foundations
    # and ``empty`` the columns with no dealt card (kings' columns among them). A child is made
    # from its parent by changing only what the move changes (``unit_moves``); ``settle`` makes
    # one from scratch when cards go home.

    def _build(self) -> None:
        """The deal's tables, and the search over them as closures (the hot loop reads only
        locals and closure cells)."""
        prefixes, bottoms_at, tops_at, king_columns, units_of = [], [], [], [], []
        column_of = [0] * (LANE * 4 + 1)  # [bit_length of a dealt card's bit]: its column
        above_of = [0] * (LANE * 4 + 1)  # ...the dealt card it covers (0 for the first)
        dealt_at = [0] * (LANE * 4 + 1)  # ...and how many cards were dealt to it before, plus one
        for index, pile in enumerate(self.piles):
            shift = _SHIFT[index]
            prefix, bottom, top = [0], [0], [0]
            units: list[tuple | None] = [None]
            run = king_run = 0
            above = 0
            for depth, card in enumerate(pile, 1):
                at = LANE * card.suit_index + card.order
                bit = 1 << at
                column_of[at + 1] = index
                dealt_at[at + 1] = depth
                above_of[at + 1] = above
                run = run + 1 if above == bit << 1 else 1
                if depth == run and (bit << run - 1) & KING_BITS:
                    king_run = run  # the column's first cards: a king's run
                top_bit = bottom[depth - run + 1] if run > 1 else bit
                new_depth = depth - run
                uncovered = bottom[new_depth]
                # moving the bottom run as a unit (fields: the _U_* names)
                units.append((run << shift, uncovered, 0 < new_depth <= king_run, run, at, bit - 1,
                              1 << at // LANE if top_bit & KING_BITS else 0, (prefix[-1] | bit) ^ prefix[new_depth],
                              bit ^ uncovered, top_bit ^ top[new_depth],
                              bit, uncovered.bit_length() - 1, uncovered - 1, new_depth, prefix[new_depth]))
                prefix.append(prefix[-1] | bit)
                bottom.append(bit)
                top.append(top_bit)
                above = bit
            prefixes.append(tuple(prefix))
            bottoms_at.append(tuple(bottom))
            tops_at.append(tuple(top))
            if king_run:  # the column's first cards are a king's run: it can become that king's column
                king_columns.append((shift, king_run, 1 << pile[0].suit_index, tuple(prefix), tuple(bottom),
                                     tuple(top)))
            units_of.append(tuple(units))
        self._prefix, self._bottom, self._top = prefixes, bottoms_at, tops_at
        (self._search, self._settle, self._count, self._get_limit,
         self._set_limit) = _searcher(self, prefixes, bottoms_at, tops_at, tuple(king_columns),
                                      tuple(units_of), tuple(column_of), tuple(dealt_at),
                                      tuple(above_of))

    def _from_depths(self, depths: Sequence[int], kings: int) -> tuple:
        in_columns = bottoms = tops = key = 0
        for index, depth in enumerate(depths):
            in_columns |= self._prefix[index][depth]
            bottoms |= self._bottom[index][depth]
            tops |= self._top[index][depth]
            key |= depth << _SHIFT[index]
        return self._settle(key, kings, in_columns, bottoms, tops, None)

    def _within(self, budget: int | None, work):
        """``work()`` with at most ``budget`` more positions expanded (None: the caller's limit,
        if any, still holds)."""
        if budget is None:
            return work()
        outer = self._get_limit()
        self._set_limit((min(outer[0], self._count() + max(0, budget)), budget))
        try:
            return work()
        finally:
            self._set_limit(outer)

    # -- real layouts ------------------------------------------------------------------------------------

    def position_of(self, layout: Layout):
        """The canonical position of a real layout of this deal."""
        in_cells = {card for card in layout.cells if card is not None}
        depths = []
        kings = 0
        for index, column in enumerate(layout.columns):
            pile = self.piles[index]
            depth = _dealt_left(pile, column)
            if column and column[0].order == KING and _is_run(column):
                kings |= 1 << column[0].suit_index
                depth = 0
            elif depth == len(column):
                # dealt cards carried to the cells and back count as never moved
                while (depth < len(pile) and depth and pile[depth] in in_cells
                       and pile[depth - 1].suit == pile[depth].suit and pile[depth - 1].order == pile[depth].order + 1):
                    depth += 1
            depths.append(depth)
        return self._from_depths(depths, kings)

    def fits(self, layout: Layout) -> bool:
        """Is ``layout`` a position of this deal: every column what is left of its dealt cards,
        with a run appended (or a king's run in a column emptied of its dealt cards)?"""
        for index, column in enumerate(layout.columns):
            pile = self.piles[index]
            depth = _dealt_left(pile, column)
            rest = column[depth:]
            if not rest:
                continue
            if depth:
                above = column[depth - 1]
                if above.suit != rest[0].suit or above.order != rest[0].order + 1:
                    return False
            elif rest[0].order != KING:
                return False
            if not _is_run(rest):
                return False
        return True

    def winnable(self, layout: Layout, budget: int | None = None) -> bool:
        """S5.1: can this layout still be won? Exact. ``budget``: see ``SolverBudgetExceeded``."""
        return self._within(budget, lambda: self._search(self.position_of(layout)))

    def hint(self, layout: Layout, budget: int | None = None) -> tuple[str, str] | None:
        """S5.2: the next move (source, target) of a winning line from ``layout``, or None if it
        cannot be won (or is won already).

        A function of the layout alone, and asking again after playing it continues the same
        line: the line from a layout is its tidy moves (cards home, cards from the cells onto
        their places, ``_tidy_move``), then the memoised step of the tidy layout, card by card
        (``_expand``). A layout part way through such a step (a run half carried through the
        cells) is recognised as such, since tidying it gives back the layout the step began at."""
        return self._within(budget, lambda: self._hint(layout))

    def _hint(self, layout: Layout) -> tuple[str, str] | None:
        if layout.is_won():
            return None
        tidy = layout.copy()
        tidy_moves = []
        while (move := _tidy_move(tidy)) is not None:
            tidy.move(*move)
            tidy_moves.append(move)
        if tidy.is_won():
            return tidy_moves[0]
        position = self.position_of(tidy)
        if not self._search(position):
            return None
        # a king the search counts as in a column of its own (kings_to_columns) goes there first
        waiting = [card.suit_index for card in tidy.cells
                   if card is not None and card.order == KING and position[1] >> card.suit_index & 1]
        step = ("king", min(waiting), True, position[0]) if waiting else self.memo[position[0]]
        if step is None:
            raise RuntimeError("a won position with no step memoised")
        steps = _expand(tidy, step)
        table = tidy.copy()
        for move in steps:
            if table == layout:
                return move
            table.move(*move)
        return tidy_moves[0]

    def line(self, layout: Layout, budget: int | None = None) -> list[tuple[str, str]] | None:
        """A winning line from ``layout``: the hints, followed one after another. Single-card
        moves (source, target), each accepted by the rules, ending with every card home; None
        if the layout cannot be won. Not always the shortest line. ``budget``: for the whole
        line (its hints rarely expand a position the verdict did not)."""
        return self._within(budget, lambda: self._line(layout))

    def _line(self, layout: Layout) -> list[tuple[str, str]] | None:
        if not self.winnable(layout):
            return None
        table = layout.copy()
        moves: list[tuple[str, str]] = []
        while (move := self.hint(table)) is not None:
            table.move(*move)  # the rules check every move of the line
            moves.append(move)
            if len(moves) > _LONGEST_LINE:
                raise RuntimeError("a winning line does not end")
        if not table.is_won():
            raise RuntimeError(f"a winning line lost its way at {table!r}")
        return moves


def _record_win(memo: dict, group: list[tuple], winner: int, step: tuple) -> None:
    """Memoise a won group: the winner makes ``step``; every other member moves kings towards
    it, along a breadth-first tree grown from the winner in suit order."""
    memo[group[winner][0][0]] = step
    if len(group) == 1:
        return
    reached = {winner}
    queue = [winner]
    for current in queue:
        for suit, to_column, other in group[current][1]:
            if other not in reached:
                reached.add(other)
                queue.append(other)
                # ``other`` goes back to ``current`` by undoing this king move
                memo[group[other][0][0]] = ("king", suit, not to_column, group[current][0][0])


def _searcher(solver: Solver, prefixes: list[tuple[int, ...]], bottoms_at: list[tuple[int, ...]],
              tops_at: list[tuple[int, ...]], king_columns: tuple, units_of: tuple, column_of: tuple[int, ...],
              dealt_at: tuple[int, ...], above_of: tuple[int, ...]):  # type: ignore[no-untyped-def]
    """The search of one deal, as closures over its tables: (search, settle, count, get_limit,
    set_limit)."""
    memo = solver.memo
    memo_get = memo.get
    prune = solver.prune
    count = 0
    limit = _NO_LIMIT
    budget_given = 0

    def settle(key: int, kings: int, in_columns: int, bottoms: int, tops: int, lost: dict | None) -> Position | None:
        """The canonical position, from its depths (``key``, without the kings) and card sets:
        bottom cards go home while they can, and a column left holding only its king's run
        becomes that king's column (``king_columns``: the few columns dealt a king's run first).
        None if ``lost`` (the memo) knows the position is lost."""
        while True:
            guarded = in_columns | GUARDS
            lowest = guarded & ~(guarded - ONES)
            going_home = bottoms & lowest
            if going_home:
                while going_home:
                    bit = going_home & -going_home
                    going_home ^= bit
                    index = column_of[bit.bit_length()]
                    shift = _SHIFT[index]
                    depth = key >> shift & DEPTH_MASK
                    key -= 1 << shift
                    in_columns ^= bit
                    bottoms ^= bit | bottoms_at[index][depth - 1]
                    tops ^= tops_at[index][depth] ^ tops_at[index][depth - 1]
                continue
            converted = False
            for shift, king_run, suit, column_prefixes, column_bottoms, column_tops in king_columns:
                depth = key >> shift & DEPTH_MASK
                if depth and depth <= king_run:
                    kings |= suit
                    in_columns ^= column_prefixes[depth]
                    bottoms ^= column_bottoms[depth]
                    tops ^= column_tops[depth]
                    key -= depth << shift
                    converted = True
            if not converted:
                break
        if kings:
            done = lowest & GUARDS  # a suit with no card left in the columns is all home, king too
            if done:
                kings &= ~_DONE_SUITS[done >> 13]
        key |= kings << KINGS_SHIFT
        floating = CARD_BITS & ~(in_columns | (lowest - ONES))
        waiting = floating & KING_BITS & ~KINGS_OF[kings] if prune else 0
        if lost is not None and not waiting and lost.get(key, 1) is None:
            return None
        held = ((bottoms >> 1) | KINGS_OF[kings]) & floating
        while True:
            more = held | ((held >> 1) & floating)
            if more == held:
                break
            held = more
        # the dealt cards covering each suit's next card for its foundation
        depths = key & _DEPTHS_MASK
        burial = 0
        next_home = lowest & in_columns
        while next_home:
            bit = next_home & -next_home
            next_home ^= bit
            at = bit.bit_length()
            burial += (depths >> _SHIFT[column_of[at]] & DEPTH_MASK) - dealt_at[at]
        position = (key, kings, in_columns, bottoms, tops, lowest, floating, held,
                    floating.bit_count() - held.bit_count(), ((lowest - ONES) & CARD_BITS).bit_count(), burial,
                    COLUMNS - ((depths | depths >> 1 | depths >> 2 | depths >> 3 | depths >> 4)
                               & _FIELD_LOWS).bit_count())
        if waiting and prune:
            position = kings_to_columns(position)
            if lost is not None and lost.get(position[0], 1) is None:
                return None
        return position

    def kings_to_columns(position: Position) -> Position:
        """The position with every king waiting in a cell moved into an empty column, when its
        kings' group is that member's alone to search (the module's docstring), else as it is."""
        key, kings, in_columns, bottoms, tops, lowest, floating, held, used, home, burial, empty = position
        floating_kings = floating & KING_BITS
        waiting = floating_kings & ~KINGS_OF[kings]
        floating_count = floating_kings.bit_count()
        if floating_count > empty or (floating_count == empty and tops & KING_BITS):
            return position
        not_floating = ~floating
        while waiting:
            king = waiting & -waiting
            waiting ^= king
            at = king.bit_length() - 1
            length = at + 1 - (not_floating & (king - 1)).bit_length()  # the king and the cards on it
            held |= (king << 1) - (king >> (length - 1))
            used -= length
            kings |= 1 << (at // LANE)
        return ((key & _DEPTHS_MASK) | kings << KINGS_SHIFT, kings, in_columns, bottoms, tops, lowest, floating, held,
                used, home, burial, empty)

    def unit_moves(position: Position, rank: int, forcing: bool,
                   kings_only: bool) -> tuple[list[tuple[int, int, bool, Position]], bool]:
        """The unit moves of a position, as (order, column, to_column, child), but those the memo
        knows to be lost and those lost at a glance (``kings_only``: only the units whose top
        card is a king); and whether the move is forced (the rule of the module's docstring).
        ``rank`` (the position's kings) breaks ties in the order."""
        key, kings, in_columns, bottoms, tops, lowest, floating, held, used, home, burial, empty = position
        free = CELLS - used
        not_floating = ~floating
        onto_column = tops & ((bottoms | held) >> 1) & NOT_KINGS  # the unit's place is a column's
        king_tops = tops & KING_BITS
        if kings_only:
            candidates = king_tops
            onto_column = 0
        elif free > 1:
            candidates = tops
        else:
            # units of one card (no floating card lying on it): all that fits in one cell, or
            # that moves with no cell free
            singles = tops & bottoms & ~(floating << 1)
            if free:
                candidates = onto_column | king_tops | (tops & singles)
            else:
                candidates = (onto_column | king_tops) & singles
        free_columns = empty - kings.bit_count()
        if (forcing and onto_column & (held >> 1)
                and not (in_columns | floating) & KING_BITS & ~KINGS_OF[kings]):
            # every king home or in a column of its own: a unit going onto a king's run
            forced = -1
            onto_king = onto_column & (held >> 1)
            while onto_king:
                top = onto_king & -onto_king
                onto_king ^= top
                above = _UP_TO_KING[top.bit_length() + 1]
                if held & above != above:
                    continue
                index = column_of[top.bit_length()]
                unit = units_of[index][key >> _SHIFT[index] & DEPTH_MASK]
                if (not unit[_U_NEW_DEPTH] or unit[_U_LENGTH] + unit[_U_BOTTOM_AT]
                        - (not_floating & unit[_U_BELOW_BOTTOM]).bit_length() - 1 > free):
                    continue
                if forced < 0 or index < forced:
                    forced = index
            if forced >= 0:
                unit = units_of[forced][key >> _SHIFT[forced] & DEPTH_MASK]
                child = settle((key & _DEPTHS_MASK) - unit[_U_KEY], kings, in_columns ^ unit[_U_LEAVING],
                               bottoms ^ unit[_U_BOTTOMS], tops ^ unit[_U_TOPS], None)
                if child is not None:  # (always: settle drops a child only when given the memo)
                    return [(0, forced, True, child)], True
        moves = []
        rank <<= 4
        # kings waiting in cells: the children's keys are canonical only after kings_to_columns
        waiting = floating & KING_BITS & ~KINGS_OF[kings] if prune else 0
        while candidates:
            top = candidates & -candidates
            candidates ^= top
            index = column_of[top.bit_length()]
            fields: tuple[int, ...] = units_of[index][key >> _SHIFT[index] & 31]
            (unit_key, uncovered, converts, length, bottom_at, below_bottom, unit_king, leaving, unit_bottoms,
             unit_tops, bottom, uncovered_at, below_uncovered, new_depth, left) = fields
            tail = bottom_at - (not_floating & below_bottom).bit_length()  # floating cards on it
            size = length + tail
            if top & onto_column:
                if size > free + 1:
                    continue
                to_column = True
                child_key = key - unit_key
                child_kings = kings
            elif unit_king and free_columns > 0:
                if size > free + 1:
                    continue
                to_column = True
                child_kings = kings | unit_king
                child_key = key - unit_key + (unit_king << KINGS_SHIFT)
            else:
                if size > free:
                    continue
                to_column = False
                child_key = key - unit_key
                child_kings = kings
            if uncovered & lowest or converts:
                child = settle(child_key & _DEPTHS_MASK, child_kings, in_columns ^ leaving,
                               bottoms ^ unit_bottoms, tops ^ unit_tops, memo)
                if child is None:
                    continue
                moves.append(((((52 - child[9] << 8) + child[10] << 3) + child[8] << 8) + rank + index,
                              index, to_column, child))
                continue
            child_floating = floating | leaving
            child_tops = tops ^ unit_tops
            child_empty = empty if new_depth else empty + 1
            if waiting or (prune and leaving & KING_BITS and not to_column):
                # kings_to_columns changes nothing while the floating kings outnumber the
                # columns with no dealt card (or match them and a king's unit could take one)
                floating_count = (child_floating & KING_BITS).bit_count()
                child_waiting = floating_count < child_empty or (floating_count == child_empty
                                                                 and not child_tops & KING_BITS)
            else:
                child_waiting = False
            if not child_waiting and memo_get(child_key, 1) is None:
                continue
            if uncovered:
                # floating cards now lying on the uncovered card leave their cells
                lying = uncovered_at - (~child_floating & below_uncovered).bit_length()
                now_held = uncovered - (uncovered >> lying)
            else:
                lying = now_held = 0
            if to_column:
                child_held = held | leaving | now_held
                child_used = used - lying
            else:
                child_held = (held & ~(bottom - (bottom >> tail))) | now_held
                child_used = used + size - lying
            child_burial = burial - length * (lowest & left).bit_count()
            child = (child_key, child_kings, in_columns ^ leaving, bottoms ^ unit_bottoms, child_tops, lowest,
                     child_floating, child_held, child_used, home, child_burial, child_empty)
            if child_waiting:
                child = kings_to_columns(child)
                if memo_get(child[0], 1) is None:
                    continue
                child_used = child[8]
            # the order of trial, one int, from the high bits down: cards not home, dealt cards
            # covering the suits' next cards (8 bits), cells used (3 bits), then the kings of the
            # group's member (4 bits) and the column (4 bits), so no two children tie
            moves.append(((((52 - home << 8) + child_burial << 3) + child_used << 8) + rank + index,
                          index, to_column, child))
        return moves, False

    def stuck(position: Position) -> bool:
        """A position with no cell free is lost if no card can ever go home from it, nor leave a
        cell: the only moves are then single cards going onto columns (and kings into free
        columns), so it is lost if those moves, made in any order, never uncover a card that
        goes home or that a card in a cell can go onto, nor empty a column. Judged on an
        over-estimate of what those moves reach (every card that could ever move, moved, with
        each moved card a place for its next lower one), so "lost" is exact."""
        _key, kings, in_columns, bottoms, _tops, lowest, floating, held, _used, _home, _burial, empty = position
        if empty > kings.bit_count():
            if floating & KING_BITS & ~KINGS_OF[kings]:
                return False  # a king in a cell can take the free column
            kings_move = KING_BITS  # a king at a column's bottom could take it
        else:
            kings_move = 0
        cells = floating & ~held
        goes_home = lowest & in_columns
        places = (bottoms | held) & ~(held << 1)  # the cards at the ends of the columns
        movable = bottoms & ~(held << 1)  # the columns' bottom cards with no card lying on them
        moving = movable & ((places >> 1) | kings_move)
        while moving:
            places |= moving
            movable ^= moving
            while moving:
                card = moving & -moving
                moving ^= card
                uncovered = above_of[card.bit_length()]
                if not uncovered or uncovered & goes_home or (uncovered >> 1) & cells:
                    return False
                places |= uncovered
                movable |= uncovered
            moving = movable & ((places >> 1) | kings_move)
        return True

    def kings_group(position: Position) -> list[tuple]:
        """The positions reachable from ``position`` by moving kings' runs between the cells and
        empty columns, ``position`` first, each as (position, king moves): a king move is
        (suit, to_column, index of the member it leads to). Every king move can be undone (a run
        moved to a column frees the cells it needs to come back; one moved to the cells frees
        its column), so the group is the same from any of its members. (``search`` knows at a
        glance most positions whose group is themselves alone.)"""
        key, kings, in_columns, bottoms, tops, lowest, floating, held, used, home, burial, empty = position
        floating_kings = floating & KING_BITS
        # each floating king's run (the king and the floating cards lying on it, in turn): its
        # cards lie in the king's column if it has one, else in the cells
        run_cards = [0, 0, 0, 0]
        run_lengths = [0, 0, 0, 0]
        not_floating = ~floating
        for suit in _LANES:
            king = _KING_OF_SUIT[suit]
            if floating_kings & king:
                length = _KING_AT[suit] + 1 - (not_floating & (king - 1)).bit_length()
                run_lengths[suit] = length
                run_cards[suit] = (king << 1) - (king >> (length - 1))
                if kings >> suit & 1:
                    held &= ~run_cards[suit]
                else:
                    used -= length
        # ``held`` and ``used``: as if every floating king were in a cell
        members = [kings]
        index_of = {kings: 0}
        edges: list[list[tuple[int, bool, int]]] = []
        cursor = 0
        while cursor < len(members):
            current = members[cursor]
            current_used = used
            for suit in _LANES:
                if floating_kings & _KING_OF_SUIT[suit] and not current >> suit & 1:
                    current_used += run_lengths[suit]
            free_columns = empty - current.bit_count()
            moves = []
            for suit in _LANES:
                if not floating_kings & _KING_OF_SUIT[suit]:
                    continue
                if current >> suit & 1:
                    if run_lengths[suit] > CELLS - current_used:
                        continue
                    other, to_column = current & ~(1 << suit), False
                elif free_columns:
                    other, to_column = current | (1 << suit), True
                else:
                    continue
                if other not in index_of:
                    index_of[other] = len(members)
                    members.append(other)
                moves.append((suit, to_column, index_of[other]))
            edges.append(moves)
            cursor += 1
        if len(members) == 1:
            return [(position, ())]
        group = [(position, edges[0])]
        depths_key = key & _DEPTHS_MASK
        for member, member_edges in zip(members[1:], edges[1:]):
            member_held, member_used = held, used
            for suit in _LANES:
                if floating_kings & _KING_OF_SUIT[suit]:
                    if member >> suit & 1:
                        member_held |= run_cards[suit]
                    else:
                        member_used += run_lengths[suit]
            group.append(((depths_key | member << KINGS_SHIFT, member, in_columns, bottoms, tops, lowest, floating,
                           member_held, member_used, home, burial, empty), member_edges))
        return group

    def search(position: Position) -> bool:
        """Exact: can ``position`` be won? Memoises the verdict of its whole kings' group: lost
        (None), or the step of a winning line. The step chosen is the first winning one in a
        fixed order, so it depends on the position only, never on what was searched before."""
        nonlocal count
        key = position[0]
        entry = memo_get(key, _MISSING)
        if entry is not _MISSING:
            return entry is not None
        if not position[2]:  # no dealt card left in the columns: every card goes home
            memo[key] = GOAL
            return True
        if position[8] == CELLS and prune and stuck(position):
            # judged when tried, not when made: most children are never tried
            memo[key] = None
            return False
        if count >= limit:
            raise SolverBudgetExceeded(budget_given)
        count += 1
        kings = position[1]
        moves, forced = unit_moves(position, kings, prune, False)
        if forced:
            _order, pile, _to_column, child = moves[0]
            won = search(child)
            memo[key] = ("unit", pile, True, child[0]) if won else None
            return won
        floating = position[6]
        floating_kings = floating & KING_BITS
        if not floating_kings:
            group = None
        elif not prune:
            group = kings_group(position)
        elif floating_kings & ~KINGS_OF[kings] and position[11] > kings.bit_count():
            group = kings_group(position)  # a king in a cell can take a free column
        elif position[8] == CELLS or not (floating_kings & ~KINGS_OF[kings]
                                          or floating_kings.bit_count() >= position[11] and position[4] & KING_BITS):
            # no cell for a king's run; or every king in a column and one column to spare (or no
            # king's unit that could use one), so the other members wait (see kings_to_columns)
            group = None
        else:
            # alone unless a king's run in a column fits in the free cells (its king and the
            # floating cards lying on it in turn)
            free = CELLS - position[8]
            in_columns = floating_kings & KINGS_OF[kings]
            group = None
            while in_columns:
                king = in_columns & -in_columns
                in_columns ^= king
                below = king - (king >> free)  # the free cells' worth of cards below the king
                if floating & below != below:
                    group = kings_group(position)
                    break
        if group is None or len(group) == 1:
            moves.sort()
            for _order, pile, to_column, child in moves:
                if search(child):
                    memo[key] = ("unit", pile, to_column, child[0])
                    return True
            memo[key] = None
            return False
        children = []
        empty = position[11]
        for member_index, (member, _moves) in enumerate(group):
            # A king waiting in a cell beside a free column: the member with that king in the
            # column makes every other unit move as well or better (more cells free, as many
            # places), and can come back here; only a king's unit taking the free column needs
            # this member.
            waiting = (prune and empty > member[1].bit_count()
                       and member[6] & KING_BITS & ~KINGS_OF[member[1]])
            if member_index:
                if waiting and not member[4] & KING_BITS:
                    continue
                member_moves, _forced = unit_moves(member, member[1], False, bool(waiting))
            elif waiting:
                member_moves = [move for move in moves
                                if units_of[move[1]][key >> _SHIFT[move[1]] & DEPTH_MASK][_U_KING]]
            else:
                member_moves = moves
            for order, pile, to_column, child in member_moves:
                children.append((order, pile, member_index, to_column, child))
        children.sort()
        for _order, pile, member_index, to_column, child in children:
            if search(child):
                _record_win(memo, group, member_index, ("unit", pile, to_column, child[0]))
                return True
        for member, _moves in group:
            memo[member[0]] = None
        return False

    def counted() -> int:
        return count

    def get_limit() -> tuple[int, int]:
        return limit, budget_given

    def set_limit(new_limit: tuple[int, int]) -> None:
        """The count of positions at which the search stops, and the budget it came from."""
        nonlocal limit, budget_given
        limit, budget_given = new_limit

    return search, settle, counted, get_limit, set_limit


_LONGEST_LINE = 2000


def _dealt_left(pile: Sequence[Card], column: Sequence[Card]) -> int:
    """How many of a column's first cards are still those dealt to it (``pile``), in order."""
    depth = 0
    limit = min(len(pile), len(column))
    while depth < limit and column[depth] is pile[depth]:
        depth += 1
    return depth


def _is_run(column: Sequence[Card]) -> bool:
    return all(upper.suit == lower.suit and upper.order == lower.order + 1 for upper, lower in zip(column, column[1:]))


def _bottom_run(column: Sequence[Card]) -> int:
    """How many cards at the column's bottom form a run."""
    length = 1
    while length < len(column) and column[-length - 1].suit == column[-length].suit \
            and column[-length - 1].order == column[-length].order + 1:
        length += 1
    return length


def _tidy_move(layout: Layout) -> tuple[str, str] | None:
    """A free move that makes the layout more canonical: a card to its foundation, or a card in
    a cell onto its next higher card at a column's bottom."""
    for index, column in enumerate(layout.columns):
        if column:
            home = layout.foundation_for(column[-1])
            if home is not None:
                return (f"t{index + 1}", home)
    bottoms = {(column[-1].suit, column[-1].order): index for index, column in enumerate(layout.columns) if column}
    for index, card in enumerate(layout.cells):
        if card is None:
            continue
        home = layout.foundation_for(card)
        if home is not None:
            return (f"c{index + 1}", home)
        place = bottoms.get((card.suit, card.order + 1))
        if place is not None:
            return (f"c{index + 1}", f"t{place + 1}")
    return None


def _expand(tidy: Layout, step: tuple) -> list[tuple[str, str]]:
    """The single-card moves of a memoised step from a tidy layout, up to where tidy moves
    finish it (S3.1: one card at a time).

    A run goes onto its place by parking its cards but the top one in the cells, then moving
    the top card (the parked cards then follow it as tidy moves). A run going to the cells, or a
    king's run leaving its column, goes there bottom card first. A king leaving a cell for an
    empty column is one move (its run follows from the cells as tidy moves)."""
    table = tidy.copy()
    moves: list[tuple[str, str]] = []

    def play(source: str, target: str) -> None:
        table.move(source, target)  # the rules check every move of a line
        moves.append((source, target))

    def park(source: str) -> None:
        play(source, f"c{table.cells.index(None) + 1}")

    empty_column = next((f"t{index + 1}" for index, column in enumerate(table.columns) if not column), "")
    if step[0] == "king":
        _kind, suit, to_column, _next = step
        if to_column:
            cell = next(index for index, card in enumerate(table.cells)
                        if card is not None and card.suit_index == suit and card.order == KING)
            play(f"c{cell + 1}", empty_column)
        else:
            index = next(index for index, column in enumerate(table.columns)
                         if column and column[0].order == KING and column[0].suit_index == suit)
            while table.columns[index]:
                park(f"t{index + 1}")
        return moves
    _kind, index, to_column, _next = step
    source = f"t{index + 1}"
    length = _bottom_run(table.columns[index])
    if not to_column:
        for _ in range(length):
            park(source)
        return moves
    for _ in range(length - 1):
        park(source)
    top = table.columns[index][-1]
    if top.order == KING:
        target = empty_column
    else:
        target = next(f"t{other + 1}" for other, column in enumerate(table.columns)
                      if column and column[-1].suit == top.suit and column[-1].order == top.order + 1)
    play(source, target)
    return moves


# -- solvers shared by the doors -------------------------------------------------------------------------

_SOLVERS: "OrderedDict[tuple, Solver]" = OrderedDict()
_KEEP = 16  # deals whose memo is kept: a family's tables in play, with room to spare


def _deal_key(piles: Sequence[Sequence[Card]]) -> tuple:
    return tuple(tuple(card.id for card in pile) for pile in piles)


def solver_for(piles: Sequence[Sequence[Card]]) -> Solver:
    """The solver of a deal, kept while the deal is in play (its memo makes later questions
    about the same deal cheap: a hint or a verdict after a move costs little)."""
    key = _deal_key(piles)
    solver = _SOLVERS.get(key)
    if solver is None:
        solver = Solver(piles)
        keep(solver)
    else:
        _SOLVERS.move_to_end(key)
    return solver


def keep(solver: Solver) -> None:
    """Keep a solver among the shared ones (the least recently used goes)."""
    _SOLVERS[_deal_key(solver.piles)] = solver
    _SOLVERS.move_to_end(_deal_key(solver.piles))
    while len(_SOLVERS) > _KEEP:
        _SOLVERS.popitem(last=False)


def solve(layout: Layout) -> list[tuple[str, str]] | None:
    """A winning line from any layout (its columns taken as dealt), or None if it cannot be won."""
    return Solver(layout.columns).line(layout)


# -- the compiled copy ------------------------------------------------------------------------------
# scripts/build-solver compiles this module, up to the line above, with mypyc (the same code,
# run as C: the search about half as costly) into ``_solver_native``, stamped with this module's
# digest (``SOURCE_DIGEST``). It is used only if it was built from this very code; without it (no
# compiler where the game is served, or the code changed since) everything runs as plain Python,
# with the same verdicts.

NATIVE_MODULE = "app.games.seahaven._solver_native"
PythonSolver = Solver  # the plain-Python search, whichever ``Solver`` is


def _feed(digest: "hashlib._Hash", value: object) -> None:
    if isinstance(value, types.CodeType):
        digest.update(value.co_code)
        digest.update(repr((value.co_names, value.co_varnames, value.co_freevars, value.co_cellvars)).encode())
        for constant in value.co_consts:
            _feed(digest, constant)
    elif isinstance(value, (types.FunctionType, property)):
        _feed(digest, getattr(value, "fget", value).__code__)
    elif isinstance(value, type):
        for name, member in sorted(vars(value).items()):
            if not name.startswith("__") or name == "__init__":
                digest.update(name.encode())
                _feed(digest, member)
    elif isinstance(value, tuple):
        for item in value:
            _feed(digest, item)
    elif isinstance(value, frozenset):  # (its order changes from one process to the next)
        for text in sorted(map(repr, value)):
            digest.update(text.encode())
    elif isinstance(value, (int, str, bytes, range, dict)):
        digest.update(repr(value).encode())
    else:
        digest.update(type(value).__name__.encode())


def _module_digest() -> str:
    """A digest of this module as Python runs it (every function's and class's code, every
    constant), taken from the loaded module itself: a change that can alter what it does alters
    the digest (a comment cannot)."""
    digest = hashlib.sha256()
    for name, value in sorted(globals().items()):
        if name.startswith("__") or getattr(value, "__module__", __name__) != __name__:
            continue
        digest.update(name.encode())
        _feed(digest, value)
    return digest.hexdigest()


SOURCE_DIGEST = _module_digest()  # scripts/build-solver stamps it into the compiled copy


def compiled_solver() -> type[Solver] | None:
    """The compiled ``Solver``, if ``scripts/build-solver`` built it from this very source."""
    try:
        native = importlib.import_module(NATIVE_MODULE)
    except ImportError:
        return None
    if getattr(native, "SOURCE_SHA256", None) != SOURCE_DIGEST:
        return None  # built from another version of this module: not the same solver
    return native.Solver


Solver = compiled_solver() or PythonSolver  # type: ignore[misc]

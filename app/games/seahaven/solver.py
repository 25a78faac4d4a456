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

The search is a depth-first search that tries the unit moves most promising first (fewest cells
used after the move, then fewest dealt cards left) and memoises every position's verdict: lost,
or the step of a winning line. Two dominance rules spare it work without changing a verdict:
once every king is home or in a column of its own, a unit that can go onto a king's run does
so at once (``_unit_moves``); and in a kings' group, a member where a king waits in a cell beside
a free column only contributes moves of kings' units into that column (``_search``).

A winning line is made of single-card moves (S3.1): from a real ``Layout``, the free moves that
make it canonical, then the memoised step, a unit carried card by card through the cells
(``_expand``), and so on; the rules check every move. ``hint`` gives the next move of that line
and depends on the layout only, even half way through carrying a unit.
"""

from __future__ import annotations

from collections import OrderedDict
from operator import itemgetter
from collections.abc import Sequence

from app.core.cards import Card

from .rules import CELLS, COLUMNS, KING, Layout

LANE = 16  # each suit's 13 cards take 13 bits of a 16-bit lane: bit 16*suit + rank order
_LANES = range(4)
ONES = sum(1 << (LANE * suit) for suit in _LANES)
GUARDS = ONES << 13  # a bit above each suit's king keeps lane arithmetic inside the lane
CARD_BITS = sum(((1 << 13) - 1) << (LANE * suit) for suit in _LANES)
KING_BITS = ONES << KING
KINGS_OF = tuple(sum(1 << (LANE * suit + KING) for suit in _LANES if group >> suit & 1) for group in range(16))
DEPTH_BITS = 5  # a column holds at most 6 dealt cards plus 12 appended ones: 18 < 32
KINGS_SHIFT = DEPTH_BITS * COLUMNS

GOAL = ("goal",)
_MISSING = object()
_DEPTH_ONE = tuple(1 << (DEPTH_BITS * index) for index in range(COLUMNS))
_DEPTHS_MASK = (1 << KINGS_SHIFT) - 1
_DONE_MASK = ONES
_DONE_SUITS = {sum(1 << (LANE * suit) for suit in _LANES if group >> suit & 1): group for group in range(16)}
# fewest cells used, then fewest dealt cards left in the columns; then a fixed order
_promise = itemgetter(0, 1, 2, 3)


def card_bit(card: Card) -> int:
    return 1 << (LANE * card.suit_index + card.order)


def _suit_of_bit(bit: int) -> int:
    return (bit.bit_length() - 1) // LANE


def _floating(in_columns: int, bottoms: int, lowest: int, kings: int) -> tuple[int, int, int]:
    """(floating cards, those lying in columns, cells needed): a floating card lies in a column
    when its next higher card is a column's bottom card, or its king has a column, or its next
    higher card lies in a column in its turn; the others take a cell each."""
    floating = CARD_BITS & ~(in_columns | (lowest - ONES))
    held = ((bottoms >> 1) | KINGS_OF[kings]) & floating
    while True:
        more = held | ((held >> 1) & floating)
        if more == held:
            return floating, held, floating.bit_count() - held.bit_count()
        held = more


class Solver:
    """The solver for one deal: ``piles`` are the ten columns as dealt (or any layout's columns,
    taken as dealt). Positions are judged from real layouts of that deal; verdicts are memoised
    for the solver's life, so asking after every move costs little."""

    def __init__(self, piles: Sequence[Sequence[Card]], *, prune: bool = True):
        if len(piles) != COLUMNS:
            raise ValueError(f"a deal has {COLUMNS} columns")
        if any(len(pile) >= 1 << DEPTH_BITS for pile in piles):
            raise ValueError("no column of a game holds that many cards")
        self.prune = prune  # the two dominance rules of _unit_moves and _search (tests compare)
        self.piles = [tuple(pile) for pile in piles]
        self._prefix: list[tuple[int, ...]] = []  # [pile][depth]: the bits of the first depth cards
        self._bottom: list[tuple[int, ...]] = []  # [pile][depth]: the bit of card depth-1 (0 at depth 0)
        self._run: list[tuple[int, ...]] = []  # [pile][depth]: length of the run ending at card depth-1
        self._king_run: list[int] = []  # length of the king's run at the top of the pile, 0 if none
        self._king_suit: list[int] = []  # the bit of that king's suit (for the kings' group)
        for pile in self.piles:
            bits = [card_bit(card) for card in pile]
            prefix, bottom, run = [0], [0], [0]
            for depth, bit in enumerate(bits):
                prefix.append(prefix[-1] | bit)
                bottom.append(bit)
                run.append(run[-1] + 1 if depth and bits[depth - 1] == bit << 1 else 1)
            self._prefix.append(tuple(prefix))
            self._bottom.append(tuple(bottom))
            self._run.append(tuple(run))
            if bits and bits[0] & KING_BITS:
                length = 1
                while length < len(bits) and bits[length] << length == bits[0]:
                    length += 1
                self._king_run.append(length)
                self._king_suit.append(1 << _suit_of_bit(bits[0]))
            else:
                self._king_run.append(0)
                self._king_suit.append(0)
        # [pile][depth]: what moving the pile's bottom run does (see _unit_moves)
        self._units: list[list[tuple | None]] = []
        for index, pile in enumerate(self.piles):
            prefix, bottom, run = self._prefix[index], self._bottom[index], self._run[index]
            units: list[tuple | None] = [None]
            for depth in range(1, len(pile) + 1):
                length = run[depth]
                top = bottom[depth - length + 1]
                new_depth = depth - length
                king_suit = 1 << _suit_of_bit(top) if top & KING_BITS else 0
                units.append((length, bottom[depth] >> 1, 0 if king_suit else top << 1, king_suit, new_depth,
                              prefix[depth] ^ prefix[new_depth], bottom[depth] ^ bottom[new_depth],
                              length * _DEPTH_ONE[index]))
            self._units.append(units)
        self._pile_of = {card_bit(card): index for index, pile in enumerate(self.piles) for card in pile}
        self.memo: dict[int, tuple | None] = {}
        self.positions = 0  # positions expanded, for the benchmark

    # -- positions ----------------------------------------------------------------------------------
    #
    # A position is a tuple: (depths, kings, key, cards in columns, bottom cards, lowest card of
    # each suit in the columns, floating cards, floating cards lying in columns, cells used).
    # ``kings`` has bit s set when suit s's king has a column of its own; the key packs the
    # depths and the kings into one int for the memo. Card sets are bit masks (``card_bit``).

    def _settled(self, depths: list[int], kings: int, key: int, in_columns: int, bottoms: int,
                 touched: list[int], lost: dict | None = None) -> tuple | None:
        """The canonical position, in place: bottom cards go home while they can, and a column
        left holding only its king's run becomes that king's column. ``touched``: the columns
        whose depth changed (only they can have become a king's column). None if ``lost`` (the
        memo) knows the position is lost: the search has no use for it."""
        bottom, prefix, king_run, pile_of = self._bottom, self._prefix, self._king_run, self._pile_of
        while True:
            guarded = in_columns | GUARDS
            lowest = guarded & ~(guarded - ONES)
            going_home = bottoms & lowest
            if going_home:
                while going_home:
                    bit = going_home & -going_home
                    going_home ^= bit
                    index = pile_of[bit]
                    depth = depths[index] - 1
                    depths[index] = depth
                    in_columns ^= bit
                    bottoms ^= bit | bottom[index][depth]
                    key -= _DEPTH_ONE[index]
                    touched.append(index)
                continue
            converted = False
            for index in touched:
                depth = depths[index]
                if depth and depth <= king_run[index]:
                    kings |= self._king_suit[index]
                    in_columns ^= prefix[index][depth]
                    bottoms ^= bottom[index][depth]
                    key -= depth * _DEPTH_ONE[index]
                    depths[index] = 0
                    converted = True
            if not converted:
                break
            touched = []
        if kings:
            done = lowest & GUARDS  # a suit with no card left in the columns is all home, king too
            if done:
                kings &= ~_DONE_SUITS[done >> 13 & _DONE_MASK]
        key |= kings << KINGS_SHIFT
        if lost is not None and lost.get(key, _MISSING) is None:
            return None
        # as _floating does, inline: this is the search's innermost loop
        floating = CARD_BITS & ~(in_columns | (lowest - ONES))
        held = ((bottoms >> 1) | KINGS_OF[kings]) & floating
        while True:
            more = held | ((held >> 1) & floating)
            if more == held:
                break
            held = more
        return (tuple(depths), kings, key, in_columns, bottoms, lowest, floating, held,
                floating.bit_count() - held.bit_count())

    def _from_depths(self, depths: list[int], kings: int) -> tuple:
        in_columns = bottoms = key = 0
        for index, depth in enumerate(depths):
            in_columns |= self._prefix[index][depth]
            bottoms |= self._bottom[index][depth]
            key += depth * _DEPTH_ONE[index]
        return self._settled(list(depths), kings, key, in_columns, bottoms, list(range(COLUMNS)))

    def _with_kings(self, position: tuple, kings: int) -> tuple:
        depths, _kings, key, in_columns, bottoms, lowest = position[:6]
        floating, held, used = _floating(in_columns, bottoms, lowest, kings)
        key = (key & _DEPTHS_MASK) | kings << KINGS_SHIFT
        return (depths, kings, key, in_columns, bottoms, lowest, floating, held, used)

    # -- the search ------------------------------------------------------------------------------------

    def _kings_group(self, position: tuple) -> list[tuple]:
        """The positions reachable from ``position`` by moving kings' runs between the cells and
        empty columns, ``position`` first, each as (position, king moves): a king move is
        (suit, to_column, index of the member it leads to). Every king move can be undone (a run
        moved to a column frees the cells it needs to come back; one moved to the cells frees
        its column), so the group is the same from any of its members."""
        if not (position[6] & KING_BITS):
            return [(position, ())]
        members = [position]
        index_of = {position[1]: 0}
        edges: list[list[tuple[int, bool, int]]] = []
        empty = position[0].count(0)
        cursor = 0
        while cursor < len(members):
            current = members[cursor]
            kings, floating, held, used = current[1], current[6], current[7], current[8]
            free_columns = empty - kings.bit_count()
            moves = []
            for suit in _LANES:
                king = 1 << (LANE * suit + KING)
                if not floating & king:
                    continue
                if kings >> suit & 1:
                    run, bit = 0, king
                    while bit & held:
                        run += 1
                        bit >>= 1
                    if run > CELLS - used:
                        continue
                    other, to_column = kings & ~(1 << suit), False
                elif free_columns:
                    other, to_column = kings | (1 << suit), True
                else:
                    continue
                if other not in index_of:
                    index_of[other] = len(members)
                    members.append(self._with_kings(current, other))
                moves.append((suit, to_column, index_of[other]))
            edges.append(moves)
            cursor += 1
        return list(zip(members, edges))

    def _unit_moves(self, position: tuple, forcing: bool = False, kings_only: bool = False) -> tuple[list[tuple], bool]:
        """The unit moves of a position: (pile, to_column, child position), but those the memo
        knows to be lost (``kings_only``: only the units whose top card is a king); and whether
        the move is forced.

        With ``forcing``, when every king is home or in a column of its own (so no king will ever
        leave its column again), a unit that can go onto the end of a king's run, uncovering a
        dealt card, is the only move returned (the first such, by column): that move is always
        good (the unit can still do there all it could do where it was, it covers nothing that
        will need digging out, and it uncovers the card it lay on), so the search tries no other.
        (A unit that would leave its column empty is not forced: that gains only a column, and
        no king needs one.)"""
        depths, kings, key, in_columns, bottoms, _lowest, floating, held, used = position
        free = CELLS - used
        free_columns = depths.count(0) - kings.bit_count()
        reachable = bottoms | held
        key &= _DEPTHS_MASK
        memo = self.memo
        moves = []
        for index, depth in enumerate(depths):
            if not depth:
                continue
            length, below, wanted, king_suit, new_depth, leaving, new_bottom, key_change = self._units[index][depth]
            if kings_only and not king_suit:
                continue
            unit = length
            while below & floating:  # floating cards lying on the run belong to the unit
                unit += 1
                below >>= 1
            if unit - 1 > free:
                continue
            child_kings = kings
            if king_suit:
                if free_columns:
                    child_kings = kings | king_suit
                    to_column = True
                elif unit > free:
                    continue
                else:
                    to_column = False
            elif wanted & reachable:
                to_column = True
                if (forcing and new_depth and wanted & held
                        and not (in_columns | floating) & KING_BITS & ~KINGS_OF[kings]):
                    bit = wanted  # climb the run it would lie on: does it hang from a king with a column?
                    while bit & held and not bit & KING_BITS:
                        bit <<= 1
                    if bit & held & KING_BITS:
                        child_depths = list(depths)
                        child_depths[index] = new_depth
                        child = self._settled(child_depths, kings, key - key_change, in_columns ^ leaving,
                                              bottoms ^ new_bottom, [index])
                        return [(index, True, child)], True
            elif unit > free:
                continue
            else:
                to_column = False
            child_depths = list(depths)
            child_depths[index] = new_depth
            child = self._settled(child_depths, child_kings, key - key_change, in_columns ^ leaving,
                                  bottoms ^ new_bottom, [index], memo)
            if child is not None:
                moves.append((index, to_column, child))
        return moves, False

    def _search(self, position: tuple) -> bool:
        """Exact: can ``position`` be won? Memoises the verdict of its whole kings' group: lost
        (None), or the step of a winning line. The step chosen is the first winning one in a
        fixed order, so it depends on the position only, never on what was searched before."""
        memo = self.memo
        entry = memo.get(position[2], _MISSING)
        if entry is not _MISSING:
            return entry is not None
        if not position[3]:  # no dealt card left in the columns: every card goes home
            memo[position[2]] = GOAL
            return True
        self.positions += 1
        moves, forced = self._unit_moves(position, forcing=self.prune)
        if forced:
            pile, _to_column, child = moves[0]
            won = self._search(child)
            memo[position[2]] = ("unit", pile, True, child[2]) if won else None
            return won
        group = self._kings_group(position)
        children = []
        empty = position[0].count(0)
        for member_index, (member, _moves) in enumerate(group):
            # A king waiting in a cell beside a free column: the member with that king in the
            # column makes every other unit move as well or better (more cells free, as many
            # places), and can come back here; only a king's unit taking the free column needs
            # this member.
            waiting = (self.prune and len(group) > 1 and empty > member[1].bit_count()
                       and member[6] & KING_BITS & ~KINGS_OF[member[1]])
            if member_index:
                moves, _forced = self._unit_moves(member, kings_only=waiting)
            elif waiting:
                depths = member[0]
                moves = [move for move in moves if self._units[move[0]][depths[move[0]]][3]]
            for pile, to_column, child in moves:
                children.append((child[8], child[3].bit_count(), member[1], pile, member_index, to_column, child))
        children.sort(key=_promise)
        tried = set()
        for _used, _left, _kings, pile, member_index, to_column, child in children:
            if child[2] in tried:
                continue
            tried.add(child[2])
            if self._search(child):
                self._record_win(group, member_index, ("unit", pile, to_column, child[2]))
                return True
        for member, _moves in group:
            memo[member[2]] = None
        return False

    def _record_win(self, group: list[tuple], winner: int, step: tuple) -> None:
        """Memoise a won group: the winner makes ``step``; every other member moves kings
        towards it, along a breadth-first tree grown from the winner in suit order."""
        memo = self.memo
        memo[group[winner][0][2]] = step
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
                    memo[group[other][0][2]] = ("king", suit, not to_column, group[current][0][2])

    # -- real layouts ------------------------------------------------------------------------------------

    def position_of(self, layout: Layout):
        """The canonical position of a real layout of this deal."""
        in_cells = {card for card in layout.cells if card is not None}
        depths = []
        kings = 0
        for index, column in enumerate(layout.columns):
            pile = self.piles[index]
            depth = 0
            limit = min(len(pile), len(column))
            while depth < limit and column[depth] is pile[depth]:
                depth += 1
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
            depth = 0
            limit = min(len(pile), len(column))
            while depth < limit and column[depth] is pile[depth]:
                depth += 1
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

    def winnable(self, layout: Layout) -> bool:
        """S5.1: can this layout still be won? Exact."""
        return self._search(self.position_of(layout))

    def hint(self, layout: Layout) -> tuple[str, str] | None:
        """S5.2: the next move (source, target) of a winning line from ``layout``, or None if it
        cannot be won (or is won already).

        A function of the layout alone, and asking again after playing it continues the same
        line: the line from a layout is its tidy moves (cards home, cards from the cells onto
        their places, ``_tidy_move``), then the memoised step of the tidy layout, card by card
        (``_expand``). A layout part way through such a step (a run half carried through the
        cells) is recognised as such, since tidying it gives back the layout the step began at."""
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
        steps = _expand(tidy, self.memo[position[2]])
        table = tidy.copy()
        for move in steps:
            if table == layout:
                return move
            table.move(*move)
        return tidy_moves[0]

    def line(self, layout: Layout) -> list[tuple[str, str]] | None:
        """A winning line from ``layout``: the hints, followed one after another. Single-card
        moves (source, target), each accepted by the rules, ending with every card home; None
        if the layout cannot be won. Not always the shortest line."""
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

_LONGEST_LINE = 2000


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
        column = bottoms.get((card.suit, card.order + 1))
        if column is not None:
            return (f"c{index + 1}", f"t{column + 1}")
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

    empty_column = next((f"t{index + 1}" for index, column in enumerate(table.columns) if not column), None)
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

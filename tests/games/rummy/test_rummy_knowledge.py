"""What a seat knows, read from its view alone (``app.games.rummy.knowledge``), which the easy and
strong computer players play from: the rule book's player asked about the seat's model of the
hand chooses as it does from the whole state (C6, C7.1), and a deal of the model puts every card
the seat cannot place where it may lie."""

from __future__ import annotations

import random

from rummy_test_helpers import RUMMY

from app.core.names import COMPUTER_NAME
from app.games.rummy.actions import DiscardCard, DrawCard
from app.games.rummy.bot import choose_discard, draw_source, next_play
from app.games.rummy.cards import CARDS, mask_of, numbers
from app.games.rummy.knowledge import as_game, read_view
from app.games.rummy.state import DRAW


def positions(games: int, seats: int = 2):
    bot = RUMMY.bot
    for number in range(games):
        state = RUMMY.new_state([COMPUTER_NAME] * seats, seed=f"know/{number}")
        while not state.is_over():
            seat = state.to_move()
            if seat is None:
                state.apply(None, RUMMY.action_from_dict(state.legal(None)[0].as_dict()))
                continue
            yield state, seat
            state.apply(seat, bot.choose(state, seat))


def test_the_rule_books_player_reading_the_view_chooses_as_from_the_state():
    """C6 read from the view: the seen cards (C6.3's liveness), the melds, the hand and the card
    taken are all there, so the model of a hand made from the view gets C6's own choices."""
    checked = same = 0
    for state, seat in positions(3):
        knowledge = read_view(state.view(seat), seat)
        table = as_game(knowledge.deal(random.Random(1)))
        action = RUMMY.bot.choose(state, seat)
        if state.phase is DRAW:
            choice = DrawCard(draw_source(table, seat))
        else:
            play = next_play(table, seat)
            choice = play if play is not None else DiscardCard(CARDS[choose_discard(table, seat)])
        checked += 1
        same += choice == action
    # (C6.3's "danger" reads the next hand's cards taken from the pile: one taken before the log's
    # last lines is a card the view still names as seen, but not where it went.)
    assert checked > 500 and same >= checked - 3


def test_a_deal_of_the_model_keeps_what_the_seat_knows_and_places_the_rest_where_it_may_lie():
    rng = random.Random(3)
    for index, (state, seat) in enumerate(positions(2, seats=3)):
        if index % 5:
            continue
        knowledge = read_view(state.view(seat), seat)
        table = knowledge.deal(rng)
        assert table.players[seat].hand.mask == state.players[seat].hand.mask
        assert [len(list(numbers(p.hand.mask))) for p in table.players] == [len(p.hand) for p in state.players]
        assert len(table.stock) == len(state.stock) and len(table.discard.cards) == len(state.discard.cards)
        assert table.discard.top() == state.discard.top()
        every = [card for p in table.players for card in numbers(p.hand.mask)] + table.stock + table.discard.cards
        every += [card for meld in table.melds for card in numbers(meld.mask)]
        assert sorted(every) == list(range(52))
        # The discard pile holds only cards seen face up; the stock, before it is turned over,
        # only cards nobody saw.
        assert not mask_of(table.discard.cards) & ~state.seen
        if not state.turned_over:
            assert not mask_of(table.stock) & state.seen

"""Classic Rummy's guided first game: one hand against the computer player, dealt from a known
deck (C2.3: one card at a time, the learner first; then the turned-up card, then the stock). The
learner holds 5S 6S 7S, 8C 8D 8H, 8S, QH, 2D 3D; draws KC from the stock (C3.1), melds a run and
a set (C3.2), discards KC (C3.3); the computer draws 6H, melds 9H TH JH and 6C 6D 6H and
discards 4D (C6); the learner takes 4D from the discard pile, lays off 8S on the run and QH on the
computer's run (C3.2), and goes out by melding 2D 3D 4D (C3.4)."""

from __future__ import annotations

from app.core.guides import Guide, GuideStep

DECK = tuple("""5S 9H 6S TH 7S JH 8C 4D 8D AC
8H AH 8S 3C QH 3S 2D 6C 3D 6D
9D KC 6H 2C 4C 5C 7C 9C TC JC
QC AD 5D 7D TD JD QD KD 2H 3H
4H 5H 7H KH AS 2S 4S 9S TS JS
QS KS""".split())  # top of the deck first


def cards(*ids: str) -> str:
    """The hand's cards to select, in order."""
    return ", ".join(f'label[data-card="{id_}"]' for id_ in ids)


GUIDE = Guide(
    deck=DECK,
    names=("You", "AI"),
    options={"target": 50},
    welcome="One hand against the computer: put your cards down in melds (runs and sets) and be the "
            "first with no cards left.",
    steps=(
        GuideStep({"action": "draw", "source": "stock"},
                  "Every turn starts with a draw. The card on the discard pile does not help you, so "
                  "take the top card of the stock: tap the stock.",
                  'button[value="draw|source=stock"]'),
        GuideStep({"action": "meld", "cards": ["5S", "6S", "7S"]},
                  "5, 6 and 7 of spades are a run: three cards of one suit in a row. Select them, "
                  "then tap Meld to put them down.",
                  cards("5S", "6S", "7S") + ', button[value="meld"]'),
        GuideStep({"action": "meld", "cards": ["8C", "8D", "8H"]},
                  "Three 8s are a set: three or four cards of one rank. Select the 8 of clubs, "
                  "diamonds and hearts, then tap Meld.",
                  cards("8C", "8D", "8H") + ', button[value="meld"]'),
        GuideStep({"action": "discard", "cards": ["KC"]},
                  "A turn ends with a discard. The king of clubs fits nothing and counts 10 points "
                  "against you: select it, then tap Discard.",
                  cards("KC") + ', button[value="discard"]'),
        GuideStep({"action": "draw", "source": "discard"},
                  "The computer put down two melds and threw away the 4 of diamonds, which makes a "
                  "run with your 2 and 3 of diamonds. Take it: tap the discard pile.",
                  'button[value="draw|source=discard"]'),
        GuideStep({"action": "lay_off", "cards": ["8S"], "meld": "1"},
                  "A card may be added to any meld on the table: that is laying off. The 8 of spades "
                  "continues your run: select it, then tap your run of spades.",
                  cards("8S") + ', button.rm-meld[data-meld="1"]'),
        GuideStep({"action": "lay_off", "cards": ["QH"], "meld": "3"},
                  "The computer's melds take your cards too: the queen of hearts continues its run "
                  "9, 10, jack of hearts. Select the queen, then tap that run.",
                  cards("QH") + ', button.rm-meld[data-meld="3"]'),
        GuideStep({"action": "meld", "cards": ["2D", "3D", "4D"]},
                  "Your last three cards are a run of diamonds. Meld them: with no card left you go "
                  "out, and you score the points left in the computer's hand.",
                  cards("2D", "3D", "4D") + ', button[value="meld"]'),
    ),
    farewell="You went out and won the hand. The game goes on, hand after hand, until someone reaches "
             "the target score: deal the next hand and play on, or leave the guide.",
)

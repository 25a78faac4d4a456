"""Mason Rummy's guided first game: round 1 against the computer player, dealt from a known deck
(R4.2: ten cards to the learner, ten to the computer, the turned-up card, then the stock). The
learner holds 5S 6S 7S, 9C 9D 9H, 8S, 2D 3D, QH; draws KS from the stock (R5.1), lays down a run
and a meld (R6.1, R6.2), discards KS (R5.6); the computer draws 6H, lays down TC JC QC and
6C 6D 6H and discards 4D (R8); the learner takes 4D from the discard pile, lays down 2D 3D 4D,
lays 8S off on the run (R6.3), and goes out by discarding QH (R5.7)."""

from __future__ import annotations

from app.core.guides import Guide, GuideStep

DECK = tuple("""5S 6S 7S 9C 9D 9H 8S 2D 3D QH
TC JC QC 6C 6D AC AH 3C 3H 4D
8C KS 6H 2C 4C 5C 7C KC AD 5D
7D 8D TD JD QD KD 2H 4H 5H 7H
8H TH JH KH AS 2S 3S 4S 9S TS
JS QS AP 2P 3P 4P 5P 6P 7P 8P
9P TP JP QP KP""".split())  # top of the deck first


def cards(*ids: str) -> str:
    """The hand's cards to select, in order."""
    return ", ".join(f'label[data-card="{id_}"]' for id_ in ids)


GUIDE = Guide(
    deck=DECK,
    names=("You", "AI"),
    welcome="The first round of a game against the computer: lay your cards down in runs and melds, "
            "and empty your hand first. The points left in a hand count against it.",
    steps=(
        GuideStep({"action": "draw_stock"},
                  "Every turn starts with a draw. The turned-up card does not help you, so take the "
                  "top card of the stock: tap the stock.",
                  'button[value="draw_stock"]'),
        GuideStep({"action": "lay_down", "cards": ["5S", "6S", "7S"]},
                  "5, 6 and 7 of spades are a run: three or more cards of one suit in a row. Select "
                  "them, then tap Play down cards.",
                  cards("5S", "6S", "7S") + ', button[value="lay_down"]'),
        GuideStep({"action": "lay_down", "cards": ["9C", "9D", "9H"]},
                  "Three 9s are a meld: three or more cards of one value. Select the 9 of clubs, "
                  "diamonds and hearts, then tap Play down cards.",
                  cards("9C", "9D", "9H") + ', button[value="lay_down"]'),
        GuideStep({"action": "discard", "cards": ["KS"]},
                  "A turn ends with a discard. The king of spades fits nothing and costs 10 points "
                  "if it stays: select it, then tap Discard.",
                  cards("KS") + ', button[value="discard"]'),
        GuideStep({"action": "draw_discard"},
                  "The computer laid down two sets and threw away the 4 of diamonds, which makes a "
                  "run with your 2 and 3 of diamonds. Take it: tap the discard pile.",
                  'button[value="draw_discard"]'),
        GuideStep({"action": "lay_down", "cards": ["2D", "3D", "4D"]},
                  "Lay down your new run: select the 2, 3 and 4 of diamonds, then tap Play down cards.",
                  cards("2D", "3D", "4D") + ', button[value="lay_down"]'),
        GuideStep({"action": "lay_down", "cards": ["8S"]},
                  "A single card may go onto one of your own sets when it fits: the 8 of spades "
                  "extends your run 5, 6, 7. Select it, then tap Play down cards.",
                  cards("8S") + ', button[value="lay_down"]'),
        GuideStep({"action": "discard", "cards": ["QH"]},
                  "One card left: discard the queen of hearts, and your hand is empty. You go out, "
                  "and the computer adds the points left in its hand.",
                  cards("QH") + ', button[value="discard"]'),
    ),
    farewell="You went out: the round is over, and the computer's cards count against it. A game is "
             "three rounds, and the lowest score wins. Play on, or leave the guide.",
)

"""Seahaven Towers' guided first game: a winnable open deal (S2.3; the solver wins it in 55
moves), laid out so that the first moves show every kind: a card into a cell (a tower), aces and
twos to the foundations, a card from one column onto another (S3.3: the next rank up, the same
suit), and a king into the column the others emptied (S3.3). Column 3 holds 4C QH 3C AC 2C,
column 8 ends with KH, column 10 with KS."""

from __future__ import annotations

from app.core.guides import Guide, GuideStep

# Ten a line, top of the deck first: card i goes to column (i mod 10) + 1 (S2.2).
DECK = tuple("""TC KC 4C 8D KD 5H TH 9S 5S JH
9C QC QH 7D QD 4H 9H 8S 4S QS
8C JC 3C 6D JD 3H 8H 7S 3S JS
7C 3D AC 5D TD 2H 7H 6S 2S TS
6C 2D 2C 4D 9D AH 6H KH AS KS
5C AD""".split())


def move(source: str, target: str) -> dict[str, str]:
    return {"action": "move", "from": source, "to": target}


def pointing(card: str, target: str) -> str:
    """The card to tap, and the place to tap once it is picked up."""
    return f'button.sh-src[data-card="{card}"], button.sh-to[data-to="{target}"]'


GUIDE = Guide(
    deck=DECK,
    names=("You",),
    welcome="One player: bring all 52 cards home to the four foundations, each suit from ace to king.",
    steps=(
        GuideStep(move("t3", "c1"),
                  "The ace of clubs is stuck under the 2 of clubs in column 3. Park the 2 in a tower "
                  "(a free cell): tap the 2 of clubs, then the first cell. A cell holds any one card.",
                  pointing("2C", "c1")),
        GuideStep(move("t3", "f1"),
                  "Now the ace is free. Aces start the foundations: tap the ace of clubs, then the "
                  "first foundation.",
                  pointing("AC", "f1")),
        GuideStep(move("c1", "f1"),
                  "A foundation takes the next card of its suit. Bring the 2 of clubs home from its "
                  "cell: tap it, then the foundation.",
                  pointing("2C", "f1")),
        GuideStep(move("t3", "f1"),
                  "The 3 of clubs follows the 2: tap it, then the foundation.",
                  pointing("3C", "f1")),
        GuideStep(move("t3", "t8"),
                  "Columns build down in the same suit: the queen of hearts may go on the king of "
                  "hearts at the foot of column 8. Tap the queen, then column 8.",
                  pointing("QH", "t8")),
        GuideStep(move("t3", "f1"),
                  "Send the 4 of clubs home too: column 3 will be empty.",
                  pointing("4C", "f1")),
        GuideStep(move("t10", "t3"),
                  "Only a king may go into an empty column. Move the king of spades there, and the "
                  "10 of spades under it is free: tap the king, then column 3.",
                  pointing("KS", "t3")),
    ),
    farewell="That is every kind of move. Now bring the cards home: the clubs from column 1, then the "
             "diamonds, hearts and spades. When you are stuck, Hint shows a good move, and Undo takes "
             "one back.",
)

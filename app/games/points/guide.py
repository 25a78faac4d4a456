"""Points Rummy's guided first game: one deal against the computer player, dealt from a known
deck (P2: thirteen cards each, one at a time, the learner first; then the wild joker indicator
9S, so the nines are jokers; then the open pile's 7S; then the closed deck). The learner takes
7S from the open pile (P4.1), groups 7C 7D 7S (a set, P3.3), discards KS (P4.2); the computer
draws and discards; the learner draws 4H from the closed deck, groups AH 2H 3H 4H and QD KD AD
(pure sequences, P3.1) and 5C 6C 9H (the wild 9H stands in for 7C: an impure sequence, P3.2),
and declares with 8H as the finish card (P5.1): a valid declaration wins the deal (P5.2). Drop
(P4.3) is explained at the first step, not taken."""

from __future__ import annotations

from app.core.guides import Guide, GuideStep

DECK = tuple("""AH 2C 2H 3D 3H 4S QD 6D KD 8C
AD TC 5C JS 6C 2S 9H 3S KS 5H
7D TD 7C JD 8H KC 9S 7S AC 4H
8D 3C 6H 6S 9C TH JC 5D QH JK
8S 9D TS 4C QS 7H AS 2D 4D JH
5S QC KH""".split())  # top of the deck first


def cards(*ids: str) -> str:
    """The hand's cards to select, in order."""
    return ", ".join(f'label[data-card="{id_}"]' for id_ in ids)


GROUP = ', #arrange-group'

GUIDE = Guide(
    deck=DECK,
    names=("You", "AI"),
    options={"deals": 1},
    welcome="One deal against the computer: arrange all your cards in groups (sequences and sets), "
            "then declare. The nines are jokers in this deal: a joker stands in for any card.",
    steps=(
        GuideStep({"action": "draw", "source": "open"},
                  "Each turn starts with a draw, from the closed deck or the open pile. (Before drawing "
                  "you could also Drop: give up the deal for 20 points, when your cards look hopeless. "
                  "Yours are good.) The 7 of spades on the open pile makes a set with your 7s: tap "
                  "the open pile.",
                  'button[value="draw|source=open"]'),
        GuideStep({"action": "group", "cards": ["7C", "7D", "7S"]},
                  "Three 7s of different suits are a set. Arrange them together: select the 7 of "
                  "clubs, diamonds and spades, then tap the button that makes a new group.",
                  cards("7C", "7D", "7S") + GROUP),
        GuideStep({"action": "discard", "cards": ["KS"]},
                  "A turn ends with a discard. The king of spades fits nothing: select it, then tap "
                  "Discard.",
                  cards("KS") + ', button[value="discard"]'),
        GuideStep({"action": "draw", "source": "closed"},
                  "The computer's discard does not help you. Draw from the closed deck: tap it.",
                  'button[value="draw|source=closed"]'),
        GuideStep({"action": "group", "cards": ["AH", "2H", "3H", "4H"]},
                  "The 4 of hearts completes a pure sequence: ace, 2, 3, 4 of hearts, one suit in a "
                  "row with no joker. You need at least one pure sequence. Select them and make a group.",
                  cards("AH", "2H", "3H", "4H") + GROUP),
        GuideStep({"action": "group", "cards": ["QD", "KD", "AD"]},
                  "Queen, king and ace of diamonds are a second sequence (the ace goes high or low). "
                  "Select them and make a group.",
                  cards("QD", "KD", "AD") + GROUP),
        GuideStep({"action": "group", "cards": ["5C", "6C", "9H"]},
                  "The 9 of hearts is a joker: with the 5 and 6 of clubs it stands in for the 7 of "
                  "clubs, an impure sequence. Select the three and make a group.",
                  cards("5C", "6C", "9H") + GROUP),
        GuideStep({"action": "declare", "finish": "8H"},
                  "Every card but the 8 of hearts is in a group: two sequences or more, one of them "
                  "pure. Declare, with the 8 of hearts as the finish card: you win the deal.",
                  'button[value="declare|finish=8H"]'),
    ),
    farewell="You declared and won the deal: the computer scores the points of its cards outside "
             "groups, against it. That is a whole deal of Points Rummy.",
)

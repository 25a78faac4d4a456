"""21's guided first game: two rounds against the dealer, dealt from a known deck (T2.1: the
player, the dealer face up, the player, the dealer face down, then the hits). Round 1: 5 and 6
(11) against the dealer's 9; a hit gives the 8 (19), the player stays, and the dealer turns
over 7 (16), must hit (T4.1) and goes bust with the 10. Round 2: 10 and 9 (19) against the
dealer's 4; the player stays, the dealer reaches 17 and stays (T4.1): 19 wins."""

from __future__ import annotations

from app.core.guides import Guide, GuideStep

DECK = tuple(("5S 9C 6H 7D 8D TC TH 4C 9H 8S 5D 2C 3C 4D 6D 7C 8C 9D TD JC QC KC AC JD QD KD AD "
              "2H 3H 4H 5H 7H 8H JH QH KH AH 2S 3S 4S 6S 7S 9S TS JS QS KS AS 2D 3D 5C 6C").split())

GUIDE = Guide(
    deck=DECK,
    names=("You",),
    options={"rounds": 2},
    welcome="Two short rounds against the dealer. Come closer to 21 than the dealer without going over.",
    steps=(
        GuideStep({"action": "hit"},
                  "You hold 5 and 6: 11. No card can take you over 21, so take another card: tap Hit.",
                  'button[value="hit"]'),
        GuideStep({"action": "stay"},
                  "19 is a strong hand: another card would probably take you over 21. Tap Stay; then the "
                  "dealer turns over the hidden card and must take cards while at 16 or less.",
                  'button[value="stay"]'),
        GuideStep({"action": "deal"},
                  "The dealer had 16, had to take a card and went over 21: you won the round. "
                  "Tap the button that deals the next round.",
                  'button[value="deal"]', seat=None),
        GuideStep({"action": "stay"},
                  "10 and 9 make 19 against the dealer's 4. Stay, and let the dealer draw: "
                  "the dealer must stop at 17 or more.",
                  'button[value="stay"]'),
    ),
    farewell="The dealer stopped at 17, and your 19 won. That is all of 21: hit while a card is "
             "likely to help, stay when it is likely to take you over.",
)

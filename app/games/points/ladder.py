"""How Points Rummy's computer players measured against each other, as data for the pages to show
("beats normal in 62 games of 100").

Measured by ``bench/strength_ladder.py --game points --games 1000 --seed 1``: two seats, each
pairing over the 1,000 shuffled deals ``"1/0"`` to ``"1/999"`` (one deal a game, the default,
P6.1), each deal played twice with the players in both seats, so 2,000 games a pairing. A
player's ``share`` counts its wins (a tie half) over the games; ``low`` and ``high`` are the
Wilson 95% interval of the share. ``baseline`` is the random discarder (P7.3)."""

from __future__ import annotations

from typing import Any

from app.core.protocol import EASY, NORMAL, STRONG, Measured

BASELINE = "baseline"

LADDER: tuple[dict[str, Any], ...] = (
    {"player": STRONG, "against": NORMAL, "games": 2000, "won": 1248, "lost": 752, "tied": 0,
     "share": 0.624, "low": 0.603, "high": 0.645},
    {"player": NORMAL, "against": EASY, "games": 2000, "won": 1700, "lost": 300, "tied": 0,
     "share": 0.850, "low": 0.834, "high": 0.865},
    {"player": EASY, "against": BASELINE, "games": 2000, "won": 1763, "lost": 237, "tied": 0,
     "share": 0.881, "low": 0.867, "high": 0.895},
)


def in_words(strength: str) -> str | None:
    """How the player of ``strength`` fares against the next one down the ladder, in words
    ("beats normal in 62 games of 100"); None for a strength measured against none."""
    for pairing in LADDER:
        if pairing["player"] == strength:
            against = "random play" if pairing["against"] == BASELINE else pairing["against"]
            return f"beats {against} in {round(100 * pairing['share'])} games of 100"
    return None


def measured() -> dict[str, Measured]:
    """The ladder as the definition's ``measured``: each strength against the next one down, for
    the set-up form's line beside each choice ("beats normal in 5 of 8 games")."""
    return {pairing["player"]: Measured(pairing["games"], pairing["share"],
                                        "random play" if pairing["against"] == BASELINE else pairing["against"])
            for pairing in LADDER}

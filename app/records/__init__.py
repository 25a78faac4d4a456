"""What the house keeps of finished games, long-term, as each game's definition says
(``score_keeping``): the game's own score table (``score_table``, with its file), or per-name
statistics (``statistics``). The rest of the house records results and asks for names here,
never per game."""

from __future__ import annotations

from ..core.protocol import SCORE_TABLE, GameDefinition, SeatResult
from . import score_table, statistics


def keeps_score_table(definition: GameDefinition) -> bool:
    return definition.score_keeping == SCORE_TABLE


def record_results(definition: GameDefinition, results: list[SeatResult], seconds: int | None = None) -> None:
    """A finished game's results, inside the caller's transaction. Every seated name gets a row;
    computer seats all count on the one ``AI`` row. ``seconds``: how long the game was played
    (its timed statistics), if known."""
    if keeps_score_table(definition):
        score_table.record_results(results)
    else:
        statistics.record_results(definition, results, seconds)


def after_results(definition: GameDefinition) -> None:
    """After the commit of results: the score table's file follows (in the background)."""
    if keeps_score_table(definition):
        from . import scores_file

        scores_file.mark_stale()


def known_names(definition: GameDefinition, limit: int = 200) -> list[str]:
    """Names that have played ``definition``'s game (the first ``limit`` by name), for a set-up
    form to offer."""
    if keeps_score_table(definition):
        return score_table.names(limit=limit)[0]
    return statistics.names(definition, limit)

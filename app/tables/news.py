"""What happened at the tables, told after the transaction that made it commits.

A table's command runs as one transaction (``command``); what it sets off is noted on the way
(``tell``) and sent once the transaction has committed, never if it rolled back. The tables know
nothing of who listens: the app's factory connects the listeners (``create_app``):

- ``position_reached`` (record, state, address): a game stands somewhere new, which its
  game may ask a question about (a solver's verdict: asked off the request path);
- ``game_finished`` (definition, slug): a game ended; its results are recorded after the
  commit (``records``), and whatever follows them (the score table's file).

A game's new version is told by the store itself, with the transaction that writes it:
``store.game_changed``, which the live streams hear when it commits.

A listener that fails is logged, not raised: the change is committed, and every effect has a
way to catch up (a page asks its solver question again, a server starting records results
that were not recorded).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from blinker import Namespace, NamedSignal

from ..extensions import db

log = logging.getLogger(__name__)

signals = Namespace()
position_reached: NamedSignal = signals.signal("position-reached")
game_finished: NamedSignal = signals.signal("game-finished")

PENDING = "card_table_news"  # the news of the session's transaction, sent once it commits


def tell(signal: NamedSignal, sender: Any, **data: Any) -> None:
    """Send ``signal`` once the current transaction commits (at once if none is open)."""
    session = db.session()
    if not session.in_transaction():
        send(signal, sender, data)
        return
    session.info.setdefault(PENDING, []).append((signal, sender, data))


def send(signal: NamedSignal, sender: Any, data: dict[str, Any]) -> None:
    try:
        signal.send(sender, **data)
    except Exception:
        log.exception("after a committed change, %s failed", signal.name)


def send_pending() -> None:
    """Send the news of the transaction that just committed (``command`` calls it)."""
    pending = db.session().info.pop(PENDING, [])
    for signal, sender, data in pending:
        send(signal, sender, data)


def forget_pending() -> None:
    db.session().info.pop(PENDING, None)


P = ParamSpec("P")
R = TypeVar("R")


def command(function: Callable[P, R]) -> Callable[P, R]:
    """A table command: one transaction, rolled back whole if the command raises (a refusal, a
    stale form, a failure; the error goes on to whoever answers it), and its news sent after the
    commit. The command commits what it writes itself (``store.save_game`` and the like); a
    command called inside another is part of it, and its news wait for the outer one."""

    @functools.wraps(function)
    def in_one_transaction(*args: P.args, **kwargs: P.kwargs) -> R:
        session = db.session()
        outer = session.info.get(RUNNING, 0) == 0
        session.info[RUNNING] = session.info.get(RUNNING, 0) + 1
        try:
            result = function(*args, **kwargs)
        except BaseException:
            db.session.rollback()
            forget_pending()
            raise
        finally:
            session.info[RUNNING] -= 1
        if outer:
            if session.in_transaction() and session.info.get(PENDING):
                session.commit()  # (a read the command left open: nothing to write)
            send_pending()
        return result

    return in_one_transaction


RUNNING = "card_table_commands"  # how many commands are running in the session (nested ones)

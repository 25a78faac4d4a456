"""A blocking system call (``os.fsync`` of a file the size of a 30,000-row scores.csv) would stop
a gevent worker's event loop for as long as the disk takes: run it in gevent's thread pool
instead, where it waits without holding the interpreter (the call releases it), and the worker
goes on serving. Outside a gevent worker (tests, the command line) it is a plain call.

Not for pure-Python work: a thread busy in Python makes the event loop's thread wait for its turn
(up to the interpreter's switch interval) at every blocking call it makes, which slows every
request more than the work itself; such work runs in slices instead (app/records/score_import.py)."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

T = TypeVar("T")


def off_the_event_loop(work: Callable[..., T], *args: Any) -> T:
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a serving requirement
        return work(*args)
    if not monkey.is_module_patched("threading"):
        return work(*args)
    import gevent

    return gevent.get_hub().threadpool.apply(work, args)


def let_others_run() -> None:
    """A pause between two slices of a long piece of work, in which a gevent worker serves its
    other requests. A timer of a millisecond, not ``sleep(0)``: gevent runs zero-second sleeps as
    callbacks, one after another, before it polls the network again, so a loop of them would
    keep new requests waiting (for 50 slices at a time). Outside a gevent worker: nothing."""
    if _patched():
        import gevent

        gevent.sleep(0.001)


def _patched() -> bool:
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover
        return False
    return monkey.is_module_patched("threading")

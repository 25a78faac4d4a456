"""Pure-Python work too long to run between a gevent worker's other requests (parsing and
comparing a 30,000-row scores.csv): run it in gevent's thread pool, so the worker's event loop
goes on serving while it runs (the interpreter switches threads every few milliseconds). Outside
a gevent worker (tests, the command line) it is a plain call."""

from __future__ import annotations

from typing import Callable, TypeVar

T = TypeVar("T")


def off_the_event_loop(work: Callable[..., T], *args) -> T:
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a serving requirement
        return work(*args)
    if not monkey.is_module_patched("threading"):
        return work(*args)
    import gevent

    return gevent.get_hub().threadpool.apply(work, args)

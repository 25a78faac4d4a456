"""gunicorn's settings file for ``python -m app.serving.serve`` (``--config python:app.serving.gunicorn_config``):
the "ready" line is printed by the first worker once it has loaded the app and is about to
serve - the listening socket exists since before it started - never before. Each worker also
says so if psycopg would wait on PostgreSQL without letting gevent run the worker's other
requests (the live updates' listener waits on its connection all the time: app/web/events.py).
The master also keeps the job runner going (app/solving/supervisor.py): the work no request may
wait for (a solver's verdicts, computer players that think long) runs there, not in a worker."""

from __future__ import annotations

import gc
import signal
import sys
from typing import Protocol

from app.settings import PROJECT_ROOT
from app.solving import supervisor
from config import setting

# The table is stopped with Ctrl+C or a signal; a control socket would be one path shared by every
# server on the computer (~/.gunicorn/gunicorn.ctl), each taking it from the last.
control_socket_disable = True


class Master(Protocol):
    """What these hooks use of gunicorn's master process (its ``Arbiter``)."""

    log: supervisor.Log


class Worker(Protocol):
    """What these hooks use of a gunicorn worker."""

    log: supervisor.Log
    age: int  # 1 for the server's first worker


def when_ready(server: Master) -> None:
    supervisor.start(server.log, PROJECT_ROOT)


def on_exit(server: Master) -> None:
    supervisor.stop()


def post_worker_init(worker: Worker) -> None:
    # Ctrl+C in `make run`'s terminal reaches every process of the group. The master then stops
    # the workers itself (SIGQUIT); a worker that also quit on its own SIGINT quit twice, and the
    # second quit printed a SystemExit traceback as the server stopped.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # What the worker loaded (its modules, the app and its settings) lives as long as the worker:
    # the cyclic collector's full collections walked all of it again, tens of milliseconds in
    # which the worker's every request and event stream waited (bench/worker_gc.py). Frozen, they
    # walk only what came after.
    gc.collect()
    gc.freeze()
    if psycopg_blocks_gevent():
        worker.log.warning("psycopg chose a wait that blocks the gevent worker (it was imported before gevent "
                           "patched select): live updates on PostgreSQL would stall the worker's requests")
    if worker.age == 1:  # the server's first worker (a worker started again later says nothing)
        message = setting("READY_MESSAGE")
        if message:
            print(message, flush=True)


def psycopg_blocks_gevent() -> bool:
    """Whether gevent patched ``select`` but psycopg (already imported) waits in C all the same."""
    waiting, monkey = sys.modules.get("psycopg.waiting"), sys.modules.get("gevent.monkey")
    if waiting is None or monkey is None or not monkey.is_module_patched("select"):
        return False
    return waiting.wait is getattr(waiting, "wait_c", None)

"""gunicorn's settings file for ``python -m app.serve`` (``--config python:app.gunicorn_config``):
the "ready" line is printed by the first worker once it has loaded the app and is about to
serve - the listening socket exists since before it started - never before."""

from __future__ import annotations

from config import setting


def post_worker_init(worker) -> None:
    if worker.age == 1:  # the server's first worker (a worker started again later says nothing)
        message = setting("READY_MESSAGE")
        if message:
            print(message, flush=True)

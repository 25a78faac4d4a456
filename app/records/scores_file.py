"""``instance/scores.csv``: the server's own copy of the score table (Mason Rummy's R7.5).

A game's end must not cost more with a bigger table, so it does not write the file: it marks it
out of date, and a writer thread of the process (a greenlet under gunicorn's gevent workers)
rewrites it in the background - at once if the last write was over ``SCORES_FILE_SECONDS`` ago,
else when that time has passed, so game ends close together share one write. The file reflects
the table within moments of every change (and is rewritten when a server starts, in case it was
stopped before a write). The writing reads the table in chunks and pauses between them
(``score_table.chunks``), so no request waits behind it, and writes atomically (a temporary
file, then a rename). Writers of several processes take turns on a lock file and each writes
the table as it is once it holds the lock, so the file never goes back to an older table.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
import time

from flask import Flask

from ..core.terminal import write_atomically
from ..extensions import app_itself
from .offload import off_the_event_loop
from . import score_table

log = logging.getLogger(__name__)
EXTENSION = "card_table_scores_file"  # the app's writer, in app.extensions


def write_now(app: Flask | None = None) -> None:
    """Write the file from the table as it is now (in this thread; the CLI and the writer)."""
    app = app or app_itself()
    path = app.config["SCORES_CSV_PATH"]
    with app.app_context(), open(path + ".lock", "a") as lock:
        while True:  # (never block a gevent worker in flock: try, and pause between tries)
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                time.sleep(0.02)
        try:
            write_atomically(path, score_table.csv_chunks(), prefix=".scores-",
                             sync=lambda fd: off_the_event_loop(os.fsync, fd))
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


class Writer:
    """The background writer of one process."""

    RETRY_SECONDS = 1.0  # after a failed write, however short the interval

    def __init__(self, app: Flask):
        self.app = app
        self.interval = float(app.config["SCORES_FILE_SECONDS"])
        self.lock = threading.Lock()
        self.stale = False
        self.thread: threading.Thread | None = None
        self.last_write = float("-inf")
        self.idle = threading.Event()
        self.idle.set()
        self.stopped = False

    def mark_stale(self) -> None:
        with self.lock:
            self.stale = True
            self.idle.clear()
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="scores-file", daemon=True)
                self.thread.start()

    def _run(self) -> None:
        while True:
            with self.lock:
                if not self.stale or self.stopped:
                    self.thread = None
                    self.idle.set()
                    return
            pause = self.last_write + self.interval - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            with self.lock:
                self.stale = False  # changes from now on need another write
            try:
                write_now(self.app)
            except Exception:  # a full disk, a database restarting: try again after a pause
                log.exception("writing scores.csv failed")
                with self.lock:
                    self.stale = True
                time.sleep(self.RETRY_SECONDS)
            self.last_write = time.monotonic()

    def wait(self, timeout: float) -> bool:
        """Until the file is up to date (for tests and for a clean stop); False on timeout."""
        return self.idle.wait(timeout)

    def stop(self, timeout: float) -> None:
        """Write what is pending (``timeout`` at most), then write no more: the app is going away
        (its database too, in the tests)."""
        self.wait(timeout)
        with self.lock:
            self.stopped = True


def writer(app: Flask | None = None) -> Writer:
    app = app or app_itself()
    existing: Writer | None = app.extensions.get(EXTENSION)
    if existing is None:
        existing = app.extensions[EXTENSION] = Writer(app)
    return existing


def mark_stale(app: Flask | None = None) -> None:
    """The score table changed (a game ended, an import): the file follows in the background."""
    writer(app).mark_stale()


def wait_until_written(app: Flask | None = None, timeout: float = 10.0) -> bool:
    return writer(app).wait(timeout)

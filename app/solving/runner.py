"""The job runner: one process per server (``python -m app.solving``, started by the gunicorn
master of `make run`: ``supervisor``), doing the work written down in ``analyses`` one row at a
time, in priority order: a question (worked out by its game's ``Analyst``, at most
``SOLVER_SLICE`` positions at a time and ``SOLVER_BUDGET`` in all), a computer player's turns
(a bot that plays off the request path), or an exported game's file to check (replayed
through its rules: 20,000 actions take seconds).

A row is claimed in a short write transaction (``SKIP LOCKED`` on PostgreSQL, so each runner of
every server takes a different one), worked on with no transaction open, and its answer stored
in another; the games waiting for it are then told (``events.announce``). A row claimed by a
runner that died (its pid gone on this machine, or its claim older than
``SOLVER_STALE_SECONDS``: another server's) is claimed again.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from flask import Flask

from config import Config, setting

from .. import store
from ..core import registry
from ..factory import create_app
from ..core.protocol import OverBudget
from ..extensions import db
from ..store.models import ANSWERED, IMPORT, TOO_HARD, TURN, WAITING, WORKING, Analysis, utcnow
from . import signals
from .bell import Listener

log = logging.getLogger("app.solving")


@dataclass
class Job:
    id: int
    key: str
    kind: str
    game: str
    data: dict[str, Any]
    spent: int
    priority: int


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Runner:
    def __init__(self, app: Flask, name: str | None = None):
        self.app = app
        self.host = socket.gethostname()[:60]
        self.name = name or f"{self.host}:{os.getpid()}"
        self.config = app.config
        self.next_reclaim = 0.0  # (at once: a runner starting again takes back what its predecessor held)

    # -- claiming ---------------------------------------------------------------------------------------

    def _gone(self, claimed_by: str | None, claimed_at: datetime | None, now: datetime) -> bool:
        if claimed_at is None or claimed_at < now - timedelta(seconds=self.config["SOLVER_STALE_SECONDS"]):
            return True
        host, _, pid = (claimed_by or "").rpartition(":")
        return host == self.host and pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid))

    def _reclaim(self) -> None:
        """Rows a dead runner was working on go back to the queue."""
        now = utcnow()
        working = db.session.execute(sa.select(Analysis.id, Analysis.claimed_by, Analysis.claimed_at)
                                     .where(Analysis.status == WORKING)).all()
        gone = [row.id for row in working if self._gone(row.claimed_by, row.claimed_at, now)]
        db.session.rollback()
        if gone:
            store.begin_write()
            db.session.execute(sa.update(Analysis).where(Analysis.id.in_(gone), Analysis.status == WORKING)
                               .values(status=WAITING, claimed_by=None, claimed_at=None))
            db.session.commit()
            log.warning("job runner: %d job(s) of a runner that stopped are back in the queue", len(gone))

    def claim(self) -> Job | None:
        """The first waiting row, now this runner's; None if nothing waits."""
        if time.monotonic() >= self.next_reclaim:
            self.next_reclaim = time.monotonic() + self.config["SOLVER_STALE_SECONDS"] / 2
            self._reclaim()
        waiting = db.session.scalar(sa.select(Analysis.id).where(Analysis.status == WAITING).limit(1))
        db.session.rollback()
        if waiting is None:
            return None  # (looked without taking the write lock)
        store.begin_write()
        query = (sa.select(Analysis).where(Analysis.status == WAITING)
                 .order_by(Analysis.priority, Analysis.id).limit(1))
        if db.engine.dialect.name == "postgresql":
            query = query.with_for_update(skip_locked=True)
        row = db.session.scalar(query)
        if row is None:
            db.session.commit()
            return None
        row.status, row.claimed_by, row.claimed_at = WORKING, self.name, utcnow()
        job = Job(row.id, row.key, row.kind, row.game, json.loads(row.question or "{}"), row.spent, row.priority)
        db.session.commit()
        return job

    # -- working -------------------------------------------------------------------------------------------

    def work_once(self) -> bool:
        """Do one job; False if there was none."""
        with self.app.app_context():
            try:
                job = self.claim()
                if job is None:
                    return False
                if job.kind == TURN:
                    self.play_turns(job)
                elif job.kind == IMPORT:
                    self.check_import(job)
                else:
                    self.answer(job)
                return True
            finally:
                db.session.remove()

    def answer(self, job: Job) -> None:
        budget_left = self.config["SOLVER_BUDGET"] - job.spent
        budget = max(1, min(self.config["SOLVER_SLICE"], budget_left))
        started = time.monotonic()
        try:
            analyst = registry.get(job.game).analyst
            if analyst is None:
                raise ValueError(f"{job.game} asks no questions")
            answer = analyst.answer(job.data, budget)
        except OverBudget:
            spent = job.spent + budget
            if spent >= self.config["SOLVER_BUDGET"]:
                log.info("job runner: %s is too hard (%d positions)", job.key, spent)
                self.store(job, TOO_HARD, None, spent)
            else:  # behind the others, carrying on later (the solver's memo keeps what it found)
                self.store(job, WAITING, None, spent, priority=job.priority + 1)
            return
        except Exception as error:  # a question its game cannot read: never asked again, never a crash
            log.exception("job runner: %s cannot be answered", job.key)
            self.store(job, TOO_HARD, {"error": str(error)[:200]}, job.spent)
            return
        log.debug("job runner: %s answered in %.3f s", job.key, time.monotonic() - started)
        self.store(job, ANSWERED, answer, job.spent)

    def store(self, job: Job, status: str, answer: dict[str, Any] | None, spent: int, priority: int | None = None) -> None:
        store.begin_write()
        row = db.session.get(Analysis, job.id)
        if row is None or row.claimed_by != self.name or row.status != WORKING:
            db.session.rollback()  # claimed again meanwhile (this runner looked dead): the other one answers
            return
        row.status, row.spent, row.claimed_by, row.claimed_at = status, spent, None, None
        if priority is not None:
            row.priority = priority
        if status != WAITING:
            row.answer = json.dumps(answer, separators=(",", ":")) if answer is not None else None
            row.question = None
            row.answered_at = utcnow()
        told = row.waiting_games.split() if status != WAITING else []
        db.session.commit()
        self.tell(told, job.key)

    def tell(self, slugs: list[str], key: str) -> None:
        for slug in slugs:
            try:
                signals.answered.send(slug, key=key)
            except Exception:  # the answer is kept: a page loaded later shows it
                log.exception("job runner: telling game %s failed", slug)

    # -- computer players off the request path --------------------------------------------------

    def play_turns(self, job: Job) -> None:
        """The computer's turns of a game whose bot plays off the request path: its table plays
        them (``signals.turn_due``), then the job is done."""
        signals.turn_due.send(job.data.get("slug", ""))
        store.begin_write()  # (a turn that failed leaves its job to be claimed again)
        db.session.execute(sa.delete(Analysis).where(Analysis.id == job.id))
        db.session.commit()

    # -- exported games to import ------------------------------------------------------------------

    def check_import(self, job: Job) -> None:
        """An exported game's file, replayed through its rules and stored if they accept it: the
        tables do it (``signals.import_due``), and their verdict is kept as the job's answer."""
        verdicts = [verdict for _listener, verdict in signals.import_due.send(job.key, file=job.data.get("file", ""))
                    if verdict is not None]
        self.store(job, ANSWERED, verdicts[0] if verdicts else {"refused": "Nothing here checks imported games."},
                   job.spent)

    # -- the process --------------------------------------------------------------------------------------

    def run_forever(self, parent: int) -> None:
        """Work until process ``parent`` (the server's master) is no longer this one's parent."""
        listener = Listener(self.app)
        poll = self.config["SOLVER_POLL_SECONDS"]
        log.info("job runner %s: working", self.name)
        while os.getppid() == parent:  # (the server that started it is gone: so is the runner)
            try:
                if self.work_once():
                    continue
            except Exception:  # the database restarting, say: look again after a pause
                log.exception("job runner: a job failed")
                time.sleep(1.0)
            listener.wait(poll)


def run_until_idle(app: Flask, limit: int = 10_000) -> int:
    """Do every job waiting (the tests' runner, in their process); how many were done."""
    runner = Runner(app, name=f"{socket.gethostname()[:60]}:{os.getpid()}")
    done = 0
    while done < limit and runner.work_once():
        done += 1
    return done


def main() -> None:
    # The server's master says who it is: had it stopped while this process was starting, the
    # parent seen now would be whoever adopted the orphan, and the runner would outlive its server.
    keeper = setting("RUNNER_KEPT")
    parent = int(keeper) if keeper and keeper.isdigit() else os.getppid()
    logging.basicConfig(level=logging.INFO, format="[job runner %(process)d] %(levelname)s %(message)s")
    if keeper:
        # Ctrl+C in `make run`'s terminal reaches this process too; the server stops it when it
        # stops (supervisor.py), rather than starting it again as if it had died.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    for prefix in ("CARD_TABLE_", "MASON_"):  # not a web worker: no scores.csv writer, no `flask db`
        os.environ.pop(prefix + "SERVING", None)
    try:
        os.nice(Config.SOLVER_NICE)  # requests first on a busy machine
    except OSError:
        pass
    app = create_app(DATABASE_COMMANDS=False)
    Runner(app).run_forever(parent)

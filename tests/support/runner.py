"""The job runner (app/solving) for tests that drive the app through Flask's test client: the
same ``Runner`` that `make run`'s runner process runs, working in a thread of the test's process
(live servers run the real process: support/live.py). ``settle()`` waits until nothing waits."""

from __future__ import annotations

import threading
import time

import sqlalchemy as sa


class RunnerThread:
    def __init__(self, app):
        from app.solving.runner import Runner

        self.app = app
        self.runner = Runner(app, name=f"test-runner:{threading.get_ident()}")
        self.stopping = threading.Event()
        self.busy = threading.Event()
        self.failures: list[BaseException] = []
        self.thread = threading.Thread(target=self._run, name="test-job-runner", daemon=True)

    def start(self) -> "RunnerThread":
        self.thread.start()
        return self

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:
                worked = self.runner.work_once()
            except BaseException as error:  # kept for the test to see
                self.failures.append(error)
                worked = False
            if not worked:
                self.stopping.wait(0.01)

    def pending(self) -> int:
        from app.extensions import db
        from app.store.models import WAITING, WORKING, Analysis

        with self.app.app_context():
            try:
                return db.session.scalar(sa.select(sa.func.count()).select_from(Analysis)
                                         .where(Analysis.status.in_([WAITING, WORKING])))
            finally:
                db.session.remove()

    def settle(self, timeout: float = 60.0) -> None:
        """Until every job written down is done (answered, too hard, or played)."""
        deadline = time.monotonic() + timeout
        while self.pending():
            assert not self.failures, self.failures
            if time.monotonic() > deadline:
                raise AssertionError(f"the job runner did not finish its work within {timeout} s")
            time.sleep(0.02)
        assert not self.failures, self.failures

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=30)

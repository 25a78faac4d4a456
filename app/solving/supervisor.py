"""The job runner's keeper, in the gunicorn master of `make run` (app/serving/gunicorn_config.py): it
starts ``SOLVER_PROCESSES`` runners (``python -m app.solving``) once the server is ready, starts
one again whenever it stops (after a pause that grows while it keeps stopping at once, up to 30
s), and stops them with the server. A gunicorn worker's death does not touch them, and a
runner's death loses no work: what it held goes back to the queue (runner.py)."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from typing import Protocol

from app.settings import SERVING_PYTHON
from config import Config

QUICK_DEATH_SECONDS = 10.0
RUNNER_COMMAND = (*SERVING_PYTHON, "-m", "app.solving")
# Tells a runner that a keeper stops it (runner.py leaves Ctrl+C to the keeper's server).
KEPT = "CARD_TABLE_RUNNER_KEPT"  # the keeper's process id: the runner lives as long as it does

# Popen waits for the exec on a close-on-exec pipe. A gunicorn worker forked by the master's main
# thread meanwhile would inherit the pipe's writing end and never exec, so that Popen would wait as
# long as the worker lives (and the runner's death would go unseen). A fork waits for a start.
_starting = threading.Lock()
os.register_at_fork(before=_starting.acquire, after_in_parent=_starting.release,
                    after_in_child=_starting.release)


class Log(Protocol):
    """What the keeper says through: a ``logging.Logger``, or gunicorn's master's logger."""

    def error(self, msg: str, *args: object) -> None: ...
    def warning(self, msg: str, *args: object) -> None: ...


class Supervisor:
    def __init__(self, log: Log, count: int, root: str, command: tuple[str, ...] = RUNNER_COMMAND):
        self.log = log
        self.command = list(command)
        self.count = count
        self.root = root
        self.stopping = threading.Event()
        self.processes: list[subprocess.Popen[bytes] | None] = [None] * count
        self.threads = [threading.Thread(target=self._keep, args=(number,), name=f"job-runner-{number}", daemon=True)
                        for number in range(count)]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def _keep(self, number: int) -> None:
        pause = 1.0
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                with _starting:
                    process = subprocess.Popen(self.command, cwd=self.root,
                                               env=dict(os.environ, **{KEPT: str(os.getpid())}))
            except OSError as error:
                self.log.error("the job runner cannot start: %s", error)
                self.stopping.wait(30.0)
                continue
            self.processes[number] = process
            status = process.wait()  # (the master may reap it first: then the status reads 0)
            if self.stopping.is_set():
                return
            quick = time.monotonic() - started < QUICK_DEATH_SECONDS
            pause = min(30.0, pause * 2) if quick else 1.0
            self.log.warning("the job runner (pid %s) stopped (status %s): starting it again in %.0f s",
                             process.pid, status, pause)
            self.stopping.wait(pause)

    def stop(self, timeout: float = 3.0) -> None:
        self.stopping.set()
        running = [process for process in self.processes if process is not None and process.poll() is None]
        for process in running:
            process.terminate()
        deadline = time.monotonic() + timeout
        for process in running:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()


_supervisor: Supervisor | None = None


def start(log: Log, root: str) -> None:
    global _supervisor
    count = Config.SOLVER_PROCESSES  # (config.py read it, and refused a value it cannot use)
    if count <= 0 or _supervisor is not None:
        return
    _supervisor = Supervisor(log, count, root)
    _supervisor.start()


def stop() -> None:
    global _supervisor
    if _supervisor is not None:
        _supervisor.stop()
        _supervisor = None

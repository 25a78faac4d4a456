"""The job runner's keeper (app/solving/supervisor.py) lives in the gunicorn master, whose main
thread forks workers whenever it likes: a runner started meanwhile must still be seen to start and
to stop, or the keeper would wait on it for as long as a worker lives. And a runner lives no
longer than the master that keeps it, however soon the master goes."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from app.solving.supervisor import Supervisor
from support.databases import migrate
from support.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]

SLEEPER = (sys.executable, "-c", "import time; time.sleep(120)")



def test_a_runner_started_while_the_master_forks_workers_is_kept(tmp_path):
    keeper = Supervisor(logging.getLogger("keeper"), 1, str(tmp_path), command=SLEEPER)
    forked: list[int] = []
    try:
        keeper.start()
        # forks that do not exec, like gunicorn's workers, all through the runner's start
        while keeper.processes[0] is None and len(forked) < 400:
            pid = os.fork()
            if pid == 0:
                time.sleep(120)
                os._exit(0)
            forked.append(pid)
        first = wait_for(lambda: keeper.processes[0], what="the runner's start")
        os.kill(first.pid, signal.SIGKILL)
        second = wait_for(lambda: keeper.processes[0] is not first and keeper.processes[0], what="a new runner")
        assert second.poll() is None and first.poll() is not None
    finally:
        keeper.stop()
        for pid in forked:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


# A master that starts the runner and is gone at once, before the runner has even loaded the app.
MASTER_GONE_AT_ONCE = """
import logging, os, time
from app.solving.supervisor import Supervisor
keeper = Supervisor(logging.getLogger("keeper"), 1, os.getcwd())
keeper.start()
while keeper.processes[0] is None:
    time.sleep(0.001)
with open(os.environ["RUNNER_PID_FILE"], "w") as found:
    found.write(str(keeper.processes[0].pid))
os._exit(0)
"""


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie nobody has reaped yet has stopped)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_runner_whose_master_is_gone_before_it_looked_stops_too(database_url, tmp_path):
    instance = tmp_path / "instance"
    migrate(database_url, instance)
    environment = dict(os.environ, DATABASE_URL=database_url, CARD_TABLE_INSTANCE=str(instance),
                       SOLVER_POLL_SECONDS="0.2")
    # (the runner writes where the master did: a pipe read to its end would wait for the runner)
    with open(tmp_path / "master.log", "wb") as log:
        subprocess.run([sys.executable, "-c", MASTER_GONE_AT_ONCE], cwd=ROOT, stdout=log, stderr=log,
                       env=dict(environment, RUNNER_PID_FILE=str(tmp_path / "runner.pid")), timeout=60, check=True)
    runner = int((tmp_path / "runner.pid").read_text())
    try:
        wait_for(lambda: not running(runner), what="the orphaned runner stopping")
    finally:
        if running(runner):
            os.kill(runner, signal.SIGKILL)

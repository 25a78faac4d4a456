"""The job runner's keeper (app/solving/supervisor.py) lives in the gunicorn master, whose main
thread forks workers whenever it likes: a runner started meanwhile must still be seen to start and
to stop, or the keeper would wait on it for as long as a worker lives."""

from __future__ import annotations

import logging
import os
import signal
import sys
import time

from app.solving.supervisor import Supervisor
from support.waiting import wait_for

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

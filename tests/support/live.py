"""A real server process for tests: the app as `make run` serves it (app.serve -> gunicorn with
gevent workers) on a free port, with its own instance folder and database."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADMIN_PASSWORD = "live-admin-password"


def free_port() -> int:
    """A free port below the kernel's ephemeral range: a port the kernel picked (bind to port 0)
    can be given to another test's outgoing connection before the server binds it."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as handle:
            ephemeral = int(handle.read().split()[0])
    except (OSError, ValueError, IndexError):
        ephemeral = 32768
    for _ in range(200):
        port = random.randrange(10000, max(ephemeral, 10001))
        with socket.socket() as probe:
            try:
                probe.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LiveServer:
    def __init__(self, instance: Path, database_url: str, decks_folder: Path, workers: int = 2,
                 env: dict | None = None):
        self.instance = Path(instance)
        self.instance.mkdir(parents=True, exist_ok=True)
        self.database_url = database_url
        self.decks_folder = decks_folder
        self.workers = workers
        self.extra_env = env or {}
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.log_path = self.instance / "server.log"
        self.admin_password = ADMIN_PASSWORD

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        env = dict(os.environ, PORT=str(self.port), WORKERS=str(self.workers),
                   MASON_INSTANCE=str(self.instance), DATABASE_URL=self.database_url,
                   DECKS_FOLDER=str(self.decks_folder), ADMIN_PASSWORD=ADMIN_PASSWORD,
                   EVENTS_MAX_SECONDS="60", MASON_PUBLIC_URL=f"http://127.0.0.1:{self.port}")
        env.update(self.extra_env)
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen([sys.executable, "-m", "app.serve"], cwd=ROOT, env=env,
                                        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if "already in use" in self.log()[-500:] and not getattr(self, "_moved", False):
                    self._moved = True  # another test took the port meanwhile: once more, on another
                    self.port = free_port()
                    self.start(timeout)
                    return
                raise RuntimeError(f"the server exited at start:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within {timeout}s:\n{self.log()}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-5000:]
        except OSError:
            return ""

    def _signal_group(self, sig: int) -> None:
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            pass

    def kill9(self) -> None:
        """Kill the whole server (master and workers) at once, as a power cut of the process."""
        if self.process is not None:
            self._signal_group(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        self._signal_group(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._signal_group(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

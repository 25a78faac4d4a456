"""The one launcher of real server processes, for the live tests and the benchmarks: the app as
`make run` serves it (``python -m app.serving.serve`` -> gunicorn with gevent workers) on a free port,
with its own instance folder and database.

Tests give it a migrated database (the ``live_server`` fixture); a benchmark gives none and gets
SQLite in a temporary instance folder, upgraded with ``flask db upgrade`` as the README does.
``root`` serves another checkout (the benchmarks measure an older version with the same client).
The master's and workers' pids, CPU time and memory come from /proc.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADMIN_PASSWORD = "live-admin-password"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# Settings of the environment that would change the served app behind the launcher's back.
NOT_INHERITED = ("DATABASE_URL", "SECRET_KEY", "GUNICORN_CMD_ARGS")


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


def process_table() -> list[tuple[int, str, int, int]]:
    """Every process of the machine as /proc says: (pid, state, parent's pid, process group)."""
    table = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    state, parent, group = handle.read().rsplit(")", 1)[1].split()[:3]
            except (OSError, IndexError, ValueError):  # (gone meanwhile)
                continue
            table.append((int(entry), state, int(parent), int(group)))
    return table


def sample_decks(root: Path) -> Path:
    """A checkout's decks the tests and benchmarks play: ``tests/decks/`` (``decks/`` before they
    moved there)."""
    moved = root / "tests" / "decks"
    return moved if moved.is_dir() else root / "decks"


class LiveServer:
    """One server process group. ``instance``: its instance folder (None: a temporary one, removed
    by ``stop()``); ``database_url``: a migrated database (None: SQLite in the instance folder,
    upgraded by ``start()``); ``decks_folder``: the decks it offers (None: the checkout's tests'
    decks, ``tests/decks/``, or its ``decks/`` in a checkout from before they moved there);
    ``env``: more environment; ``access_log``: gunicorn logs every request to ``access_log``
    (True: in its default format; a string: in that format); ``events_max_seconds``: how long the
    server keeps one event stream open before the browser reconnects."""

    def __init__(self, instance: Path | str | None = None, database_url: str | None = None,
                 decks_folder: Path | str | None = None, workers: int = 2, env: dict | None = None, *,
                 root: Path | str = ROOT, access_log: bool | str = False, admin_password: str = ADMIN_PASSWORD,
                 events_max_seconds: int = 60, prefix: str = "card-table-live-"):
        self.root = Path(root)
        self.owns_instance = instance is None
        self.instance = Path(tempfile.mkdtemp(prefix=prefix) if instance is None else instance)
        self.instance.mkdir(parents=True, exist_ok=True)
        self.database = str(self.instance / "mason.db")  # the SQLite file when no database_url is given
        self.needs_upgrade = database_url is None
        self.database_url = database_url or f"sqlite:///{self.database}"
        self.decks_folder = Path(decks_folder) if decks_folder is not None else sample_decks(self.root)
        self.workers = workers
        self.admin_password = admin_password
        self.port = free_port()
        self.log_path = self.instance / "server.log"
        self.access_log = str(self.instance / "access.log")
        self.process: subprocess.Popen | None = None
        self.env = {key: value for key, value in os.environ.items() if key not in NOT_INHERITED}
        self.env.update(PORT=str(self.port), WORKERS=str(workers), DATABASE_URL=self.database_url,
                        DECKS_FOLDER=str(self.decks_folder), ADMIN_PASSWORD=admin_password,
                        EVENTS_MAX_SECONDS=str(events_max_seconds))
        for prefix in ("CARD_TABLE_", "MASON_"):  # (an older checkout, served by the benchmarks, reads MASON_)
            self.env.update({prefix + "INSTANCE": str(self.instance), prefix + "PUBLIC_URL": self.url})
        if access_log:
            self.env["GUNICORN_CMD_ARGS"] = f"--access-logfile {self.access_log}" + (
                f" --access-logformat '{access_log}'" if isinstance(access_log, str) else "")
        self.env.update(env or {})
        self._reader = None
        self.move_if_taken = True  # a port taken between free_port() and the start: try another, once

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def upgrade(self) -> None:
        """``flask db upgrade`` on the server's database, as `make run` does first; if it fails,
        its output says why."""
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "db", "upgrade"], cwd=self.root,
                              env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"the database upgrade failed (exit status {done.returncode}):\n{done.stdout[-3000:]}")
        self.needs_upgrade = False

    def start(self, timeout: float = 60.0, upgrade: bool | None = None) -> None:
        """Start the server and wait until it answers Menu A with every worker up. ``upgrade``:
        run the migrations first (by default: only the first time, for a database of its own)."""
        if upgrade if upgrade is not None else self.needs_upgrade:
            self.upgrade()
        self.needs_upgrade = False
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "app.serving.serve"], cwd=self.root, env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if "already in use" in self.log()[-500:] and self.move_if_taken:
                    self.move_if_taken = False  # another test took the port meanwhile: once more, on another
                    self.port = free_port()
                    self.env["PORT"] = str(self.port)
                    self.start(timeout)
                    return
                raise RuntimeError(f"the server exited at start:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    if response.status == 200 and len(self.worker_pids()) >= self.workers and (
                            self.runner_pids() or not self.has_runner):
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within {timeout}s:\n{self.log()}")

    def log(self) -> str:
        """The end of the server's log."""
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
            self._wait_until_group_gone(self.process.pid)
            self.process = None

    @staticmethod
    def _wait_until_group_gone(group: int, timeout: float = 10.0) -> None:
        """The master's end is not its workers': until the last one is gone the kernel keeps the
        listening socket, and a server started at once on the same port would find it taken."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not any(state != "Z" and in_group == group for _, state, _, in_group in process_table()):
                return
            time.sleep(0.05)

    def stop(self, remove: bool = True) -> None:
        """Stop the server (its whole process group); ``remove``: delete the instance folder too,
        if the launcher made it."""
        if self.process is not None:
            # SIGQUIT to the master: gunicorn's quick shutdown, as Ctrl+C in `make run`'s terminal.
            # A graceful one (SIGTERM) waits a second at least (a gevent worker looks whether to
            # stop once a second) and up to its graceful timeout for open event streams to end; a
            # test that is over needs neither, and a test pays a stop per server.
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=1.5)
            except subprocess.TimeoutExpired:
                pass
            self._signal_group(signal.SIGKILL)  # (what is left of the group: nothing, after a quick shutdown)
            self.process.wait(timeout=10)
            self._wait_until_group_gone(self.process.pid)
            self.process = None
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if remove and self.owns_instance:
            shutil.rmtree(self.instance, ignore_errors=True)

    def restart(self) -> None:
        self.stop(remove=False)
        self.start()

    # -- the stored games, read as a checker outside the server would ------------------------------

    @property
    def reader(self):
        """A read-only view of the server's database (support.databases.DatabaseReader)."""
        if self._reader is None:
            from support.databases import DatabaseReader

            self._reader = DatabaseReader(self.database_url)
        return self._reader

    def state(self, slug: str):
        """The game ``slug`` as stored now: its state, rebuilt by its game's definition."""
        return self.reader.game(slug).game()

    # -- /proc: the gunicorn master (app.serving.serve exec's into it) and its workers ------------------------

    def worker_pids(self) -> list[int]:
        """The gunicorn workers (the master's children but the job runner)."""
        runners = set(self.runner_pids())
        return [pid for pid in self.children() if pid not in runners]

    @property
    def has_runner(self) -> bool:
        """Whether the served checkout starts a job runner (an older one does not)."""
        return (self.root / "app" / "solving").is_dir() and self.env.get("SOLVER_PROCESSES", "1") != "0"

    def runner_pids(self) -> list[int]:
        """The job runner (``python -m app.solving``), which the master keeps going beside the
        workers (app/solving/supervisor.py)."""
        found = []
        for pid in self.children():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as handle:
                    if b"app.solving" in handle.read():
                        found.append(pid)
            except OSError:
                pass
        return found

    def children(self) -> list[int]:
        """The master's child processes."""
        if self.process is None:
            return []
        master = self.process.pid
        return sorted(pid for pid, _, parent, _ in process_table() if parent == master)

    def pids(self) -> list[int]:
        """The master, its workers and the job runner."""
        return [self.process.pid, *self.children()] if self.process else []

    def memory(self, field: str = "VmRSS", file: str = "status", pids: list[int] | None = None) -> list[int]:
        """Bytes of ``field`` (a line in kB of /proc/<pid>/<file>) of the master and of each worker,
        in that order (or of ``pids``): VmRSS from status by default; Pss from smaps_rollup splits
        shared pages."""
        found = []
        for pid in self.pids() if pids is None else pids:
            try:
                with open(f"/proc/{pid}/{file}") as handle:
                    found.append(sum(int(line.split()[1]) * 1024 for line in handle
                                     if line.startswith(field + ":")))
            except OSError:
                pass
        return found

    def rss(self) -> int:
        """Resident memory of the master and every worker, in bytes (VmRSS from /proc)."""
        return sum(self.memory())

    def cpu_seconds(self, master: bool = False) -> float:
        """User + system CPU seconds used so far by the workers (``master``: and the gunicorn
        master): unlike wall-clock figures, other processes on the machine hardly change it."""
        total = 0
        for pid in self.pids() if master else self.worker_pids():
            try:
                with open(f"/proc/{pid}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime
            except (OSError, IndexError, ValueError):
                pass
        return total / CLOCK_TICKS

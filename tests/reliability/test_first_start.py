"""A newcomer's first start:

1. `make run` installs what serving needs and nothing else: requirements.txt holds no test or
   benchmark tool, every import of the served app is covered by it, everything is pinned;
   `make test` adds requirements-dev.txt.
2. `make run` says ready only once the server answers, and says clearly when the port is taken.
3. The first start's hint is a command that works from the project folder (no `flask` on the
   PATH needed); the README says how to run the admin chores without a terminal.
4. The terminal game run from decks/ (as the README says) leaves nothing untracked there.
5. The README's simulator figures are what the commands printed beside them print; a bench
   tool whose server cannot start says why.
6. `make run`'s first start says in a few lines: the version, the database ready (migrated to
   the latest), the admin password made for it (once), and the addresses to open; no line of
   Alembic's for each migration.
"""

from __future__ import annotations

import ast
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from support.live import ADMIN_PASSWORD, free_port
from support.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
TEST_TOOLS = {"pytest", "pytest-xdist", "execnet", "hypothesis", "sortedcontainers", "playwright", "pyinstrument",
              "py-spy", "iniconfig", "pluggy", "pygments"}


def requirement_names(path: Path) -> dict[str, str]:
    """{normalised name: pinned line} of a requirements file (following -r)."""
    found = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r "):
            found.update(requirement_names(path.parent / line[3:].strip()))
            continue
        name = re.split(r"[=<>!~\[ ]", line, 1)[0]
        found[normalise(name)] = line
    return found


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


# -- 13 -------------------------------------------------------------------------------------------


def served_imports() -> set[str]:
    """Top-level modules the served app imports (app/, wsgi.py, config.py, migrations/)."""
    modules = set()
    paths = [*(ROOT / "app").rglob("*.py"), ROOT / "wsgi.py", ROOT / "config.py", *(ROOT / "migrations").rglob("*.py")]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    return modules - set(sys.stdlib_module_names) - {"app", "config", "wsgi"}


def requirements_of(distribution: str, seen: set[str]) -> None:
    """``distribution`` and what it requires (for this platform and Python), into ``seen``."""
    name = normalise(distribution)
    if name in seen:
        return
    seen.add(name)
    for line in metadata.requires(distribution) or []:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            requirements_of(requirement.name, seen)


def test_make_run_installs_only_what_serving_needs():
    serving = requirement_names(ROOT / "requirements.txt")
    everything = requirement_names(ROOT / "requirements-dev.txt")
    assert not TEST_TOOLS & set(serving), TEST_TOOLS & set(serving)
    assert TEST_TOOLS <= set(everything)
    assert set(serving) <= set(everything)
    for line in everything.values():
        assert "==" in line, f"not pinned: {line}"
    # everything the served app imports, and what that needs in turn, is in requirements.txt
    distributions = metadata.packages_distributions()
    needed: set[str] = set()
    for module in served_imports():
        assert module in distributions, f"{module} comes from no installed distribution"
        for distribution in distributions[module]:
            requirements_of(distribution, needed)
    missing = needed - set(serving) - {"mason-rummy"}
    assert missing == set(), f"served code needs {missing}, which requirements.txt leaves out"
    # `make run` installs requirements.txt alone; `make test` adds requirements-dev.txt
    run = subprocess.run(["make", "-n", "-B", "run"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    test = subprocess.run(["make", "-n", "-B", "test"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "-r requirements.txt" in run and "requirements-dev.txt" not in run, run
    assert "-r requirements-dev.txt" in test, test
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.count("make test") >= 2  # SQLite, then PostgreSQL
    quick_start = (ROOT / "README.md").read_text().split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    assert [line.split()[:2] for line in quick_start.strip().splitlines()] == [["make", "run"], ["make", "test"]]


# -- 14 -------------------------------------------------------------------------------------------


def serve(port: int, instance: Path, database_url: str, decks_folder: Path, workers: int = 1) -> subprocess.Popen:
    env = dict(os.environ, PORT=str(port), WORKERS=str(workers), MASON_INSTANCE=str(instance), DATABASE_URL=database_url,
               DECKS_FOLDER=str(decks_folder), ADMIN_PASSWORD=ADMIN_PASSWORD, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "app.serving.serve"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def stop(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, 15)
        process.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, 9)
        except ProcessLookupError:
            pass


def test_make_run_says_ready_only_when_the_server_answers(database_url, decks_folder, tmp_path):
    """The moment "is ready" is printed, the address answers (before, the line came before
    gunicorn had even started)."""
    port = free_port()
    process = serve(port, tmp_path / "instance", database_url, decks_folder)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    try:
        printed, deadline = [], time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=1)
            except queue.Empty:
                assert process.poll() is None, "the server stopped: " + "".join(printed)
                continue
            printed.append(line)
            if "is ready" in line:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
                    assert answer.status == 200  # at once: no retry
                break
        else:
            raise AssertionError("no ready line: " + "".join(printed))
    finally:
        stop(process)


def test_the_served_processes_leave_out_docstrings(live_server):
    """gunicorn's master, its workers and the job runner run on ``python -OO``
    (app.SERVING_PYTHON): no served process holds the docstrings (bench/README.md, memory)."""
    runners = wait_for(live_server.runner_pids, what="the job runner")
    workers = live_server.worker_pids()
    assert workers
    for pid in [live_server.process.pid, *workers, *runners]:
        arguments = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert arguments[1] == b"-OO", arguments


COMPILED_AHEAD = """
import importlib.util, os, sys
import wsgi  # what a served worker loads
stale = []
for module in list(sys.modules.values()):
    source = getattr(module, "__file__", None) or ""
    if source.endswith(".py"):
        compiled = importlib.util.cache_from_source(source)  # at this process's level: -OO's
        try:
            with open(compiled, "rb") as handle:
                stamp = int.from_bytes(handle.read(12)[8:12], "little")
        except OSError:
            stamp = None
        if stamp != int(os.stat(source).st_mtime) & 0xFFFFFFFF:
            stale.append(source)
print("\\n".join(stale))
"""


def test_every_module_a_server_loads_is_compiled_ahead():
    """`make run` and `make test` write, before serving, the bytecode of every module the served
    app loads at the level the server runs it (-OO; the Makefile's ``bytecode`` step), so that no
    server process compiles its modules again as it starts where Python writes no bytecode on
    import (PYTHONDONTWRITEBYTECODE): a start's CPU was 3.7 times as much (bench/server_start.py).
    Run `make bytecode` after changing the code, before this test alone."""
    done = subprocess.run([sys.executable, "-OO", "-c", COMPILED_AHEAD], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [], "compiled on every start:\n" + done.stdout


def test_ctrl_c_stops_the_server_quietly(database_url, decks_folder, tmp_path):
    """Ctrl+C in `make run`'s terminal (SIGINT to its whole process group: the master, the
    workers and the job runner) stops the server at once, saying so, with no traceback and no
    job runner started again. (A worker quit on its own SIGINT and again when the master stopped
    it, and the second quit printed SystemExit's traceback; the job runner printed
    KeyboardInterrupt's, and its keeper took it for a crash.)"""
    port = free_port()
    process = serve(port, tmp_path / "instance", database_url, decks_folder, workers=2)
    lines: queue.Queue = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True)
    reader.start()
    printed: list[str] = []
    try:
        deadline = time.monotonic() + 60
        while not any("is ready" in line for line in printed) and time.monotonic() < deadline:
            try:
                printed.append(lines.get(timeout=1))
            except queue.Empty:
                assert process.poll() is None, "the server stopped: " + "".join(printed)
        for _ in range(4):  # both workers most likely serve one
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
                assert answer.status == 200
        os.killpg(process.pid, signal.SIGINT)
        assert process.wait(timeout=20) == 0
    finally:
        stop(process)
    reader.join(timeout=10)
    while not lines.empty():
        printed.append(lines.get())
    stopping = "".join(printed).split("is ready", 1)[1]
    assert "Shutting down: Master" in stopping, stopping
    assert "Traceback" not in stopping and "SystemExit" not in stopping, stopping
    assert "starting it again" not in stopping, stopping


def first_start_env(tmp_path: Path, port: int, decks_folder: Path) -> dict[str, str]:
    """A first start's environment, as `make run` makes it: a new instance folder and SQLite
    database, no ADMIN_PASSWORD, the first start's summary asked for (the Makefile's run)."""
    env = dict(os.environ, PORT=str(port), WORKERS="1", MASON_INSTANCE=str(tmp_path / "instance"),
               DATABASE_URL=f"sqlite:///{tmp_path / 'first.db'}", DECKS_FOLDER=str(decks_folder),
               PYTHONUNBUFFERED="1", CARD_TABLE_FIRST_START_SUMMARY="1")
    env.pop("ADMIN_PASSWORD", None)
    env.pop("MASON_ADMIN_PASSWORD", None)
    env.pop("CARD_TABLE_ADMIN_PASSWORD", None)
    return env


def upgrade(env: dict[str, str]) -> list[str]:
    """`make run`'s first step (`flask --app wsgi upgrade`): what it prints, both streams."""
    flask = str(Path(sys.executable).parent / "flask")
    done = subprocess.run([flask, "--app", "wsgi", "upgrade"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout
    return done.stdout.splitlines()


def until_ready(env: dict[str, str]) -> list[str]:
    """`make run`'s second step, the server: what it prints until it says it is ready."""
    process = subprocess.Popen([sys.executable, "-m", "app.serving.serve"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    printed: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while not any("is ready" in line for line in printed) and time.monotonic() < deadline:
            try:
                printed.append(lines.get(timeout=1))
            except queue.Empty:
                assert process.poll() is None, "the server stopped: " + "".join(printed)
        assert any("is ready" in line for line in printed), "no ready line: " + "".join(printed)
        more = "".join(printed).split("is ready", 1)[1]
        while "Stop with Ctrl+C" not in more:  # (the ready message's second line)
            line = lines.get(timeout=30)
            printed.append(line)
            more += line
    finally:
        stop(process)
    return "".join(printed).splitlines()


def test_the_first_start_says_version_database_password_and_addresses_in_a_few_lines(tmp_path, decks_folder):
    from app.serving.version import version_text
    from app.store.credentials import check_admin_password

    port = free_port()
    env = first_start_env(tmp_path, port, decks_folder)
    first = upgrade(env)
    migrations = len(list((ROOT / "migrations" / "versions").glob("*.py")))
    assert first[0] == f"The card table {version_text()}", first
    assert first[1] == f"  Database ready: {env['DATABASE_URL']}, upgraded to the latest version ({migrations} migrations).", first
    assert first[2] == "  The card table's admin password (shown once; only its hash is kept):", first
    shown = re.fullmatch(r"      (\S+)", first[3])
    assert shown, first
    assert first[4].startswith("  To change it, run in") and first[5].strip().endswith("admin set-password"), first
    assert len(first) == 6, first
    text = "\n".join(first)
    assert "alembic" not in text.lower() and "INFO" not in text and "Running upgrade" not in text, text
    assert check_admin_password({}, env["MASON_INSTANCE"], shown.group(1))  # the password that works

    served = until_ready(env)
    said = [line for line in served if line.strip()]
    assert len(said) <= 8, served  # gunicorn's few lines, then the table's own
    assert shown.group(1) not in "\n".join(served) and "admin password" not in "\n".join(served)  # once
    ready = "\n".join(served).split("The card table is ready.", 1)[1]
    assert "Open http://" in ready and f"http://127.0.0.1:{port}" in ready, served

    # A later start: the database is at the latest version, and no password is shown again.
    again = upgrade(env)
    assert again == [f"The card table {version_text()}",
                     f"  Database ready: {env['DATABASE_URL']}, at the latest version."], again


def test_make_run_says_clearly_when_the_port_is_taken(database_url, decks_folder, tmp_path):
    taken = socket.socket()
    taken.bind(("0.0.0.0", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        process = serve(port, tmp_path / "instance", database_url, decks_folder)
        try:
            output, _ = process.communicate(timeout=60)
        finally:
            stop(process)
    finally:
        taken.close()
    assert process.returncode != 0
    assert f"Port {port} is already in use" in output and f"PORT={port + 1}" in output, output
    assert "is ready" not in output


# -- 15 -------------------------------------------------------------------------------------------


def test_the_first_start_hint_is_a_command_that_works(tmp_path):
    """The hint printed with the first password, run as printed from the project folder by a
    shell whose PATH does not know the project's .venv, changes the password."""
    instance = tmp_path / "instance"
    instance.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "MASON_INSTANCE": str(instance)}
    first = subprocess.run([sys.executable, "-c", "from app.store.credentials import ensure_admin_password as e; e(%r)" % str(instance)],
                           cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    lines = first.stderr.splitlines()
    hint = next(line.strip() for line in lines if "admin set-password" in line)
    assert "run in" in first.stderr and str(ROOT) in first.stderr
    password_file = tmp_path / "new-password.txt"
    password_file.write_text("a brand new password\n")
    database = tmp_path / "mason.db"
    env.update(DATABASE_URL=f"sqlite:///{database}")
    subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "db", "upgrade"], cwd=ROOT,
                   env=dict(env, PATH=os.environ["PATH"]), capture_output=True, check=True)
    changed = subprocess.run(f"{hint} --password-file {password_file}", shell=True, cwd=ROOT, env=env,
                             capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert changed.returncode == 0, changed.stdout + changed.stderr
    assert "The admin password was changed" in changed.stdout
    from app.store.credentials import check_admin_password

    assert check_admin_password({}, str(instance), "a brand new password")


def readme_block(heading: str) -> list[str]:
    section = (ROOT / "README.md").read_text().split(heading, 1)[1]
    return section.split("```sh", 1)[1].split("```", 1)[0].strip().splitlines()


@pytest.mark.slow  # (over 5 s: make test-fast leaves it out)
def test_the_readme_says_how_to_run_the_admin_chores_without_a_terminal(tmp_path, database_url):
    """Every command of the README's admin chores that asks nothing runs as written, with no
    terminal (standard input closed): export, import --yes, deck check, set-password
    --password-file."""
    commands = readme_block("## Admin chores from the command line")
    section = (ROOT / "README.md").read_text().split("## Admin chores from the command line", 1)[1].split("\n## ", 1)[0]
    assert "--yes" in section and "--password-file" in section and "ADMIN_PASSWORD" in section
    workdir = tmp_path / "chores"
    shutil.copytree(ROOT / "decks", workdir / "decks")
    shutil.copytree(ROOT / "tests" / "decks", workdir / "tests" / "decks")  # (the decks the README's check reads)
    (workdir / "new-password.txt").write_text("another good password\n")
    instance = tmp_path / "instance"
    instance.mkdir()
    flask = str(Path(sys.executable).parent / "flask")
    env = dict(os.environ, MASON_INSTANCE=str(instance), DATABASE_URL=database_url, PYTHONPATH=str(ROOT))
    env.pop("ADMIN_PASSWORD", None)
    ran = 0
    for line in commands:
        command = line.split("#", 1)[0].strip()
        if not command or ("import" in command and "--yes" not in command) or command.endswith("set-password"):
            continue  # these ask first: they need a terminal
        result = subprocess.run(command.replace(".venv/bin/flask", flask), shell=True, cwd=workdir, env=env,
                                capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
        assert result.returncode == 0, (command, result.stdout, result.stderr)
        ran += 1
    assert ran >= 4
    assert (workdir / "scores.csv").exists()


# -- 16 -------------------------------------------------------------------------------------------


def test_the_terminal_games_scores_file_in_decks_is_ignored_by_git():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", "decks/scores.csv"], cwd=ROOT)
    assert ignored.returncode == 0
    assert "cd decks && ../.venv/bin/python -m app.terminal" in (ROOT / "README.md").read_text()


# -- 17 -------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_readmes_simulator_figures_come_from_the_commands_beside_them():
    """Each README simulator command annotated with a figure prints that figure."""
    checked = 0
    for line in readme_block("## Simulating computer players"):
        command, _, note = line.partition("#")
        figure = re.search(r"wins (\d+\.\d)%", note)
        if not figure:
            continue
        arguments = command.split()
        assert arguments[:3] == [".venv/bin/python", "-m", "app.simulate"], line
        result = subprocess.run([sys.executable, *arguments[1:]], cwd=ROOT, capture_output=True, text=True, check=True)
        percent = re.escape(figure.group(1))
        if "strategy" in note:  # the strategy's seats against the baseline's
            printed = re.search(rf"^strategy[^\n]*, per seat: {percent}% wins", result.stdout, re.M)
        else:  # one seat: its own line (seat, wins, win%)
            printed = re.search(rf"^\s+1\s+\d+\s+{percent}\s", result.stdout, re.M)
        assert printed, (line, result.stdout)
        checked += 1
    assert checked >= 2
    text = (ROOT / "README.md").read_text().split("## Simulating computer players", 1)[1].split("\n## ", 1)[0]
    for figure in re.findall(r"(\d+\.\d)%", text):
        assert re.search(rf"wins {re.escape(figure)}%", text), f"{figure}% has no command beside it"


def test_a_bench_server_that_cannot_start_says_why(tmp_path):
    """bench/harness.py: a failing database upgrade and a server that exits both stop the
    benchmark with the error output, not a bare exit status."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import harness
    finally:
        sys.path.remove(str(ROOT / "bench"))
    broken = harness.bench_server(1, prefix="mason-broken-", env={"DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none"})
    try:
        with pytest.raises(RuntimeError) as stopped:
            broken.start()
        assert "upgrade failed" in str(stopped.value) and "127.0.0.1" in str(stopped.value), stopped.value
    finally:
        broken.stop()
    taken = socket.socket()
    taken.bind(("0.0.0.0", 0))
    taken.listen()
    server = harness.bench_server(1, prefix="mason-taken-")
    server.port = taken.getsockname()[1]
    server.env["PORT"] = str(server.port)
    server.move_if_taken = False
    try:
        with pytest.raises(RuntimeError) as stopped:
            server.start()
        assert "already in use" in str(stopped.value), stopped.value
    finally:
        server.stop()
        taken.close()

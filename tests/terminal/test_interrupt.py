"""Ctrl+C at a prompt of any game's terminal ends it as its end of input does: no traceback, and
status 0 (R9.1: nothing crashes; T6.5: every way 21 ends is status 0; S4.4, C8, Points alike).
Each game runs as a player starts it, in a real process on a pipe, and gets SIGINT once it waits
for its first answer."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

GAMES = {
    "mason": ["-m", "app.games.mason"],
    "rummy": ["-m", "app.games.rummy"],
    "twentyone": ["-m", "app.games.twentyone", "--shuffle", "--seed", "1"],
    "seahaven": ["-m", "app.games.seahaven", "--seed", "1"],
    "points": ["-m", "app.games.points", "--seed", "1"],
}


def reading_its_input(pid: int) -> bool:
    """Whether the process is blocked in read(2) on its standard input (file descriptor 0):
    Linux's /proc/<pid>/syscall starts with the call's number (0, read on x86-64; 63 on arm64)
    and its first argument."""
    try:
        with open(f"/proc/{pid}/syscall") as handle:
            fields = handle.read().split()
    except OSError:
        return False
    return len(fields) > 1 and fields[0] in ("0", "63") and fields[1] == "0x0"


def waiting_for_an_answer(process: subprocess.Popen, output: bytearray) -> None:
    """Until the program has written its first screen and waits in a read of its standard
    input (however slowly a loaded machine brought it there)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, bytes(output).decode(errors="replace")
        if output and reading_its_input(process.pid):
            return
        time.sleep(0.05)
    raise AssertionError("the program never waited for an answer")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_ctrl_c_at_a_prompt_ends_the_game_without_a_traceback(game, tmp_path):
    # The game starts with Ctrl+C's default action, as from a terminal: a suite started in the
    # background ignores SIGINT, and an ignored signal stays ignored in the processes it starts.
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen([sys.executable, *GAMES[game]], cwd=tmp_path, stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=dict(os.environ, PYTHONPATH=str(ROOT)))
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    output = bytearray()

    def read() -> None:
        while chunk := process.stdout.read1(4096):
            output.extend(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        waiting_for_an_answer(process, output)
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        reader.join(timeout=10)
        errors = process.stderr.read().decode(errors="replace")
    finally:
        if process.poll() is None:
            process.kill()
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors, errors
    assert process.returncode == 0, (process.returncode, errors)

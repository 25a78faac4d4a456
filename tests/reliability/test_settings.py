"""A setting the table cannot use stops it at start with what to set, never with a traceback: every
number config.py reads from the environment (app/settings.py), at `make run`'s first step (`flask
--app wsgi upgrade`) and when the server starts (`python -m app.serving.serve`, with its PORT and
WORKERS). The real commands, in processes of their own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.live import free_port

from app.settings import SettingError, number

ROOT = Path(__file__).resolve().parents[2]


def refused_saying(command: list[str], tmp_path: Path, name: str, value: str) -> str:
    """Run ``command`` with the setting ``name=value``: it must stop at once (exit 1) with a
    message and no traceback. The message."""
    env = {**os.environ, "CARD_TABLE_INSTANCE": str(tmp_path / "instance"), "PORT": str(free_port()), name: value}
    env.pop("DATABASE_URL", None)
    done = subprocess.run([sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    return done.stderr


@pytest.mark.parametrize("name, value, says", [
    ("GAMES_PER_HOUR", "lots", "GAMES_PER_HOUR must be a whole number of 0 or more, not 'lots'"),
    ("IDLE_SECONDS", "1.5", "IDLE_SECONDS must be a whole number of 0 or more, not '1.5'"),
    ("SOLVER_BUDGET", "-5", "SOLVER_BUDGET must be a whole number of 0 or more, not '-5'"),
    ("EVENTS_POLL_SECONDS", "nan", "EVENTS_POLL_SECONDS must be a number of 0 or more, not 'nan'"),
    ("JOIN_CODE_HOURS", "1e999", "JOIN_CODE_HOURS must be a number of 0 or more, not '1e999'"),
])
def test_a_number_the_table_cannot_use_stops_make_runs_first_step_with_what_to_set(tmp_path, name, value, says):
    said = refused_saying(["-m", "flask", "--app", "wsgi", "upgrade"], tmp_path, name, value)
    assert f"The card table cannot start: {says}" in said
    assert not (tmp_path / "instance" / "mason.db").exists()  # nothing was set up with it


@pytest.mark.parametrize("name, value, says", [
    ("PORT", "http", "PORT must be a whole number from 1 to 65535, not 'http'"),
    ("PORT", "70000", "PORT must be a whole number from 1 to 65535, not '70000'"),
    ("WORKERS", "0", "WORKERS must be a whole number from 1 to 64, not '0'"),
    ("SOLVES_PER_MINUTE", "many", "SOLVES_PER_MINUTE must be a whole number of 0 or more, not 'many'"),
    ("SOLVER_NICE", "-5", "SOLVER_NICE must be a whole number from 0 to 19, not '-5'"),
])
def test_the_server_refuses_a_setting_it_cannot_use_before_it_starts(tmp_path, name, value, says):
    assert f"The card table cannot start: {says}" in refused_saying(["-m", "app.serving.serve"], tmp_path, name, value)


def test_a_setting_left_empty_is_its_default_and_spaces_around_a_number_do_not_matter(monkeypatch):
    monkeypatch.setenv("CARD_TABLE_TEST_NUMBER", "")
    assert number("CARD_TABLE_TEST_NUMBER", "30") == 30
    monkeypatch.setenv("CARD_TABLE_TEST_NUMBER", " 7 ")
    assert number("CARD_TABLE_TEST_NUMBER", "30") == 7
    monkeypatch.setenv("CARD_TABLE_TEST_NUMBER", "0.5")
    assert number("CARD_TABLE_TEST_NUMBER", "2", float) == 0.5
    with pytest.raises(SettingError, match="CARD_TABLE_TEST_NUMBER must be a whole number"):
        number("CARD_TABLE_TEST_NUMBER", "30")

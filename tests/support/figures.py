"""The figures the reliability tests measure, kept for docs/RELIABILITY.md in
test-artifacts/reliability.json (per database kind and section)."""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURES_PATH = ROOT / "test-artifacts" / "reliability.json"


def backend(database_url: str) -> str:
    return "postgresql" if database_url.startswith("postgresql") else "sqlite"


def record_figures(database_url: str, section: str, **figures) -> None:
    """Merge ``figures`` into test-artifacts/reliability.json under the database kind and
    ``section``. Several xdist workers may write at once, so writers take a lock file."""
    FIGURES_PATH.parent.mkdir(parents=True, exist_ok=True)
    with open(str(FIGURES_PATH) + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            try:
                data = json.loads(FIGURES_PATH.read_text())
            except (OSError, ValueError):
                data = {}
            run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"  # which run wrote it
            entry = dict(figures, recorded_at=time.strftime("%Y-%m-%dT%H:%M:%S"), run=run[:16])
            data.setdefault(backend(database_url), {})[section] = entry
            fd, temporary = tempfile.mkstemp(dir=FIGURES_PATH.parent, prefix=".reliability-", suffix=".tmp")
            with os.fdopen(fd, "w") as handle:
                json.dump(data, handle, indent=2, sort_keys=True)
                handle.write("\n")
            os.replace(temporary, FIGURES_PATH)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)

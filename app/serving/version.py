"""Which version of the card table runs: the package's version (pyproject.toml's, as installed)
and, where the project folder is a git checkout, its commit. Worked out once per process."""

from __future__ import annotations

import functools
import subprocess
from importlib import metadata

from ..settings import PROJECT_ROOT

DISTRIBUTION = "card-table"


def package_version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # (run from a folder that was never installed)
        return "unknown"


def git_commit() -> str | None:
    """The checkout's commit (short), or None: no git, not a checkout, or git fails."""
    try:
        result = subprocess.run(["git", "-C", PROJECT_ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = result.stdout.strip()
    return commit if result.returncode == 0 and commit else None


@functools.cache
def version_text() -> str:
    """"1.1.0 (commit 5a0fb66)", or "1.1.0" where the commit is not known."""
    commit = git_commit()
    return f"{package_version()} (commit {commit})" if commit else package_version()

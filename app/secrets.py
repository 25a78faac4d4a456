"""Secrets kept in the instance folder: the session key and the admin password's hash.

Both are created at first start, atomically (O_EXCL), so several worker processes starting at
once agree on one value. The admin password is printed once, when it is generated; only its
hash is stored. There is never a fixed default.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shlex
import sys
import time

from werkzeug.security import check_password_hash, generate_password_hash

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SECRET_KEY_FILE = "secret_key"
ADMIN_HASH_FILE = "admin_password.hash"


def _create_once(path: str, content: str) -> bool:
    """Write ``content`` to ``path`` unless it exists; True if this call created it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(content)
        handle.flush()
        os.fsync(handle.fileno())
    return True


def _read_when_written(path: str) -> str:
    # Another process may have created the file a moment ago and still be writing it.
    for _ in range(50):
        with open(path, encoding="utf-8") as handle:
            text = handle.read().strip()
        if text:
            return text
        time.sleep(0.02)
    raise RuntimeError(f"{path} is empty: delete it and start again")


def ensure_secret_key(instance_path: str) -> str:
    path = os.path.join(instance_path, SECRET_KEY_FILE)
    _create_once(path, secrets.token_hex(32) + "\n")
    return _read_when_written(path)


def ensure_admin_password(instance_path: str) -> None:
    """Generate an admin password at first start and print it once."""
    path = os.path.join(instance_path, ADMIN_HASH_FILE)
    if os.path.exists(path):
        return
    password = secrets.token_urlsafe(12)
    if _create_once(path, generate_password_hash(password) + "\n"):
        print(
            "\n  The card table's admin password (shown once; only its hash is kept):"
            f"\n      {password}"
            f"\n  To change it, run in {PROJECT_ROOT}:"
            f"\n      {set_password_command()}\n",
            file=sys.stderr, flush=True,
        )


def set_password_command() -> str:
    """The command that changes the admin password, as it works from the project folder: the
    ``flask`` of the Python running now (the project's .venv), which a plain ``flask`` on the
    PATH is not."""
    folder = os.path.dirname(sys.executable)
    flask = os.path.join(folder, "flask")
    if not os.path.exists(flask):
        return f"{shlex.quote(sys.executable)} -m flask --app wsgi admin set-password"
    relative = os.path.relpath(flask, PROJECT_ROOT)
    shown = relative if not relative.startswith("..") else flask
    return f"{shlex.quote(shown)} --app wsgi admin set-password"


def set_admin_password(instance_path: str, password: str) -> None:
    path = os.path.join(instance_path, ADMIN_HASH_FILE)
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(generate_password_hash(password) + "\n")
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)


def check_admin_password(config: dict, instance_path: str, password: str) -> bool:
    """True if ``password`` is the admin password (from the environment, else the stored hash)."""
    if not password:
        return False
    configured = config.get("ADMIN_PASSWORD")
    if configured:
        return secrets.compare_digest(configured.encode(), password.encode())
    try:
        stored = _read_when_written(os.path.join(instance_path, ADMIN_HASH_FILE))
    except (OSError, RuntimeError):
        return False
    return check_password_hash(stored, password)


def admin_credential(config: dict, instance_path: str) -> str:
    """A fingerprint of the admin password as it is now (the configured one, else the stored
    hash): an admin session opened with another password is over."""
    configured = config.get("ADMIN_PASSWORD")
    if configured:
        source = "environment:" + configured
    else:
        try:
            source = "hash:" + _read_when_written(os.path.join(instance_path, ADMIN_HASH_FILE))
        except (OSError, RuntimeError):
            source = "none"
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()

"""Backups (`make backup`, `flask --app wsgi backup`) and their restore (`flask --app wsgi restore
FILE`): one dated .tar.gz holding a consistent copy of the database (SQLite's online backup API,
which copies a database that servers are using as it was at one moment; ``pg_dump`` for
PostgreSQL, one snapshot too), the instance folder's other files (the secrets: the admin
password's hash, an older install's session key; scores.csv) and the decks folder.

A backup's ``manifest.json`` says what it holds: the table's version, the database's kind and
migration revision, and how many games it held.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL

from ..settings import COMPILED_TEMPLATES
from .version import version_text

BACKUP_FOLDER = "backups"  # in the instance folder
MANIFEST = "manifest.json"
SQLITE_COPY = "database.sqlite3"
POSTGRES_DUMP = "database.pgdump"  # pg_dump's custom format (pg_restore reads it)
INSTANCE = "instance"
DECKS = "decks"


class BackupError(Exception):
    """A backup or restore that cannot be made; the message says why and what to do."""


@dataclass
class Restored:
    games: int
    files: int
    manifest: dict[str, Any]


def sqlite_path(url: URL) -> str | None:
    """The file of a SQLite database URL (None: not SQLite, or in memory)."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return url.database


def database_files(url: URL) -> set[str]:
    """The database's own files in the instance folder (copied through the backup API, never as files)."""
    path = sqlite_path(url)
    if path is None:
        return set()
    return {os.path.abspath(path) + suffix for suffix in ("", "-wal", "-shm", "-journal")}


def libpq_url(url: URL) -> tuple[str, dict[str, str]]:
    """A PostgreSQL URL as pg_dump and pg_restore read it, and the environment that carries its
    password (not on the command line, which other users of the machine can read)."""
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def postgres_program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} was not found: the backup of a PostgreSQL database needs PostgreSQL's client "
                          f"programs (Debian and Ubuntu: `sudo apt install postgresql-client`), of the server's "
                          f"version or newer.")
    return found


def count_games(engine: sa.Engine) -> int:
    if not sa.inspect(engine).has_table("games"):
        return 0
    with engine.connect() as connection:
        return connection.execute(sa.text("SELECT count(*) FROM games")).scalar() or 0


def revision_of(engine: sa.Engine) -> str | None:
    if not sa.inspect(engine).has_table("alembic_version"):
        return None
    with engine.connect() as connection:
        return connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


def _add_folder(archive: tarfile.TarFile, folder: str, name: str, leave_out: set[str]) -> int:
    added = 0
    if not os.path.isdir(folder):
        return added
    for directory, subfolders, files in os.walk(folder):
        subfolders.sort()
        for file_name in sorted(files):
            path = os.path.abspath(os.path.join(directory, file_name))
            if path in leave_out or any(path.startswith(skip + os.sep) for skip in leave_out):
                continue
            archive.add(path, arcname=os.path.join(name, os.path.relpath(path, folder)), recursive=False)
            added += 1
    return added


def _add_bytes(archive: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = int(datetime.now(UTC).timestamp())
    info.mode = 0o600
    archive.addfile(info, io.BytesIO(data))


def make_backup(engine: sa.Engine, instance_path: str, decks_folder: str, folder: str | None = None) -> str:
    """Write one backup file (card-table-YYYYmmdd-HHMMSS.tar.gz, UTC) into ``folder`` (the
    instance folder's backups/ by default); returns its path."""
    url = engine.url
    folder = folder or os.path.join(instance_path, BACKUP_FOLDER)
    os.makedirs(folder, exist_ok=True)
    now = datetime.now(UTC)
    target = os.path.join(folder, f"card-table-{now:%Y%m%d-%H%M%S}.tar.gz")
    manifest = {"card_table": version_text(), "made_at": now.replace(microsecond=0).isoformat(),
                "database": url.get_backend_name(), "revision": revision_of(engine), "games": count_games(engine)}
    with tempfile.TemporaryDirectory(prefix="card-table-backup-") as work:
        if url.get_backend_name() == "sqlite":
            path = sqlite_path(url)
            if path is None:
                raise BackupError("An in-memory database cannot be backed up.")
            copy = os.path.join(work, SQLITE_COPY)
            source, destination = sqlite3.connect(path), sqlite3.connect(copy)
            try:
                source.backup(destination)  # the online backup API: one consistent moment
            finally:
                destination.close()
                source.close()
            database_entry = SQLITE_COPY
        elif url.get_backend_name() == "postgresql":
            copy = os.path.join(work, POSTGRES_DUMP)
            address, env = libpq_url(url)
            result = subprocess.run([postgres_program("pg_dump"), "--format=custom", "--no-owner", "--no-privileges",
                                     "--file", copy, address], env=env, capture_output=True, text=True)
            if result.returncode != 0:
                raise BackupError(f"pg_dump failed: {result.stderr.strip()}")
            database_entry = POSTGRES_DUMP
        else:
            raise BackupError(f"Backing up a {url.get_backend_name()} database is not supported "
                              "(SQLite and PostgreSQL are).")
        manifest["database_file"] = database_entry
        compiled_templates = os.path.abspath(os.path.join(instance_path, COMPILED_TEMPLATES))  # (a cache)
        leave_out = database_files(url) | {os.path.abspath(folder), compiled_templates}
        partial = target + ".partial"
        with tarfile.open(partial, "w:gz") as archive:
            _add_bytes(archive, MANIFEST, json.dumps(manifest, indent=1).encode())
            archive.add(copy, arcname=database_entry, recursive=False)
            _add_folder(archive, instance_path, INSTANCE, leave_out)
            _add_folder(archive, decks_folder, DECKS, leave_out)
        os.chmod(partial, 0o600)  # (it holds the secrets)
        os.replace(partial, target)
    return target


def read_manifest(archive: tarfile.TarFile) -> dict[str, Any]:
    try:
        member = archive.extractfile(MANIFEST)
        manifest = json.loads(member.read()) if member else None
    except (KeyError, ValueError):
        manifest = None
    if not isinstance(manifest, dict) or manifest.get("database_file") not in (SQLITE_COPY, POSTGRES_DUMP):
        raise BackupError("This file is not a backup of the card table (it has no manifest.json).")
    return manifest


def _safe_members(archive: tarfile.TarFile, prefix: str) -> list[tarfile.TarInfo]:
    members = []
    for member in archive.getmembers():
        parts = member.name.split("/")
        if parts[0] != prefix or not member.isfile() or ".." in parts or member.name.startswith("/"):
            continue
        members.append(member)
    return members


def restore_backup(engine: sa.Engine, path: str, instance_path: str, decks_folder: str, *,
                   replace: bool = False) -> Restored:
    """Put a backup's database, instance files and decks back. A database that holds games is
    replaced only with ``replace``. The servers using the database must be stopped first."""
    url = engine.url
    try:
        archive = tarfile.open(path, "r:gz")
    except (OSError, tarfile.TarError) as error:
        raise BackupError(f"{path} cannot be read as a backup ({error}).") from None
    with archive:
        manifest = read_manifest(archive)
        kind = url.get_backend_name()
        if manifest["database"] != kind:
            raise BackupError(f"This backup holds a {manifest['database']} database; DATABASE_URL names a {kind} one. "
                              "Restore it into a database of its own kind.")
        held = count_games(engine)
        if held and not replace:
            raise BackupError(f"The database already holds {held} games: restoring replaces them all. Stop the "
                              "servers, then run the restore again with --replace if that is what you want.")
        with tempfile.TemporaryDirectory(prefix="card-table-restore-") as work:
            archive.extract(manifest["database_file"], work, filter="data")
            copy = os.path.join(work, manifest["database_file"])
            engine.dispose()  # (no connection of ours may hold the database while it is replaced)
            if kind == "sqlite":
                target = sqlite_path(url)
                if target is None:
                    raise BackupError("An in-memory database cannot be restored into.")
                os.makedirs(os.path.dirname(os.path.abspath(target)) or ".", exist_ok=True)
                _check_sqlite_copy(copy)
                source, destination = sqlite3.connect(copy), sqlite3.connect(target)
                try:
                    source.backup(destination)  # every page of the target replaced, in one go
                finally:
                    destination.close()
                    source.close()
            else:
                _restore_postgres(engine, copy)
        files = 0
        for prefix, folder in ((INSTANCE, instance_path), (DECKS, decks_folder)):
            for member in _safe_members(archive, prefix):
                relative = member.name.split("/", 1)[1]
                target = os.path.join(folder, relative)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                source_file = archive.extractfile(member)
                if source_file is None:
                    continue
                partial = target + ".restoring"
                with open(partial, "wb") as handle:
                    shutil.copyfileobj(source_file, handle)
                os.chmod(partial, member.mode & 0o777 or 0o600)
                os.replace(partial, target)
                files += 1
    return Restored(games=count_games(engine), files=files, manifest=manifest)


def _check_sqlite_copy(path: str) -> None:
    """Refuse a damaged database copy before the database is touched."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            verdict = connection.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as error:
        verdict = str(error)
    if verdict != "ok":
        raise BackupError(f"The backup's database copy is damaged ({verdict}): nothing was restored.")


def _restore_postgres(engine: sa.Engine, dump: str) -> None:
    """Replace every table of a PostgreSQL database with the dump's, in one transaction: psql
    runs the DROP of the tables there now, then the dump as pg_restore writes it out as SQL, so a
    restore that fails leaves the database as it was."""
    address, env = libpq_url(engine.url)
    names = sa.inspect(engine).get_table_names()
    engine.dispose()
    psql = subprocess.Popen([postgres_program("psql"), "--quiet", "--no-psqlrc", "--single-transaction",
                             "--set", "ON_ERROR_STOP=1", "--output", os.devnull, "--dbname", address],
                            env=env, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    restore = subprocess.Popen([postgres_program("pg_restore"), "--no-owner", "--no-privileges", "--file", "-", dump],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert psql.stdin is not None and restore.stdout is not None and restore.stderr is not None
    try:
        if names:
            psql.stdin.write(("DROP TABLE IF EXISTS " + ", ".join(f'"{name}"' for name in names)
                              + " CASCADE;\n").encode())
        shutil.copyfileobj(restore.stdout, psql.stdin)
    except BrokenPipeError:
        pass  # (psql stopped at an error: said below)
    restore_errors = restore.stderr.read().decode()
    if restore.wait() != 0:
        psql.kill()  # before its input ends: psql commits at the end of its input, never here
        psql.wait()
        raise BackupError(f"pg_restore failed (the database was not changed): {restore_errors.strip()}")
    try:
        psql.stdin.close()
    except BrokenPipeError:
        pass
    psql_errors = psql.stderr.read().decode() if psql.stderr else ""
    if psql.wait() != 0:
        raise BackupError(f"psql failed (the database was not changed): {psql_errors.strip()}")


def describe(path: str) -> str:
    return f"{path} ({os.path.getsize(path) / 1024:.0f} KB)"

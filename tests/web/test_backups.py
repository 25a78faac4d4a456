"""`make backup` and its restore, as the README's "Upgrading" section uses them, on real
processes: the first web version's install (tests/fixtures/first_version) is upgraded, backed up
into one dated file (the database through SQLite's online backup or pg_dump, the instance
folder's secrets, the decks), and restored into a new database and new folders: every row and
every file comes back, and the restored table serves the old cookies' seats. A database holding
games is replaced only when told. On SQLite, and on PostgreSQL with CARD_TABLE_TEST_DATABASE."""

from __future__ import annotations

import io
import json
import re
import tarfile
from pathlib import Path

import pytest
import sqlalchemy as sa

from app.settings import COMPILED_TEMPLATES
from support import first_version
from support.web import Player

pytestmark = pytest.mark.slow

BACKUP_NAME = re.compile(r"card-table-\d{8}-\d{6}\.tar\.gz")


def rows(url: str) -> dict[str, list]:
    """Every row of every table, in primary key order, as text."""
    engine = sa.create_engine(url)
    metadata = sa.MetaData()
    metadata.reflect(engine)
    dump = {}
    with engine.connect() as connection:
        for table in metadata.sorted_tables:
            order = list(table.primary_key.columns) or list(table.columns)
            dump[table.name] = [[str(value) for value in row]
                                for row in connection.execute(sa.select(table).order_by(*order))]
    engine.dispose()
    return dump


def files(folder: Path) -> dict[str, bytes]:
    """The files a backup keeps (not the backups, the database or the compiled templates)."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and not {"backups", COMPILED_TEMPLATES} & set(path.parts)
            and not path.name.startswith("mason.db")}


@pytest.fixture
def upgraded_install(databases, tmp_path):
    data = first_version.fixture()
    old = tmp_path / "old"
    old.mkdir()
    url = first_version.empty_database(databases, old)
    instance, decks = old / "instance", old / "decks"
    first_version.build(data, url, instance, decks)
    env = first_version.environment(url, instance, decks)
    first_version.flask(env, "upgrade")
    yield data, url, instance, decks, env
    databases.drop(url)


def test_a_backup_restores_every_row_secret_and_deck_into_a_new_install(databases, tmp_path, upgraded_install):
    data, url, instance, decks, env = upgraded_install
    made = first_version.flask(env, "backup")
    backups = list((instance / "backups").iterdir())
    assert len(backups) == 1 and BACKUP_NAME.fullmatch(backups[0].name), backups
    assert str(backups[0]) in made.stdout
    with tarfile.open(backups[0]) as archive:
        names = set(archive.getnames())
        manifest = json.loads(archive.extractfile("manifest.json").read())
    assert manifest["games"] == 4 and manifest["database"] == sa.engine.make_url(url).get_backend_name()
    assert {"instance/admin_password.hash", "instance/scores.csv", "decks/family.deck", manifest["database_file"]} <= names
    assert not any(name.startswith("instance/mason.db") or "backups/" in name for name in names)
    # The templates the upgrade compiled are a cache: each install compiles its own.
    assert any((instance / COMPILED_TEMPLATES).iterdir())
    assert not any(name.startswith(f"instance/{COMPILED_TEMPLATES}") for name in names)

    # A new machine (or a wiped one): an empty database and empty folders.
    new = tmp_path / "new"
    new.mkdir()
    new_url = first_version.empty_database(databases, new)
    new_instance, new_decks = new / "instance", new / "decks"
    new_instance.mkdir()
    new_decks.mkdir()
    new_env = first_version.environment(new_url, new_instance, new_decks)
    try:
        restored = first_version.flask(new_env, "restore", str(backups[0]))
        assert "Restored 4 games" in restored.stdout
        assert rows(new_url) == rows(url)
        assert files(new_instance) == files(instance) and files(new_decks) == files(decks)

        # Restoring again over a database that now holds games is refused unless told.
        refused = first_version.flask(new_env, "restore", str(backups[0]), check=False)
        assert refused.returncode != 0 and "already holds 4 games" in refused.stderr and "--replace" in refused.stderr
        assert first_version.flask(new_env, "restore", "--replace", str(backups[0])).returncode == 0
        assert rows(new_url) == rows(url)

        # The restored table starts as `make run` starts it (nothing to migrate or rebuild) and the
        # phone's old cookie still holds its seat: the session key came back with the database.
        started = first_version.flask(new_env, "upgrade")
        assert "make backup" not in started.stdout and "replayed" not in started.stdout
        app = first_version.upgraded_app(new_url, new_instance, new_decks)
        try:
            phone = Player(app)
            first_version.with_cookie(phone, app, data["cookies"]["phone"])
            assert phone.table(data["games"]["with_phone"]).seat == 1
        finally:
            first_version.close(app)
    finally:
        databases.drop(new_url)


def test_a_restore_refuses_a_file_that_is_no_backup_and_changes_nothing(tmp_path, upgraded_install):
    _data, url, instance, decks, env = upgraded_install
    first_version.flask(env, "version")  # (the first app started moves the old session key into the database)
    before = rows(url)
    not_a_backup = tmp_path / "scores.tar.gz"
    with tarfile.open(not_a_backup, "w:gz") as archive:
        archive.add(instance / "scores.csv", arcname="scores.csv")
    refused = first_version.flask(env, "restore", "--replace", str(not_a_backup), check=False)
    assert refused.returncode != 0 and "is not a backup of the card table" in refused.stderr
    assert rows(url) == before


def test_a_backup_whose_database_copy_is_damaged_is_refused_and_the_database_is_left_as_it_was(tmp_path, upgraded_install):
    _data, url, instance, _decks, env = upgraded_install
    first_version.flask(env, "backup")
    before = rows(url)
    (good,) = (instance / "backups").iterdir()
    damaged = tmp_path / "damaged.tar.gz"
    with tarfile.open(good) as source, tarfile.open(damaged, "w:gz") as target:
        manifest = json.loads(source.extractfile("manifest.json").read())
        for member in source.getmembers():
            data = source.extractfile(member).read()
            if member.name == manifest["database_file"]:
                data = data[:len(data) // 2]  # cut short, as a full disk or a broken copy leaves it
            member.size = len(data)
            target.addfile(member, io.BytesIO(data))
    refused = first_version.flask(env, "restore", "--replace", str(damaged), check=False)
    assert refused.returncode != 0
    assert "nothing was restored" in refused.stderr or "was not changed" in refused.stderr, refused.stderr
    assert rows(url) == before


def test_without_git_the_version_has_no_commit_and_without_pg_dump_the_backup_says_what_to_install(upgraded_install):
    _data, url, _instance, _decks, env = upgraded_install
    bare = dict(env, PATH="/nonexistent")  # neither git nor PostgreSQL's programs
    version = first_version.flask(bare, "version")
    assert re.fullmatch(r"The card table \d+\.\d+\.\d+\n", version.stdout), version.stdout
    if sa.engine.make_url(url).get_backend_name() == "postgresql":
        refused = first_version.flask(bare, "backup", check=False)
        assert refused.returncode != 0 and "pg_dump was not found" in refused.stderr
        assert "postgresql-client" in refused.stderr

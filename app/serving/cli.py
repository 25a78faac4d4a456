"""`flask` commands for the admin chores: scores import/export, checking decks, the admin password;
the version, the upgrade `make run` starts with, backups and their restore.

Run them as `.venv/bin/flask --app wsgi <command>` from the project folder.
"""

from __future__ import annotations

import sys
from typing import IO

import click
import sqlalchemy as sa
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext

from .. import records, store
from ..core import registry
from ..core.decks import DeckError
from ..core.protocol import filled
from ..core.terminal import write_atomically
from ..extensions import db
from ..records import score_table, scores_file
from ..store.credentials import NEW_ADMIN_PASSWORD, forget_secret_key, new_password_lines, set_admin_password
from ..store.models import AdminSession
from ..tables import decks as stacked_decks
from . import upgrades
from .backups import BackupError, describe, make_backup, restore_backup
from .version import version_text


def register_commands(app: Flask) -> None:
    # AppGroup runs each command in an app context however it is invoked: from `flask`, or from
    # app.cli as app.test_cli_runner() does (a plain click group gets no context there).
    app.cli.add_command(scores_group)
    app.cli.add_command(deck_group)
    app.cli.add_command(admin_group)
    app.cli.add_command(secret_key_group)
    app.cli.add_command(version_command)
    app.cli.add_command(upgrade_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)


# scores.csv's columns and quoting are R7.5's.
@click.group("scores", cls=AppGroup, help="Export or import Mason Rummy's score table as scores.csv "
                                          "(name, games won, games lost, best score).")
def scores_group() -> None:
    pass


@scores_group.command("export")
@click.argument("path", required=False, type=click.Path(dir_okay=False, writable=True))
def export_scores(path: str | None) -> None:
    """Write the score table to PATH (atomically), or print it."""
    if path:
        write_atomically(path, score_table.csv_chunks(), prefix=".scores-")
        click.echo(f"Wrote {score_table.count()} rows to {path}.")
    else:
        for chunk in score_table.csv_chunks():
            sys.stdout.write(chunk)


@scores_group.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--yes", is_flag=True, help="Apply without asking.")
def import_scores(path: str, yes: bool) -> None:
    """Replace the score table with PATH, all or nothing, after showing what changes."""
    file_format = score_table.file_format()
    try:
        with open(path, "rb") as handle:
            incoming = file_format.table.from_csv(file_format.decode(handle.read()))
    except file_format.file_error as error:
        raise click.ClickException(f"{path} was not imported: {error}") from None
    diff = file_format.diff(score_table.whole_table(), incoming)
    click.echo(f"{len(diff['added'])} added, {len(diff['changed'])} changed, "
               f"{len(diff['removed'])} removed, {diff['unchanged']} unchanged.")
    if not yes and not click.confirm("Apply the import?"):
        click.echo("Nothing was changed.")
        return
    store.begin_write()
    score_table.replace(incoming)
    db.session.commit()
    scores_file.write_now()
    click.echo("Imported.")


@click.group("deck", cls=AppGroup, help="Stacked deck files: card codes, top of the deck first.")  # R2
def deck_group() -> None:
    pass


@deck_group.command("check")
@click.argument("paths", nargs=-1, required=True)
@click.option("--game", "key", default=registry.games()[0].key, show_default=True,
              help="Whose deck files they are (a game's key: " + ", ".join(d.key for d in registry.games()) + ").")
def check_deck(paths: tuple[str, ...], key: str) -> None:
    """Check deck files; exit status 1 if any is invalid."""
    try:
        definition = registry.get(key)
    except registry.UnknownGame:
        raise click.ClickException(f"There is no game {key!r}.") from None
    bad = 0
    for path in paths:
        try:
            cards = stacked_decks.read_deck_file(path, definition)
            what, first = definition.deck_preview(cards)[0]
            click.echo(f"{path}: valid; {filled(what).lower()} starts with {' '.join(c.code for c in first)}")
        except DeckError as error:
            bad += 1
            click.echo(f"{path}: invalid: {error}", err=True)
    if bad:
        sys.exit(1)


@click.group("admin", cls=AppGroup, help="The admin password.")
def admin_group() -> None:
    pass


@admin_group.command("set-password")
@click.option("--password-file", type=click.File("r", encoding="utf-8"),
              help="Read the new password from the first line of this file ('-': standard input), "
                   "to run without a terminal.")
@click.option("--password", help="The new password (visible to other users of this machine: "
                                 "prefer --password-file or the prompt).")
def set_password(password: str | None, password_file: IO[str] | None) -> None:
    """Store a new admin password (only its hash is kept, in the instance folder). Asked for
    twice unless --password-file or --password gives it. Every admin login ends: the browsers
    log in again with the new password."""
    if password_file is not None:
        password = password_file.readline().rstrip("\r\n")
    elif password is None:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    if len(password) < 8:
        raise click.ClickException("Use at least 8 characters.")
    set_admin_password(current_app.instance_path, password)
    store.begin_write()
    db.session.execute(sa.delete(AdminSession))
    db.session.commit()
    click.echo("The admin password was changed. Every admin login has ended: log in again with the new password.")


@click.group("secret-key", cls=AppGroup, help="The session key the servers sharing the database use.")
def secret_key_group() -> None:
    pass


@secret_key_group.command("forget")
@click.option("--yes", is_flag=True, help="Forget it without asking.")
def forget_key(yes: bool) -> None:
    """Forget the session key kept in the database (or the fingerprint of the SECRET_KEY the
    servers set), to change it: the next server to start sets the new one (its SECRET_KEY, or a
    new key in the database). Every session and seat cookie signed with the old key ends: stop
    every server first, then start them with the new setting."""
    if not yes and not click.confirm("Every player's and admin's session will end. Forget the key?"):
        click.echo("Nothing was changed.")
        return
    forget_secret_key(db.engine)
    click.echo("The session key was forgotten: start the servers (all with the same SECRET_KEY, or none).")


@click.command("version")
def version_command() -> None:
    """Print which version of the card table this is (and its git commit, where known)."""
    click.echo(f"The card table {version_text()}")


@click.command("upgrade")
@with_appcontext
def upgrade_command() -> None:
    """What `make run` does before serving, said in a few lines: the version; a backup
    suggested when a migration is about to change a database that holds games (it goes on all
    the same); the database upgraded (flask db upgrade, without Alembic's line a migration) and
    ready; every game stored before replays were kept given its state as dealt again, checked by
    replaying its actions; a game whose results a stopped server did not record yet recorded;
    the templates the workers will load compiled (app/web/__init__.py's ``CompiledTemplates``);
    and on a first start the admin password made for it (create_app keeps it for this summary
    when FIRST_START_SUMMARY is set, as `make run` sets it). The address comes last, from the
    server once it answers (app/serving/serve.py)."""
    # (Flask-Migrate is loaded only by the `flask db` commands and this one, which serving
    # workers never run: Config.DATABASE_COMMANDS.)
    from flask_migrate import upgrade as migrate_database

    click.echo(f"The card table {version_text()}")
    pending = upgrades.pending_migrations()
    if pending and upgrades.holds_games():
        click.echo(f"  The database is about to be upgraded ({len(pending)} migrations). It holds games: a "
                   "backup first is wise (`make backup`; README, \"Upgrading\").")
    db.session.remove()
    if pending:
        migrate_database(x_arg=[QUIET_MIGRATIONS])
    where = db.engine.url.render_as_string(hide_password=True)
    done = f"upgraded to the latest version ({len(pending)} migrations)" if pending else "at the latest version"
    click.echo(f"  Database ready: {where}, {done}.")
    if upgrades.any_game_without_deal():
        rebuilt, problems = upgrades.give_old_games_their_deal(click.echo)
        click.echo(f"  {rebuilt} games stored before replays were kept can be replayed now"
                   + (f"; {len(problems)} cannot (the list of finished games says why)." if problems else "."))
    recorded = records.record_pending()
    if recorded:
        click.echo(f"  The results of {recorded} games that ended while a server stopped are recorded now.")
    for name in current_app.jinja_env.list_templates():  # into the compiled templates' cache
        current_app.jinja_env.get_template(name)
    password = current_app.extensions.pop(NEW_ADMIN_PASSWORD, None)
    if password is not None:
        click.echo("\n".join(new_password_lines(password)))


# Alembic's -x argument that leaves out its line for each migration it runs (migrations/env.py).
QUIET_MIGRATIONS = "quiet"


@click.command("backup")
@click.option("--folder", type=click.Path(file_okay=False), help="Where to write it (default: instance/backups).")
@with_appcontext
def backup_command(folder: str | None) -> None:
    """Write one dated backup file: a consistent copy of the database, the instance folder's
    secrets and files, and the decks folder."""
    try:
        path = make_backup(db.engine, current_app.instance_path, current_app.config["DECKS_FOLDER"], folder)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Backed up to {describe(path)}.")


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--replace", is_flag=True, help="Replace a database that already holds games.")
@with_appcontext
def restore_command(path: str, replace: bool) -> None:
    """Put a backup (made by `make backup`) back: its database, instance files and decks. Stop
    every server using the database first. A database holding games is replaced only with
    --replace. Then `make run` upgrades it if the backup is older than this version."""
    db.session.remove()
    try:
        restored = restore_backup(db.engine, path, current_app.instance_path, current_app.config["DECKS_FOLDER"],
                                  replace=replace)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Restored {restored.games} games and {restored.files} files from a backup made "
               f"{restored.manifest.get('made_at')} by the card table {restored.manifest.get('card_table')}. "
               "Start the table with `make run`.")

"""names found without accents, a released seat's undo, an imported game's digest

- ``scores.search_key`` and ``game_stats.search_key``: the name as searches compare it (its
  accents taken off, case folded: "zoe" finds "Zoë"); filled here for the rows there are.
- ``seats.previous_token_hash``: the token hash a seat had before the host released it, so that
  the host can undo the release while nobody has taken the seat with its new code.
- ``games.import_digest``: what an imported game's file holds (its game, seats, deal and actions)
  as a SHA-256 digest (unique), so that importing the same game twice is noticed.

Revision ID: f3c8d2a6b914
Revises: f3c2a8d51e47
Create Date: 2026-12-02 10:00:00

"""
import unicodedata

from alembic import op
import sqlalchemy as sa


revision = 'f3c8d2a6b914'
down_revision = 'f3c2a8d51e47'
branch_labels = None
depends_on = None


def search_key(name):
    """(As app.core.names.search_key was when this migration was written.)"""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


def fill(table):
    connection = op.get_bind()
    rows = connection.execute(sa.text(f"SELECT id, name FROM {table}")).all()
    for row_id, name in rows:
        connection.execute(sa.text(f"UPDATE {table} SET search_key = :key WHERE id = :id"),
                           {"key": search_key(name), "id": row_id})


def upgrade():
    for table in ('scores', 'game_stats'):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column('search_key', sa.String(length=100), nullable=False, server_default=''))
        fill(table)
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('previous_token_hash', sa.String(length=64), nullable=True))
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('import_digest', sa.String(length=64), nullable=True))
        batch.create_index('ix_games_import_digest', ['import_digest'], unique=True)


def downgrade():
    with op.batch_alter_table('games') as batch:
        batch.drop_index('ix_games_import_digest')
        batch.drop_column('import_digest')
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('previous_token_hash')
    for table in ('game_stats', 'scores'):
        with op.batch_alter_table(table) as batch:
            batch.drop_column('search_key')

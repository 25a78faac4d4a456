"""finished games, replays and abandoned games: games.results, imported, standins; an index

Reviewed. Finished games are listed most recent first with their players and scores,
and open as replays; the host may abandon an unfinished game. What each change is for:

- ``results`` (Text, NULL): a finished game's results as JSON, written in the transaction that
  finishes it, so the list of finished games shows scores without rebuilding each game's state.
  Games finished before this revision stay NULL: the list works them out from their state once.
- ``imported`` (Boolean, server default false): a game read from an exported file. It is listed
  and replayed like any finished game but changed no score or statistic.
- ``standins`` (Text, NULL): where the computer stood in for a person (JSON spans of the game's
  log), so the table's log says "AI for Finn" beside those lines. NULL: never.
- ``ix_games_status_finished_at``: the list's query (status 'finished', newest ``finished_at``
  first, a page at a time) walks this index instead of sorting every finished game.

An abandoned game is a new value of the existing ``status`` column ('abandoned'): no schema change;
Menu A lists only 'playing' games and no score is written for it. Existing rows keep working as
they are; SQLite copies the games table once through batch mode, PostgreSQL alters it in place.

Revision ID: 7c4e2a9d1b38
Revises: 3b1f0c2d9a71
Create Date: 2026-11-23 10:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = '7c4e2a9d1b38'
down_revision = '3b1f0c2d9a71'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('results', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('imported', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('standins', sa.Text(), nullable=True))
        batch_op.create_index('ix_games_status_finished_at', ['status', 'finished_at'], unique=False)


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index('ix_games_status_finished_at')
        batch_op.drop_column('standins')
        batch_op.drop_column('imported')
        batch_op.drop_column('results')

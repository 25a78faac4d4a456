"""games: one index (status, updated_at) for Menu A instead of two

Reviewed: Menu A (and the admin page) ask for the unfinished games, most recently
played first, 50 at most. With ix_games_status SQLite read every unfinished game's row (past its
state JSON, to reach updated_at) and sorted them all; with (status, updated_at) it walks the index
from the end and stops after 50 rows. ix_games_updated_at served no query. Every action updates
updated_at, so one index to keep up to date instead of two. Index operations only: SQLite runs
them in place (no table copy), PostgreSQL as plain CREATE/DROP INDEX.

Revision ID: 5e03c6a6f98e
Revises: 8194b714511d
Create Date: 2026-11-22 00:51:26.984719

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '5e03c6a6f98e'
down_revision = '8194b714511d'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_status'))
        batch_op.drop_index(batch_op.f('ix_games_updated_at'))
        batch_op.create_index('ix_games_status_updated_at', ['status', 'updated_at'], unique=False)


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index('ix_games_status_updated_at')
        batch_op.create_index(batch_op.f('ix_games_updated_at'), ['updated_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_games_status'), ['status'], unique=False)

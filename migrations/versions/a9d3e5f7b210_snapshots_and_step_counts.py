"""Replays from snapshots: games.steps counts a game's actions, snapshots keep states on the way

``games.steps`` is how many actions a game's log holds (its replay's last step, and what the
cap on a game's actions counts); rows stored before get their count. ``snapshots`` keeps a
game's state every so many actions, so that a replay, a step shown on a table or a step of a
finished game starts from the nearest snapshot instead of the deal. Games stored before have
none: they replay from the deal, as before.

Revision ID: a9d3e5f7b210
Revises: d2a7f4c81e05
Create Date: 2026-11-28 10:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'a9d3e5f7b210'
down_revision = 'd2a7f4c81e05'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('steps', sa.Integer(), nullable=False, server_default='0'))
    op.execute("UPDATE games SET steps = (SELECT count(*) FROM actions WHERE actions.game_id = games.id)")
    op.create_table(
        'snapshots',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('step', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('state', sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'step'),
    )


def downgrade():
    op.drop_table('snapshots')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('steps')

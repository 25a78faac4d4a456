"""What each browser holds, kept on the server: holdings; games.results_recorded

A browser's seats and host roles were tokens in its session cookie, which could hold only a
dozen tables; they are rows now, found by the hash of the one key the cookie keeps (cookies set
before are read once and their tokens become rows: app/tables/holdings.py). A finished game's
results are recorded in the score table after the commit that ends it; ``results_recorded``
says whether that happened (every game finished before this revision was recorded with its end).

Revision ID: b7d1e4a2c9f0
Revises: a4e6c2f8d913
Create Date: 2026-12-07 02:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'b7d1e4a2c9f0'
down_revision = 'a4e6c2f8d913'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'holdings',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('browser', sa.String(length=64), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('role', sa.String(length=8), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('browser', 'game_id', 'role'),
    )
    with op.batch_alter_table('holdings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_holdings_game_id'), ['game_id'], unique=False)
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('results_recorded', sa.Boolean(), server_default=sa.true(), nullable=False))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('results_recorded')
    with op.batch_alter_table('holdings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_holdings_game_id'))
    op.drop_table('holdings')

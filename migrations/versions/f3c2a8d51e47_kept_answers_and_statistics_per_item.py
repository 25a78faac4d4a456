"""kept answers of the job runner (a solver's verdicts, off the request path) and statistics per item

Two new tables, nothing existing changes:

- ``analyses``: work the job runner (app/solving) does off the request path: a question about a
  game position (Seahaven Towers: can it still be won, the hint, a whole line) with its answer
  once worked out, kept by the position's key so that every game and server meeting the position
  finds it; and games whose computer player is to move (``kind`` turn), removed once played.
- ``game_stat_items``: per-name statistics kept per item of a game (each deal number's best
  result), as ``game_stats`` keeps them per name.

Revision ID: f3c2a8d51e47
Revises: f7a2c9e4b611
Create Date: 2026-12-02 10:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f3c2a8d51e47'
down_revision = 'f7a2c9e4b611'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('analyses',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('game', sa.String(length=16), nullable=False),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('question', sa.Text(), nullable=True),
    sa.Column('requires', sa.String(length=60), nullable=False),
    sa.Column('answer', sa.Text(), nullable=True),
    sa.Column('priority', sa.Integer(), nullable=False),
    sa.Column('spent', sa.Integer(), nullable=False),
    sa.Column('waiting_games', sa.String(length=200), nullable=False),
    sa.Column('asked_by', sa.String(length=64), nullable=False),
    sa.Column('asked_at', sa.DateTime(), nullable=False),
    sa.Column('claimed_by', sa.String(length=80), nullable=True),
    sa.Column('claimed_at', sa.DateTime(), nullable=True),
    sa.Column('answered_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key')
    )
    op.create_index('ix_analyses_status_priority', 'analyses', ['status', 'priority', 'id'], unique=False)
    op.create_table('game_stat_items',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=16), nullable=False),
    sa.Column('item', sa.String(length=40), nullable=False),
    sa.Column('name', sa.String(length=24), nullable=False),
    sa.Column('name_key', sa.String(length=100), nullable=False),
    sa.Column('figures', sa.Text(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game', 'item', 'name_key')
    )
    op.create_index('ix_game_stat_items_name', 'game_stat_items', ['game', 'name_key', 'updated_at'], unique=False)


def downgrade():
    op.drop_index('ix_game_stat_items_name', table_name='game_stat_items')
    op.drop_table('game_stat_items')
    op.drop_index('ix_analyses_status_priority', table_name='analyses')
    op.drop_table('analyses')

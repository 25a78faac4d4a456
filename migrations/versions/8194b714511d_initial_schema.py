"""initial schema: scores, games (state JSON + version), seats, action log, pending imports,
admin login failures. Reviewed: unique (game_id, version) on actions is what makes an action
apply once; indexes serve Menu A (games.status), the live watcher (games.slug) and admin rate
limiting (admin_failures.address/at).

Revision ID: 8194b714511d
Revises: 
Create Date: 2026-11-21 23:43:26.900627

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '8194b714511d'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('admin_failures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('admin_failures', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_admin_failures_address'), ['address'], unique=False)
        batch_op.create_index(batch_op.f('ix_admin_failures_at'), ['at'], unique=False)

    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('slug', sa.String(length=16), nullable=False),
    sa.Column('state', sa.Text(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('players', sa.Integer(), nullable=False),
    sa.Column('deck_name', sa.String(length=80), nullable=True),
    sa.Column('host_token_hash', sa.String(length=64), nullable=False),
    sa.Column('shown_seat', sa.Integer(), nullable=True),
    sa.Column('rematch_slug', sa.String(length=16), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.Column('finished_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('slug')
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_games_status'), ['status'], unique=False)
        batch_op.create_index(batch_op.f('ix_games_updated_at'), ['updated_at'], unique=False)

    op.create_table('score_imports',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token', sa.String(length=40), nullable=False),
    sa.Column('csv_text', sa.Text(), nullable=False),
    sa.Column('table_digest', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token')
    )
    op.create_table('scores',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=24), nullable=False),
    sa.Column('name_key', sa.String(length=100), nullable=False),
    sa.Column('won', sa.Integer(), nullable=False),
    sa.Column('lost', sa.Integer(), nullable=False),
    sa.Column('best', sa.Integer(), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name_key')
    )
    op.create_table('actions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('action', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'version')
    )
    op.create_table('seats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=24), nullable=False),
    sa.Column('is_ai', sa.Boolean(), nullable=False),
    sa.Column('device', sa.String(length=8), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=True),
    sa.Column('join_code', sa.String(length=12), nullable=True),
    sa.Column('claimed_at', sa.DateTime(), nullable=True),
    sa.Column('last_seen_at', sa.DateTime(), nullable=True),
    sa.Column('ai_standin', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'number'),
    sa.UniqueConstraint('join_code')
    )


def downgrade():
    op.drop_table('seats')
    op.drop_table('actions')
    op.drop_table('scores')
    op.drop_table('score_imports')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_updated_at'))
        batch_op.drop_index(batch_op.f('ix_games_status'))

    op.drop_table('games')
    with op.batch_alter_table('admin_failures', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_admin_failures_at'))
        batch_op.drop_index(batch_op.f('ix_admin_failures_address'))

    op.drop_table('admin_failures')

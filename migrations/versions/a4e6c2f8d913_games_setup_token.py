"""games.setup_token: the set-up form's token (unique), so that a form posted twice at once makes
one game

Revision ID: a4e6c2f8d913
Revises: f3c8d2a6b914
Create Date: 2026-12-03 10:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'a4e6c2f8d913'
down_revision = 'f3c8d2a6b914'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('setup_token', sa.String(length=40), nullable=True))
        batch.create_index('ix_games_setup_token', ['setup_token'], unique=True)


def downgrade():
    with op.batch_alter_table('games') as batch:
        batch.drop_index('ix_games_setup_token')
        batch.drop_column('setup_token')

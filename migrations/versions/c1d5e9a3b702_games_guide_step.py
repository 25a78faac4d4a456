"""games.guide_step: a guided first game ("Learn by playing") and the step of its script it is at
(NULL: a game like any other)

Revision ID: c1d5e9a3b702
Revises: b3d5f7a9c1e2
Create Date: 2026-12-07 06:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'c1d5e9a3b702'
down_revision = 'b3d5f7a9c1e2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('guide_step', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('games') as batch:
        batch.drop_column('guide_step')

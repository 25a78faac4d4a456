"""a computer seat's strength

- ``seats.strength``: the strength of a computer seat's player (easy, normal, strong), chosen at
  set-up and kept by a rematch; NULL for a person's seat and for a computer seat of a game set
  up before strengths were chosen (the normal player).

Revision ID: b3d5f7a9c1e2
Revises: b7d1e4a2c9f0
Create Date: 2026-12-07 05:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'b3d5f7a9c1e2'
down_revision = 'b7d1e4a2c9f0'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('strength', sa.String(length=8), nullable=True))


def downgrade():
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('strength')

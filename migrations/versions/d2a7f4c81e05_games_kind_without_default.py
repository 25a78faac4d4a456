"""games.kind has no default: every game row names its game

``kind`` got the server default 'mason' when the table began to host several games, so that the
rows stored before then (all Mason Rummy games) got their kind. Every row has had its kind
written since, by the code that makes it; the default goes, so that no game is the table's
default. SQLite copies ``games`` once through batch mode; PostgreSQL drops the default in place.

Revision ID: d2a7f4c81e05
Revises: c4e8a1f09b27
Create Date: 2026-11-27 10:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'd2a7f4c81e05'
down_revision = 'c4e8a1f09b27'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.alter_column('kind', existing_type=sa.String(length=16), existing_nullable=False,
                              server_default=None)


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.alter_column('kind', existing_type=sa.String(length=16), existing_nullable=False,
                              server_default='mason')

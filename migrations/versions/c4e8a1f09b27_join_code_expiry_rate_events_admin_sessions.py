"""join codes expire; rate events per client address; server-side admin sessions

Reviewed: three small additions, nothing existing changes.

- ``seats.code_expires_at``: a join code stops working after it (24 hours by default,
  ``JOIN_CODE_HOURS``); the game's end removes its codes. Codes issued before this migration
  have no expiry time: they keep working until they are claimed, released or their game ends,
  as before.
- ``rate_events`` (kind, client address, time; one index over the three): wrong join codes and
  games set up, counted per client address across the worker processes (app/store/limits.py). Rows
  older than their window are deleted as new ones are written, so the table stays small.
- ``admin_sessions``: a logged-in admin browser's session id (only its SHA-256 is stored), the
  admin credential it was opened with and its expiry (12 hours). Logout deletes it and a new
  admin password voids it, so a copied cookie stops working. Admin cookies of the old kind
  (``admin: true`` in the signed session) are no longer accepted: the admin logs in again once.

SQLite copies ``seats`` once through batch mode; PostgreSQL adds the column in place.

Revision ID: c4e8a1f09b27
Revises: 7c4e2a9d1b38
Create Date: 2026-11-22 10:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'c4e8a1f09b27'
down_revision = '7c4e2a9d1b38'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('code_expires_at', sa.DateTime(), nullable=True))

    op.create_table('rate_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_rate_events_kind_address_at', 'rate_events', ['kind', 'address', 'at'], unique=False)

    op.create_table('admin_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('credential', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token_hash')
    )
    op.create_index(op.f('ix_admin_sessions_expires_at'), 'admin_sessions', ['expires_at'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_admin_sessions_expires_at'), table_name='admin_sessions')
    op.drop_table('admin_sessions')
    op.drop_index('ix_rate_events_kind_address_at', table_name='rate_events')
    op.drop_table('rate_events')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('code_expires_at')

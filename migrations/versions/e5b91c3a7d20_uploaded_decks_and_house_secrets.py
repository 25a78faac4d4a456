"""uploaded decks and the session key in the database (several servers, one database)

Two new tables, nothing existing changes:

- ``uploaded_decks`` (game, name, content): a deck uploaded through the admin page, so that every
  server sharing the database offers it; ``content`` NULL records a deleted deck, so that no
  server offers a file of that name from its own decks folder either. Decks uploaded before
  this migration stay files in the decks folder of the server that received them, offered as
  before (by that server).
- ``house_secrets`` (name, value): the session key that servers without ``SECRET_KEY`` in their
  environment share (an existing install's ``instance/secret_key`` is moved there at its next
  start, so its sessions and seat cookies stay valid), or a fingerprint of the ``SECRET_KEY``
  the servers' environment sets (app/store/credentials.py).

Revision ID: e5b91c3a7d20
Revises: a9d3e5f7b210
Create Date: 2026-11-28 10:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'e5b91c3a7d20'
down_revision = 'a9d3e5f7b210'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('uploaded_decks',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=16), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('content', sa.LargeBinary(), nullable=True),
    sa.Column('changed_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game', 'name')
    )
    op.create_table('house_secrets',
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('value', sa.String(length=200), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )


def downgrade():
    op.drop_table('house_secrets')
    op.drop_table('uploaded_decks')

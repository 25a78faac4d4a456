"""games of any kind: games.kind, options, initial_state, deck_cards; game_stats

Reviewed: the table hosts several games. Every existing row is a Mason Rummy game:
``kind`` gets the server default 'mason' and ``options`` '{}', so every stored game stays
playable as it was. ``initial_state`` (the state as dealt, for replays) stays NULL for old games:
they cannot be replayed, and nothing else needs it. ``headline`` (where a game stands, for
Menu A's list) is written with every saved state; old rows get theirs from their state here. ``deck_cards`` is filled from each Mason
Rummy state's ``stacked_deck`` (the codes, space separated), so a rematch of an old stacked game
still deals the same deck. ``game_stats`` holds per-name statistics of the other games (a JSON
object of figures a row); Mason Rummy's R7.4 ``scores`` table is unchanged. Three columns that were written
but never read go: ``games.players`` (the seats say it), ``seats.claimed_at`` and
``seats.last_seen_at``. SQLite copies the two tables once through batch mode; PostgreSQL alters
them in place; the data step reads and writes one row at a time.

Revision ID: 3b1f0c2d9a71
Revises: 5e03c6a6f98e
Create Date: 2026-11-22 19:00:00

"""
import json

from alembic import op
import sqlalchemy as sa


revision = '3b1f0c2d9a71'
down_revision = '5e03c6a6f98e'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kind', sa.String(length=16), server_default='mason', nullable=False))
        batch_op.add_column(sa.Column('options', sa.Text(), server_default='{}', nullable=False))
        batch_op.add_column(sa.Column('initial_state', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('deck_cards', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('headline', sa.String(length=120), nullable=True))
        batch_op.drop_column('players')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('claimed_at')
        batch_op.drop_column('last_seen_at')

    games = sa.table('games', sa.column('id', sa.Integer), sa.column('state', sa.Text),
                     sa.column('deck_cards', sa.Text), sa.column('headline', sa.String))
    connection = op.get_bind()
    for game_id, state in connection.execute(sa.select(games.c.id, games.c.state)).all():
        try:
            data = json.loads(state)
            stacked = data.get('stacked_deck')
            labels = [player['name'] for player in data['players']]
            turn = labels[int(data['turn'])]
            playing = data.get('phase') in ('draw', 'play')
            headline = f"Round {int(data['round'])} of 3" + (f", {turn}'s turn" if playing else "")
        except (ValueError, AttributeError, KeyError, IndexError, TypeError):
            continue
        connection.execute(games.update().where(games.c.id == game_id).values(
            deck_cards=' '.join(stacked) if stacked else None, headline=headline[:120]))

    op.create_table('game_stats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=16), nullable=False),
    sa.Column('name', sa.String(length=24), nullable=False),
    sa.Column('name_key', sa.String(length=100), nullable=False),
    sa.Column('figures', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game', 'name_key')
    )


def downgrade():
    op.drop_table('game_stats')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_seen_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('claimed_at', sa.DateTime(), nullable=True))
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('players', sa.Integer(), server_default='2', nullable=False))
        batch_op.drop_column('headline')
        batch_op.drop_column('deck_cards')
        batch_op.drop_column('initial_state')
        batch_op.drop_column('options')
        batch_op.drop_column('kind')

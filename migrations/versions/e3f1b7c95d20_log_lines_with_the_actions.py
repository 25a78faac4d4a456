"""The log's lines are kept with the actions: actions.events and actions.line, games.opening_log

Each applied action's log lines (its ``Outcome.events``) are stored in its row (``events``, JSON)
with the line number of the first of them (``line``, indexed with the game, so that the whole
game's log is read a page at a time), and a game's state keeps only its log's last lines and
compact facts of the older ones: a state is as large after 20,000 actions as after 100.
``games.opening_log`` holds the lines no action row holds: the deal's.

Games stored before hold every line of their log in their state. The upgrade copies that list as
it is into ``opening_log`` (plain JSON: no game's rules run here, so this revision works whatever
the rules become), and their rows keep ``events`` and ``line`` null. Nothing is replayed: a game
stored before replays were kept has no state as dealt to replay from, and its lines are kept all
the same. Such a game's state is still read as it is (every game's ``from_dict`` reads a whole
log too) and is written the new way at its next action, whose lines are numbered on from the
copied ones. Its snapshots are read as they are.

Revision ID: e3f1b7c95d20
Revises: e5b91c3a7d20
Create Date: 2026-11-29 10:00:00

"""
import json

from alembic import op
import sqlalchemy as sa


revision = 'e3f1b7c95d20'
down_revision = 'e5b91c3a7d20'
branch_labels = None
depends_on = None

BATCH = 50  # games read at a time (a long game's state stored before this revision is some MB)


def upgrade():
    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('events', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('line', sa.Integer(), nullable=True))
        batch_op.create_index('ix_actions_game_id_line', ['game_id', 'line'], unique=False)
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('opening_log', sa.Text(), nullable=True))
    games = sa.table('games', sa.column('id', sa.Integer()), sa.column('state', sa.Text()),
                     sa.column('opening_log', sa.Text()))
    connection = op.get_bind()
    last = 0
    while True:
        rows = connection.execute(sa.select(games.c.id, games.c.state).where(games.c.id > last)
                                  .order_by(games.c.id).limit(BATCH)).all()
        if not rows:
            break
        for game_id, state in rows:
            try:
                data = json.loads(state)
            except (TypeError, ValueError):
                continue  # (not a state any game reads: left as it is)
            lines = data.get("log") if isinstance(data, dict) else None
            if isinstance(lines, list):
                connection.execute(sa.update(games).where(games.c.id == game_id)
                                   .values(opening_log=json.dumps(lines, separators=(",", ":"))))
        last = rows[-1][0]


def downgrade():
    # The lines kept with the actions go; a state keeps its last lines, which the code before
    # this revision reads as the whole log.
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('opening_log')
    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.drop_index('ix_actions_game_id_line')
        batch_op.drop_column('line')
        batch_op.drop_column('events')

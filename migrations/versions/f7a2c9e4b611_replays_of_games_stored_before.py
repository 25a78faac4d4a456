"""Games stored before replays were kept: games.replay_problem and games.log_note

A game stored before replays were kept (the first web version's games) has no state as dealt
(``initial_state``). `make run` rebuilds it after migrating (``flask --app wsgi upgrade``, in
app/serving/upgrades.py) from the seed or stacked deck its state keeps, and checks it by replaying its
stored actions to its stored state. Schema only here: no game's rules run in a migration, so
this revision works whatever the rules become. ``replay_problem`` says why a game could not be
given its deal again (its replay and export then show that reason); ``log_note`` says which
lines its whole game's log holds when they are not every round's.

Revision ID: f7a2c9e4b611
Revises: e3f1b7c95d20
Create Date: 2026-11-26 12:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f7a2c9e4b611'
down_revision = 'e3f1b7c95d20'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('replay_problem', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('log_note', sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('log_note')
        batch_op.drop_column('replay_problem')

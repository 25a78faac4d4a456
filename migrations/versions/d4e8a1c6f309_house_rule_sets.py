"""house_rule_sets: each set of house rules some game was played by, its options in words' reach
(the statistics of each set are kept under the game's key and a digest of its rules)

Revision ID: d4e8a1c6f309
Revises: c1d5e9a3b702
Create Date: 2026-12-07 08:20:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'd4e8a1c6f309'
down_revision = 'c1d5e9a3b702'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'house_rule_sets',
        sa.Column('game', sa.String(length=16), nullable=False),
        sa.Column('definition_key', sa.String(length=16), nullable=False),
        sa.Column('options', sa.Text(), nullable=False),
        sa.Column('first_played_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('game'),
    )
    op.create_index('ix_house_rule_sets_definition_key', 'house_rule_sets', ['definition_key'])


def downgrade():
    op.drop_index('ix_house_rule_sets_definition_key', table_name='house_rule_sets')
    op.drop_table('house_rule_sets')

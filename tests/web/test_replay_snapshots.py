"""Replays read snapshots: a step of a long game is rebuilt from the nearest snapshot before it,
exactly as the whole replay from the deal makes it; snapshots are spaced by the state's size, so
they take space in proportion to the actions; a game keeps at most store.MAX_ACTIONS actions.
Each action row keeps the log lines its action made, so a state (and a snapshot) is as large
after 2,000 actions as after 100."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from app import store
from app.tables import replays
from app.core import registry
from app.core.protocol import LOG_KEPT, copy_log
from app.extensions import db
from app.store.models import HERE, ActionRecord, GameRecord, SeatRecord, Snapshot


def seahaven_actions(state, count: int):
    """``count`` actions of a Seahaven game: a legal card move, then its undo, over and over."""
    definition = state.definition
    for number in range(count):
        if number % 2 == 0:
            move = next(move for move in state.legal(0) if move.action == "move")
            yield definition.action_from_dict(move.as_dict())
        else:
            yield definition.action_from_dict({"action": "undo"})


def stored_game(app, count: int, batch: int, lines: list | None = None) -> tuple[str, list[dict]]:
    """A Seahaven game of ``count`` actions saved ``batch`` at a time (all at once if 0), and the
    state after each step, from the deal (index 0) on. ``lines``: given, every line of the game's
    log is added to it."""
    definition = registry.get("seahaven")
    state = definition.new_state(["Ann"], seed=11)
    states = [state.to_dict()]
    lines = lines if lines is not None else []
    lines += copy_log(state.log)
    with app.app_context():
        record = store.new_record(definition, definition.from_dict(state.to_dict()), options={})
        record.seats.append(SeatRecord(number=0, name="Ann", device=HERE))
        outcomes = []
        for action in seahaven_actions(state, count):
            outcomes.append(state.apply(0, action))
            lines += copy_log(outcomes[-1].events)
            states.append(state.to_dict())
            if batch and len(outcomes) == batch and record.id is not None:
                store.save_game(store.lock_game(record.slug), state, outcomes)
                outcomes = []
            elif record.id is None and batch:  # the first action makes the game row
                store.begin_write()
                store.insert_game(record, state, outcomes)
                db.session.commit()
                outcomes = []
        if outcomes or record.id is None:
            if record.id is None:
                store.begin_write()
                store.insert_game(record, state, outcomes)
                db.session.commit()
            else:
                store.save_game(store.lock_game(record.slug), state, outcomes)
        return record.slug, states


@pytest.mark.parametrize("batch", [1, 7, 0])
def test_every_step_from_a_snapshot_is_the_step_of_the_whole_replay(app, batch):
    slug, states = stored_game(app, 650, batch)
    with app.app_context():
        record = store.find_game(slug)
        assert record.steps == 650
        kept = db.session.execute(sa.select(Snapshot.step, Snapshot.version).where(Snapshot.game_id == record.id)
                                  .order_by(Snapshot.step)).all()
        assert kept, "a 650-action game keeps snapshots"
        assert all(later.step - earlier.step >= store.SNAPSHOT_EVERY for earlier, later in zip(kept, kept[1:]))
        for step in (0, 1, 99, 100, 101, 250, kept[0].step, kept[-1].step, 649, 650, 10**6):
            state, made, total = replays.state_at(record, step)
            wanted = min(step, 650)
            assert total == 650 and state.to_dict() == states[wanted], step
            assert (made is None) == (wanted == 0) and (made is None or made.number == wanted)
        # the steps a table shows one after another: the versions after 400 up to 412
        shown = [(step.version, state.to_dict()) for step, state in replays.steps_between(record, 400, 412)]
        first_version = record.version - 650  # (the deal's version: every action made one more)
        assert shown == [(version, states[version - first_version]) for version in range(401, 413)]


def test_each_action_row_keeps_the_log_lines_it_made_numbered_on_from_the_deal(app):
    lines: list = []
    slug, _states = stored_game(app, 650, 7, lines)
    with app.app_context():
        record = store.find_game(slug)
        rows = db.session.execute(sa.select(ActionRecord.line, ActionRecord.events).where(
            ActionRecord.game_id == record.id).order_by(ActionRecord.version)).all()
        assert len(rows) == 650 and json.loads(record.opening_log) == lines[:rows[0].line]
        stored = json.loads(record.opening_log)
        for row in rows:
            assert row.line == len(stored)
            stored += json.loads(row.events)
        assert stored == lines and store.load_state(record).log_total == len(lines)
        for start, end in ((0, 5), (0, len(lines)), (1, 2), (95, 205), (648, 700), (len(lines) - 3, len(lines)),
                           (len(lines), len(lines) + 10)):
            assert store.log_lines(record, start, end) == lines[start:end], (start, end)


def test_a_state_is_as_large_after_2000_actions_as_after_100(app):
    sizes = {}
    for count in (100, 2000):
        slug, states = stored_game(app, count, 50)
        with app.app_context():
            record = store.find_game(slug)
            snapshots = db.session.scalars(sa.select(sa.func.length(Snapshot.state))
                                           .where(Snapshot.game_id == record.id)).all()
            sizes[count] = (len(record.state), max(snapshots))
            assert len(store.load_state(record).log) == LOG_KEPT
    (short_state, short_snapshot), (long_state, long_snapshot) = sizes[100], sizes[2000]
    # (a count's digits more; a snapshot may fall between a move and its undo)
    assert long_state <= short_state * 1.05 and long_snapshot <= short_snapshot * 1.05


def test_snapshots_are_spaced_by_the_states_size(app):
    assert store.snapshot_spacing(1000) == store.SNAPSHOT_EVERY
    assert store.snapshot_spacing(1_600_000) == 1_600_000 // store.SNAPSHOT_BYTES_PER_ACTION
    slug, _states = stored_game(app, 1200, 10)
    with app.app_context():
        record = store.find_game(slug)
        sizes = db.session.execute(sa.select(sa.func.count(), sa.func.sum(sa.func.length(Snapshot.state)))
                                   .where(Snapshot.game_id == record.id)).one()
        # linear, not quadratic: about SNAPSHOT_BYTES_PER_ACTION a step at most (a short game: one
        # snapshot every SNAPSHOT_EVERY actions)
        assert sizes[0] <= 1200 // store.SNAPSHOT_EVERY
        assert sizes[1] <= 1200 * max(store.SNAPSHOT_BYTES_PER_ACTION, len(record.state) // store.SNAPSHOT_EVERY)


def test_a_game_keeps_at_most_max_actions_and_its_table_says_so(app, player, monkeypatch):
    slug = player.start_game(["Ann", "AI"], deck="quick_out.deck")
    with app.app_context():
        steps = store.find_game(slug).steps
    monkeypatch.setattr(store, "MAX_ACTIONS", steps)
    game, version = player.state(slug)
    from support.moves import sensible_move

    response = player.play(slug, sensible_move(game), version=version)
    assert response.status_code == 409
    from support.web import Page

    alerts = " ".join(Page(response.get_data(as_text=True)).alerts)
    assert "the most one game keeps" in alerts and "cannot go on" in alerts
    with app.app_context():
        assert store.find_game(slug).version == version  # nothing applied
    # the table says so before anyone tries
    assert "cannot go on" in " ".join(Page(player.get(f"/games/{slug}").get_data(as_text=True)).alerts)


def test_the_export_streams_the_stored_actions_without_replaying_them(app, player, monkeypatch):
    slug, states = stored_game(app, 300, 50)
    with app.app_context():
        record = store.find_game(slug)
        record.status = "finished"
        db.session.execute(sa.update(GameRecord.__table__).where(GameRecord.id == record.id)
                           .values(status="finished", results="[]"))
        db.session.commit()
    monkeypatch.setattr(store, "replay", lambda *args: pytest.fail("an export replays nothing"))
    monkeypatch.setattr(replays, "EXPORT_SLICE", 7)
    response = player.get(f"/games/{slug}/export.json")
    assert response.status_code == 200 and response.is_streamed
    data = json.loads(response.get_data(as_text=True))
    assert len(data["actions"]) == 300 and data["initial_state"] == states[0]
    assert data["actions"][1] == {"seat": 0, "action": {"action": "undo"}}

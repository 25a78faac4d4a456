"""The exact expected return of hitting and staying at 21 (``expectation``), against a brute force
that plays the rule book's round on every order of the unseen cards (T3.2-T3.4, T3.6)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from twentyone_brute import best

from app.games.twentyone.expectation import Position, expectation, most_draws


def random_position(rng):
    values = [value for value in range(1, 11) for _ in range(16 if value == 10 else 4)]
    rng.shuffle(values)
    up = values.pop()
    unseen = values[:rng.randint(2, 6)]
    face_up = values[len(unseen):len(unseen) + rng.randint(3, 6)]  # a small discard pile keeps it brute
    return rng.randint(8, 20), up, unseen, rng.randint(0, len(unseen) - 1), face_up


def test_the_expectation_equals_the_brute_force_on_random_small_positions_refills_included():
    rng = random.Random(5)
    refills = 0
    for _ in range(30):
        total, up, unseen, deck, face_up = random_position(rng)
        stay, hit = best(total, up, unseen, deck, face_up)
        counts = Counter(unseen)
        discards = Counter(face_up)
        exact = expectation(Position(total, up, tuple(counts[v] for v in range(1, 11)), deck,
                                     tuple(discards[v] for v in range(1, 11))))
        assert (exact.stay, exact.hit) == (pytest.approx(float(stay), abs=1e-12), pytest.approx(float(hit), abs=1e-12))
        refills += deck < 3
    assert refills >= 8  # the refill's recursion was checked too


def test_on_11_or_less_hitting_is_never_worse_while_the_deck_cannot_run_out():
    rng = random.Random(8)
    checked = 0
    while checked < 25:
        values = [value for value in range(1, 11) for _ in range(16 if value == 10 else 4)]
        rng.shuffle(values)
        up, unseen, total = values[0], values[1:rng.randint(5, 8)], rng.randint(4, 11)
        counts = Counter(unseen)
        position = Position(total, up, tuple(counts[v] for v in range(1, 11)), len(unseen) - 1)
        if position.deck < most_draws(position):
            continue  # a refill may come: no such argument (the expectation works it out)
        stay, hit = best(total, up, unseen, position.deck, [])
        assert hit >= stay
        assert expectation(position).hit == pytest.approx(float(hit), abs=1e-12)
        checked += 1
    # ...so the strong player hits there without working it out, as the whole expectation says
    exact = expectation(Position(4, 2, (4, 4, 4, 4, 4, 4, 4, 4, 4, 16), 48))
    assert exact.hits and exact.hit - exact.stay > 0.1

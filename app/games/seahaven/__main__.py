"""``python -m app.games.seahaven``: the terminal game (S4); ``... solve``: the solver (S5.1)."""

from .terminal import run

if __name__ == "__main__":
    run()

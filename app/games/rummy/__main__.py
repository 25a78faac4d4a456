"""``python -m app.games.rummy``: Classic Rummy in the terminal (C8); see ``terminal.py``."""

import sys

from .terminal import run

if __name__ == "__main__":
    sys.exit(run())

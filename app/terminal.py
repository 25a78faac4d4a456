"""Mason Rummy's original terminal program (R9), by the name it has always had::

    python -m app.terminal            # play
    python -m app.terminal < answers  # replay a file of answers (R9.4)

It is Mason Rummy's terminal game, ``app/games/mason/__main__.py`` (``python -m app.games.mason``).
"""

from __future__ import annotations

import sys

from .games.mason.__main__ import SCORES_FILE, Terminal, TerminalControls, main

__all__ = ["SCORES_FILE", "Terminal", "TerminalControls", "main"]

if __name__ == "__main__":
    sys.exit(main())

"""The rules tests' helpers (``rules_test_helpers``) and the games' shared checks
(``tests/games/game_checks.py``) import by their module names, whatever pytest's import mode:
both folders are on ``sys.path``."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent / "games"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

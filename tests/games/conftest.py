"""The games' test helpers import by their own module names (``rummy_test_helpers``,
``points_helpers``, ``seahaven_brute``, ``game_checks``...), whatever pytest's import mode: this
folder and every game's folder are on ``sys.path`` (each helper module's name is unique)."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
GAME_FOLDERS = sorted(path for path in HERE.iterdir() if path.is_dir() and not path.name.startswith((".", "_")))
for folder in [HERE, *GAME_FOLDERS]:
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

"""The terminal tests' helper (``answer_script``) imports by its module name, whatever pytest's
import mode: this folder is on ``sys.path``."""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

"""Puts this folder on ``sys.path`` so the tests can import ``seahaven_helpers`` and
``seahaven_brute`` (uniquely named: no clash with another folder's helpers)."""

import pathlib
import sys

_HERE = str(pathlib.Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

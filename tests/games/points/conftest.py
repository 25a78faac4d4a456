"""Shared set-up for the Points Rummy tests: the helpers in ``points_helpers.py`` are loaded
under that distinct name, whatever pytest's import mode."""

import importlib.util
import pathlib
import sys

_NAME = "points_helpers"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, pathlib.Path(__file__).with_name("points_helpers.py"))
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = _module
    _spec.loader.exec_module(_module)

"""Loads ``rummy_helpers.py`` as ``rummy_test_helpers`` (a unique name: the suite runs with
``--import-mode=importlib`` and other test folders have helper modules too)."""

import importlib.util
import pathlib
import sys

_NAME = "rummy_test_helpers"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, pathlib.Path(__file__).with_name("rummy_helpers.py"))
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = _module
    _spec.loader.exec_module(_module)

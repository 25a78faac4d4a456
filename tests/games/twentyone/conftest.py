"""Set-up for the tests of 21: ``twentyone_helpers.py`` next to this file is loaded under that
distinct name, whatever pytest's import mode (as tests/rules/conftest.py does)."""

import importlib.util
import pathlib
import sys

_NAME = "twentyone_helpers"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, pathlib.Path(__file__).with_name("twentyone_helpers.py"))
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = _module
    _spec.loader.exec_module(_module)

"""Shared set-up for the rules tests.

The helpers live in ``helpers.py`` next to this file. They are loaded here under the distinct
module name ``rules_test_helpers`` so that test files can ``from rules_test_helpers import ...``
whatever pytest import mode is used, and without clashing with a ``helpers`` module that another
test folder may have.
"""

import importlib.util
import pathlib
import sys

_NAME = "rules_test_helpers"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, pathlib.Path(__file__).with_name("helpers.py"))
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = _module
    _spec.loader.exec_module(_module)

"""Set-up for the reliability and security tests (issue 5).

The helpers live in ``helpers.py`` next to this file; they are loaded here under the distinct
module name ``reliability_helpers`` (as tests/rules does with its helpers), so test files can
``from reliability_helpers import ...`` whatever pytest import mode is used.
"""

import importlib.util
import pathlib
import sys

_NAME = "reliability_helpers"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, pathlib.Path(__file__).with_name("helpers.py"))
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = _module
    _spec.loader.exec_module(_module)

import pytest  # noqa: E402


@pytest.fixture
def db_reader(database_url):
    """A read-only view of the test's database from the test process (the oracle's eyes)."""
    reader = sys.modules[_NAME].DatabaseReader(database_url)
    yield reader
    reader.close()

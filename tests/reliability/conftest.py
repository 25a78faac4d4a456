"""Fixtures of the reliability and security tests; their helpers are the suite's shared ones
(tests/support: the live-server client, the database reader, the move chooser, the cards' oracle
and the figures file)."""

import pytest

from support.databases import DatabaseReader


@pytest.fixture
def db_reader(database_url):
    """A read-only view of the test's database from the test process (the oracle's eyes)."""
    reader = DatabaseReader(database_url)
    yield reader
    reader.close()

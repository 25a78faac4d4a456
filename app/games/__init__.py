"""Every game the table offers, one package each. Importing this registers them all, in the
order the home page lists them; a new game is one more import here."""

from __future__ import annotations

from app.core import registry

registry_of_games = registry  # the doors import app.games, then ask the registry
from . import seahaven  # noqa: F401

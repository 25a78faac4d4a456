"""Every game the table offers, one package each. Importing this registers them all, in the
order the home page lists them; a new game is one more import here."""

from __future__ import annotations

from . import mason  # noqa: F401  (first: the home page's first tile)
from . import rummy  # noqa: F401
from . import twentyone  # noqa: F401
from . import seahaven  # noqa: F401
from . import points  # noqa: F401

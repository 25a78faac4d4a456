"""Writing files so that a crash leaves the old file or the new one, never half of one: the
terminal's and the server's scores.csv, uploaded decks. (The games only make the text.) The one
writer is the core's, which the terminal programs use too."""

from __future__ import annotations

from .core.terminal import write_atomically

__all__ = ["write_atomically"]

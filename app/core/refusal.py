"""A request refused, having changed nothing: what the house's refusals have in common."""

from __future__ import annotations


class Refusal(Exception):
    """``message`` says why, for the person who asked; ``status`` is the HTTP status that
    answers it."""

    status = 400

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status

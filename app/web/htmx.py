"""A tiny helper for htmx requests (like django-htmx's middleware, for Flask)."""

from __future__ import annotations

from flask import request
from flask.wrappers import Response


def is_htmx() -> bool:
    """True for a request htmx made to swap a fragment (not a boosted full-page load)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def vary_on_htmx(response: Response) -> Response:
    """Pages and fragments share URLs, so caches must key on the HX-Request header."""
    response.vary.add("HX-Request")
    return response

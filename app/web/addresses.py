"""The address of the device a request comes from."""

from __future__ import annotations

from flask import request


def client_address() -> str:
    """The device's address: the one the connection comes from, or behind ``TRUSTED_PROXIES``
    the one those proxies forward (Werkzeug's ProxyFix, app/factory.py); a forwarded header is
    never believed otherwise."""
    return (request.remote_addr or "unknown")[:64]

"""The gunicorn worker that serves the table (``--worker-class``, app/serving/serve.py): gevent's,
holding at most ``CONNECTIONS_PER_ADDRESS`` open connections of one client address.

A gevent worker holds 1000 connections (``--worker-connections``); a connection waiting for the
rest of a request holds its place until gunicorn's keep-alive timeout, or for as long as its
body trickles in. Without a cap, one device holding a few thousand such connections filled
every worker and another device's page waited seconds for a place. A connection over the cap
is answered 429 and closed as soon as it is accepted, before any of it is read.

Behind a trusted reverse proxy (``TRUSTED_PROXIES`` above 0) every connection comes from the
proxy: the cap is off, and the proxy limits each device's connections itself (docs/DEPLOY.md).
"""

from __future__ import annotations

import os
import socket
from typing import Any

from gunicorn.workers.ggevent import GeventWorker

from ..settings import number, trusted_proxies

DEFAULT_PER_ADDRESS = "64"
REFUSAL = ("This device has too many connections open to the card table: close a few tabs, "
           "or wait a moment.\n").encode()
REFUSED = (b"HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n"
           b"Retry-After: 5\r\nContent-Length: " + str(len(REFUSAL)).encode() + b"\r\n\r\n" + REFUSAL)


def connections_per_address() -> int:
    """The cap on one address's open connections in a worker process; 0: none (behind a proxy,
    or set so)."""
    if trusted_proxies(os.environ.get("TRUSTED_PROXIES")):
        return 0
    return int(number("CONNECTIONS_PER_ADDRESS", DEFAULT_PER_ADDRESS))


class TableWorker(GeventWorker):
    """gunicorn's gevent worker, counting each client address's open connections."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.per_address = connections_per_address()
        self.open_by_address: dict[str, int] = {}

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        address = addr[0] if isinstance(addr, tuple) and addr else None
        if not self.per_address or not isinstance(address, str):
            super().handle(listener, client, addr)
            return
        held = self.open_by_address.get(address, 0)
        if held >= self.per_address:
            refuse(client)
            return
        self.open_by_address[address] = held + 1
        try:
            super().handle(listener, client, addr)
        finally:
            left = self.open_by_address.get(address, 1) - 1
            if left > 0:
                self.open_by_address[address] = left
            else:
                self.open_by_address.pop(address, None)


def refuse(client: Any) -> None:
    """Answer 429 and close, without waiting for the request or for a slow reader. What the
    client sent already is read first: a socket closed with unread bytes is reset, and a reset
    can reach the client before the answer it was sent after."""
    try:
        client.setblocking(False)
        client.send(REFUSED)
        client.shutdown(socket.SHUT_WR)
        for _ in range(16):
            if not client.recv(65536):
                break
    except OSError:  # (BlockingIOError: nothing more has come)
        pass
    finally:
        client.close()

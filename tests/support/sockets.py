"""Raw connections read together: what the server sent each, and which it closed."""

from __future__ import annotations

import selectors
import socket
import time


def read_all(connections: list[socket.socket], seconds: float) -> tuple[dict[socket.socket, bytes], set[socket.socket]]:
    """Read every connection for ``seconds`` at most (less once the server closed them all):
    the bytes each received, and the ones the server closed."""
    selector = selectors.DefaultSelector()
    received = {connection: b"" for connection in connections}
    closed: set[socket.socket] = set()
    for connection in connections:
        connection.setblocking(False)
        selector.register(connection, selectors.EVENT_READ)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and len(closed) < len(connections):
        for key, _ in selector.select(timeout=max(0.0, deadline - time.monotonic())):
            try:
                data = key.fileobj.recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                data = b""
            received[key.fileobj] += data
            if not data:
                closed.add(key.fileobj)
                selector.unregister(key.fileobj)
    selector.close()
    return received, closed

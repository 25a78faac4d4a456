"""The client's connection, where an answer must end it."""

from __future__ import annotations

import socket

from flask import Response, request


def close_connection_after(response: Response) -> Response:
    """Close the client's connection once ``response`` is sent. gunicorn keeps a connection
    open for the next request (``--keep-alive``, 5 s) and drops a ``Connection: close`` header
    set by the app, so a client refused hundreds of streams would otherwise hold that many of
    the worker's connections for seconds, idle: the socket is shut down instead."""
    sock = request.environ.get("gunicorn.socket")
    if sock is not None:
        def shut() -> None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

        response.call_on_close(shut)
    return response

"""Input every route shares, checked once before any view runs: no path, text field or query
string holds a control character (a NUL, which PostgreSQL refuses in text, is the worst of
them), a body the server cannot read is the client's error, and whole numbers read from a query
string stay within bounds a database can hold.

A refused request gets 400 (404 for a path: it names nothing here) and a page that says what was
wrong, before any query is made."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, overload

from flask import Flask, request
from flask_babel import gettext
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadRequest

from .error_pages import render_error

# C0 controls and DEL. Tab, line feed and carriage return are text a form may carry (a pasted
# line); everything else here is nothing a person types.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# In a path, no control character at all: no address of this site holds one.
PATH_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# The largest whole number a query string gives a view: far beyond any page, step or version
# (a game keeps at most store.MAX_ACTIONS actions), far below a 64-bit integer.
MAX_NUMBER = 10**9


def bad_field() -> str | None:
    """The name of the first query or form field (or field name) holding a control character,
    or None. File uploads are not text fields: each upload is checked by what reads it."""
    for source in (request.args, request.form if request.method == "POST" else None):
        if source is None:
            continue
        for key, values in source.lists():
            if CONTROL.search(key):
                return gettext("a field's name")
            for value in values:
                if CONTROL.search(value):
                    return f"“{CONTROL.sub('', key)[:40]}”"
    return None


def nameless_field() -> bool:
    """Whether the form has a field without a name (a multipart part may have none)."""
    return request.method == "POST" and any(not isinstance(key, str) for key in (*request.form, *request.files))


class UnreadableBody(BadRequest):
    """A request whose body cannot be read as it is framed: a chunk size that is no number, a
    body cut short. Said by whatever reads the body first (a form, the CSRF check)."""

    description = ("What was sent could not be read: the request's body was cut short or badly framed. "
                   "Send it again; nothing was changed.")


class CheckedBody:
    """A request body (``wsgi.input``) whose read errors are the client's: the server's reader
    raises what it meets in the bytes (gunicorn: ``InvalidChunkSize``, ``NoMoreData``...), which
    would otherwise end the request as a server error."""

    def __init__(self, stream: Any):
        self.stream = stream

    def _read(self, method: Callable[..., Any], *args: Any) -> Any:
        try:
            return method(*args)
        except Exception as error:
            raise UnreadableBody() from error

    def read(self, *args: Any) -> bytes:
        data: bytes = self._read(self.stream.read, *args)
        return data

    def readline(self, *args: Any) -> bytes:
        line: bytes = self._read(self.stream.readline, *args)
        return line

    def readlines(self, *args: Any) -> list[bytes]:
        lines: list[bytes] = self._read(self.stream.readlines, *args)
        return lines

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.readline, b"")


class CheckedBodies:
    """The WSGI app with every request's body read through ``CheckedBody``."""

    def __init__(self, app: Callable[..., Any]):
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        stream = environ.get("wsgi.input")
        if stream is not None:
            environ["wsgi.input"] = CheckedBody(stream)
        return self.app(environ, start_response)


def bad_path() -> bool:
    """Whether the path (as decoded from its percent escapes) holds a control character."""
    return PATH_CONTROL.search(request.path) is not None


@overload
def whole_number(name: str, default: int, *, low: int = -MAX_NUMBER, high: int = MAX_NUMBER) -> int: ...


@overload
def whole_number(name: str, default: None = None, *, low: int = -MAX_NUMBER,
                 high: int = MAX_NUMBER) -> int | None: ...


def whole_number(name: str, default: int | None = None, *, low: int = -MAX_NUMBER,
                 high: int = MAX_NUMBER) -> int | None:
    """The query string's whole number ``name``, clamped to ``low``..``high`` (``default`` if it
    is missing or not a number): a page number of 20 digits is the last page asked for, not an
    integer the database cannot hold."""
    value = request.args.get(name, type=int)
    if value is None:
        return default
    return max(low, min(high, value))


def local_path(target: object) -> str | None:
    """``target`` if it is a path of this site (a "next" or "back" field), else None: an address
    elsewhere, or one a browser could read as elsewhere (``//host``, ``/\\host``), is none."""
    if not isinstance(target, str) or not target.startswith("/") or target.startswith(("//", "/\\")):
        return None
    if "\\" in target or len(target) > 300 or any(char.isspace() for char in target):
        return None
    return target


def register(app: Flask) -> None:
    app.wsgi_app = CheckedBodies(app.wsgi_app)  # type: ignore[method-assign]

    @app.before_request
    def refuse_control_characters() -> ResponseReturnValue | None:
        if bad_path():
            return render_error(404, gettext("There is nothing here: the address holds an invisible control character."))
        try:
            if nameless_field():
                return render_error(400, gettext("What was sent holds a field without a name, which this table "
                                                 "does not read. Nothing was changed."))
            where = bad_field()
        except UnicodeDecodeError:  # a raw byte that is no UTF-8 in the query (a browser escapes it)
            return render_error(400, gettext("The address holds a character this table cannot read as text. "
                                             "Nothing was changed."))
        if where is not None:
            return render_error(400, gettext("What was sent holds an invisible control character (in %(where)s), "
                                             "which this table does not read. Type it again as plain text; "
                                             "nothing was changed.", where=where))
        return None

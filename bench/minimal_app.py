"""The baseline the web benchmarks measure the card table against (not part of the app): a minimal
Flask + Flask-SQLAlchemy app, served by ``bench/harness.py``'s ``baseline_server`` with the very
gunicorn settings ``make run`` uses (``app.serving.serve.gunicorn_command``: gevent workers, WORKERS=2).

    POST /row/<name>              one small write: read one row, bump its number, commit; no session,
                                  no CSRF check, no template (bench/load.py, memory.py)
    POST /games/<name>/bump       the same write, then the new number published to every open stream
                                  of that row (bench/live.py)
    GET  /games/<name>/events     a Server-Sent Events stream of that row's numbers, in the card
                                  table's format (``retry:``, then ``id``/``event: changed``/``data``)
    GET  /                        "ok" (the launcher waits for it)

SQLite in WAL mode with ``synchronous=NORMAL``, as the card table keeps its own file: the same
storage terms. With several worker processes a publish must reach the streams held by the
others: each process listens on an abstract Unix datagram socket named by a file in a folder
beside the database (``MINIMAL_BELLS``), the least a multi-process SSE publish needs.

``python bench/minimal_app.py DATABASE_FILE`` creates the database (before the server starts).
"""

from __future__ import annotations

import os
import socket
import sys
import threading

import sqlalchemy as sa
from flask import Flask, Response, request
from flask_sqlalchemy import SQLAlchemy

DATABASE = os.environ.get("MINIMAL_DATABASE", "/tmp/minimal-bench.db")
BELLS = os.environ.get("MINIMAL_BELLS", DATABASE + ".bells")
ROWS = 1000  # rows "r0" ... "r999"

app = Flask(__name__)
app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{DATABASE}"
db = SQLAlchemy(app)


class Row(db.Model):
    __tablename__ = "rows"
    name = db.Column(db.String(16), primary_key=True)
    number = db.Column(db.Integer, nullable=False, default=0)


with app.app_context():
    @sa.event.listens_for(db.engine, "connect")
    def _pragmas(connection, _record):
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA busy_timeout = 5000")
        cursor.close()


def write(name: str) -> int:
    row = db.session.get(Row, name)
    if row is None:
        return -1
    row.number += 1
    db.session.commit()
    return row.number


@app.get("/")
def index():
    return "ok"


@app.post("/row/<name>")
def row(name: str):
    number = write(name)
    return (str(number), 200) if number >= 0 else ("no such row", 404)


# -- streams ------------------------------------------------------------------------------------

changed = threading.Condition()
latest: dict[str, int] = {}
bell: socket.socket | None = None
bell_lock = threading.Lock()


def heard(name: str, number: int) -> None:
    with changed:
        if number > latest.get(name, -1):
            latest[name] = number
            changed.notify_all()


def listen() -> None:
    """This process's doorbell: the other processes' publishes arrive here."""
    while True:
        data = bell.recv(256).decode()
        name, _, number = data.partition(" ")
        heard(name, int(number))


def ensure_bell() -> None:
    global bell
    with bell_lock:
        if bell is not None:
            return
        os.makedirs(BELLS, exist_ok=True)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(f"\0minimal-bench-{os.getpid()}-{abs(hash(BELLS))}")
        open(os.path.join(BELLS, str(os.getpid())), "w").close()
        bell = sock
        threading.Thread(target=listen, daemon=True).start()


@app.post("/games/<name>/bump")
def bump(name: str):
    ensure_bell()
    number = write(name)
    if number < 0:
        return "no such row", 404
    heard(name, number)
    message = f"{name} {number}".encode()
    for pid in os.listdir(BELLS):
        if pid != str(os.getpid()):
            try:
                bell.sendto(message, f"\0minimal-bench-{pid}-{abs(hash(BELLS))}")
            except OSError:
                pass
    return str(number)


@app.get("/games/<name>/events")
def events(name: str):
    ensure_bell()
    since = request.args.get("v", type=int)
    if name not in latest:
        known = db.session.get(Row, name)
        heard(name, known.number if known is not None else 0)
    db.session.remove()  # a stream holds no connection

    def stream():
        sent = since
        yield "retry: 1000\n\n"
        while True:
            with changed:
                while sent is not None and latest.get(name, 0) <= sent:
                    if not changed.wait(15):
                        break
                number = latest.get(name, 0)
            if sent is None or number > sent:
                sent = number
                yield f"id: {number}\nevent: changed\ndata: {number}\n\n"
            else:
                yield ": still here\n\n"

    return Response(stream(), mimetype="text/event-stream", headers={"Cache-Control": "no-cache"})


def create(path: str) -> None:
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        connection.exec_driver_sql("PRAGMA journal_mode = WAL")
        Row.__table__.create(connection, checkfirst=True)
        connection.execute(sa.insert(Row.__table__), [{"name": f"r{n}", "number": 0} for n in range(ROWS)])
    engine.dispose()


if __name__ == "__main__":
    create(sys.argv[1])

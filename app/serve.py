"""Serve the card table on the local network with gunicorn (`make run` calls this).

gevent workers hold many open connections at once (every table keeps an event stream open).
PORT (default 5000) and WORKERS (default 2) come from the environment.
"""

from __future__ import annotations

import os
import socket
import sys

from config import setting

from . import PROJECT_ROOT


def lan_address() -> str:
    """This machine's address on the LAN (no packet is sent: UDP connect only picks a route)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def port_in_use(port: int) -> bool:
    """Whether another program already listens on ``port`` (on any interface), checked the way
    gunicorn will bind it."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        probe.bind(("0.0.0.0", port))
    except OSError:
        return True
    finally:
        probe.close()
    return False


def main() -> None:
    port = int(os.environ.get("PORT", "5000"))
    workers = int(os.environ.get("WORKERS", "2"))
    if port_in_use(port):
        print(f"\n  Port {port} is already in use: is the table (or another server) already running?"
              f"\n  Stop it, or serve on another port: make run PORT={port + 1}\n", file=sys.stderr, flush=True)
        sys.exit(1)
    address = lan_address()
    public_url = setting("PUBLIC_URL") or f"http://{address}:{port}"
    os.environ["CARD_TABLE_PUBLIC_URL"] = public_url
    os.environ["CARD_TABLE_SERVING"] = "1"  # the workers leave out the `flask db` commands (config.py)

    # Create the secret key and (if not set in the environment) the admin password before the
    # workers start, so the password is printed once, here.
    from .secrets import ensure_admin_password, ensure_secret_key

    instance = setting("INSTANCE") or os.path.join(PROJECT_ROOT, "instance")
    os.makedirs(instance, exist_ok=True)
    ensure_secret_key(instance)
    if not os.environ.get("ADMIN_PASSWORD"):
        ensure_admin_password(instance)

    # Printed by the first worker once it serves (app/gunicorn_config.py), not before.
    os.environ["CARD_TABLE_READY_MESSAGE"] = (
        f"\n  The card table is ready. Open {public_url} on any device on this network"
        f"\n  (on this computer: http://127.0.0.1:{port}). Stop with Ctrl+C.\n")
    command = [
        sys.executable, "-m", "gunicorn", "--config", "python:app.gunicorn_config",
        "--worker-class", "gevent", "--workers", str(workers), "--worker-connections", "1000",
        "--bind", f"0.0.0.0:{port}", "--graceful-timeout", "5", "--keep-alive", "5",
        "--chdir", PROJECT_ROOT, "wsgi:app",
    ]
    os.execv(sys.executable, command)


if __name__ == "__main__":
    main()

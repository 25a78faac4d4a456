"""A real nginx in front of live servers, configured by the very file docs/DEPLOY.md gives
(docs/deploy/nginx.conf), with only the servers' and its own addresses changed. Run as the
current user under a temporary prefix (its own pid file, logs and temporary folders)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "docs" / "deploy" / "nginx.conf"


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((path for path in ("/usr/sbin/nginx", "/usr/local/sbin/nginx")
                                          if os.access(path, os.X_OK)), None)


class Nginx:
    def __init__(self, folder: Path, port: int, upstreams: list[str]):
        self.folder = Path(folder)
        self.port = port
        self.upstreams = upstreams
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def site(self) -> str:
        """docs/deploy/nginx.conf with these servers and this port."""
        text = CONFIG.read_text()
        block = re.search(r"upstream card_table \{.*?\n\}", text, re.S).group(0)
        lines = [line for line in block.splitlines() if not re.match(r"\s+server \S+:\d+", line)]
        servers = [f"    server {address} max_fails=1 fail_timeout=10s;" for address in self.upstreams]
        text = text.replace(block, "\n".join(lines[:1] + servers + lines[1:]))
        text, count = re.subn(r"listen 80;", f"listen 127.0.0.1:{self.port};", text)
        assert count == 1, "docs/deploy/nginx.conf has one `listen 80;`"
        return text

    def start(self, timeout: float = 30.0) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "card-table.conf").write_text(self.site())
        temporary = {name: self.folder / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
        for path in temporary.values():
            path.mkdir(exist_ok=True)
        user = "user root;\n" if os.geteuid() == 0 else ""  # (as root, workers would become nobody)
        (self.folder / "nginx.conf").write_text(
            f"{user}worker_processes 1;\npid {self.folder}/nginx.pid;\nerror_log {self.folder}/error.log info;\n"
            "events { worker_connections 1024; }\n"
            "http {\n"
            f"  access_log {self.folder}/access.log;\n"
            f"  client_body_temp_path {temporary['body']};\n  proxy_temp_path {temporary['proxy']};\n"
            f"  fastcgi_temp_path {temporary['fastcgi']};\n  uwsgi_temp_path {temporary['uwsgi']};\n"
            f"  scgi_temp_path {temporary['scgi']};\n"
            f"  include {self.folder}/card-table.conf;\n"
            "}\n")
        binary = nginx_binary()
        check = subprocess.run([binary, "-t", "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
                               capture_output=True, text=True)
        if check.returncode != 0:
            raise RuntimeError(f"nginx refused the configuration:\n{check.stderr}")
        self.process = subprocess.Popen([binary, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"),
                                         "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"nginx did not start:\n{self.error_log()}")

    def error_log(self) -> str:
        try:
            return (self.folder / "error.log").read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGQUIT)
                self.process.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
            self.process = None

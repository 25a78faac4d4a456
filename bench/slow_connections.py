"""Slow connections from one device against another device's home page (a benchmark, not a
test): how much ``--connections`` half-sent requests from one address slow the home page of
another, against the same page loaded while nobody floods, measured in the same run.

    .venv/bin/python bench/slow_connections.py [--connections 2500] [--loads 15] [--repeat 2]

The server is served as `make run` serves the table (bench/harness.py: gunicorn, 2 gevent workers
of 1,000 connections each, SQLite in a temporary folder). The flooding device, 127.0.0.1, keeps
``--connections`` connections open, each with a request whose headers never end: once a second
it adds a header line to each one still open and opens new ones for those the server closed (a
refusal, or gunicorn's keep-alive timeout of 5 s). Another device, 127.0.0.2, loads the home page
``--loads`` times, one every 0.2 s, on a new connection each (as a phone opening the table):

- quiet: nobody floods;
- flood: the flood running for 2 s first, with each worker holding at most CONNECTIONS_PER_ADDRESS
  (64) connections of an address, the table's default (app/serving/workers.py);
- flood without the cap (CONNECTIONS_PER_ADDRESS=0, a server of its own): as the table was.

For each: the home page's median and worst time and the workers' CPU meanwhile, and the flood's
ratio to the quiet run (median) and difference (worst), round by round with the machine's load
average. The flood runs in a process of its own, as another device would. The goal: the flood moves
the median by less than 2x and the worst by less than 1 s. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import multiprocessing
import selectors
import socket
import statistics
import time

import harness  # bench/harness.py: the server and browsers

FLOOD, OTHER = "127.0.0.1", "127.0.0.2"
HALF_SENT = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
WARM_UP_SECONDS = 2.0


class Flood:
    """One device holding ``count`` slow connections: a process of its own (another device; in a
    thread of this one it would take the interpreter's lock from the timed client)."""

    def __init__(self, port: int, count: int):
        self.port, self.count = port, count
        self.stopping = multiprocessing.Event()
        self.opened = multiprocessing.Value("q", 0)
        self.replaced = multiprocessing.Value("q", 0)
        self.process = multiprocessing.Process(target=self.run, daemon=True)

    def start(self) -> "Flood":
        self.process.start()
        return self

    def run(self) -> None:
        held: set[socket.socket] = set()
        while not self.stopping.is_set():
            started = time.monotonic()
            self.drop_closed(held)
            self.top_up(held)
            self.stopping.wait(max(0.0, 1.0 - (time.monotonic() - started)))
        for connection in held:
            connection.close()

    def top_up(self, held: set[socket.socket]) -> None:
        while len(held) < self.count and not self.stopping.is_set():
            try:
                connection = socket.create_connection(("127.0.0.1", self.port), timeout=5, source_address=(FLOOD, 0))
                connection.sendall(HALF_SENT)
                connection.setblocking(False)
            except OSError:
                time.sleep(0.01)
                continue
            held.add(connection)
            self.opened.value += 1

    def drop_closed(self, held: set[socket.socket]) -> None:
        """Forget the connections the server answered or closed (and say more on the others)."""
        selector = selectors.DefaultSelector()
        for connection in held:
            selector.register(connection, selectors.EVENT_READ)
        for key, _ in selector.select(timeout=0):
            connection = key.fileobj
            try:
                connection.recv(65536)
            except OSError:
                pass
            held.discard(connection)
            connection.close()
            self.replaced.value += 1
        selector.close()
        for connection in list(held):
            try:
                connection.send(b"X-Slow: 1\r\n")
            except OSError:
                held.discard(connection)
                connection.close()

    def stop(self) -> None:
        self.stopping.set()
        self.process.join(30)


def home_page_times(server: harness.LiveServer, loads: int) -> list[float]:
    """The other device's home page, ``loads`` times, 0.2 s apart: seconds each (from the
    connection's start to the whole page)."""
    times = []
    for _ in range(loads):
        browser = harness.Browser(server.url, timeout=60, source=OTHER)
        started = time.perf_counter()
        response = browser.get("/")
        times.append(time.perf_counter() - started)
        if response.status != 200:
            raise RuntimeError(f"the home page answered {response.status}")
        time.sleep(0.2)
    return times


def flooded(server: harness.LiveServer, connections: int, loads: int) -> tuple[list[float], Flood, float]:
    """The home page's times under the flood, the flood, and the workers' CPU meanwhile (a share
    of one core)."""
    flood = Flood(server.port, connections).start()
    try:
        time.sleep(WARM_UP_SECONDS)
        before, started = server.cpu_seconds(), time.monotonic()
        times = home_page_times(server, loads)
        return times, flood, (server.cpu_seconds() - before) / (time.monotonic() - started)
    finally:
        flood.stop()


def quiet_times(server: harness.LiveServer, loads: int) -> tuple[list[float], float]:
    before, started = server.cpu_seconds(), time.monotonic()
    times = home_page_times(server, loads)
    return times, (server.cpu_seconds() - before) / (time.monotonic() - started)


def ms(seconds: float) -> str:
    return f"{1000 * seconds:.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=2500)
    parser.add_argument("--loads", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"Slow connections: {args.connections} half-sent requests from {FLOOD}, the home page from {OTHER} "
          f"{args.loads} times (2 gevent workers of 1,000 connections)")
    ratios, differences = [], []
    for number in range(args.repeat):
        capped = harness.bench_server(2, prefix="mason-slow-")
        uncapped = harness.bench_server(2, prefix="mason-slow-uncapped-", env={"CONNECTIONS_PER_ADDRESS": "0"})
        try:
            capped.start()
            quiet, quiet_cpu = quiet_times(capped, args.loads)
            flood_times, flood, flood_cpu = flooded(capped, args.connections, args.loads)
            capped.stop()
            uncapped.start()
            bare_times, bare, bare_cpu = flooded(uncapped, args.connections, args.loads)
        finally:
            capped.stop()
            uncapped.stop()
        median, worst = statistics.median(flood_times), max(flood_times)
        ratios.append(median / statistics.median(quiet))
        differences.append(worst - max(quiet))
        print(f"  round {number + 1} (load average {harness.load_average()}):")
        print(f"    quiet:                  median {ms(statistics.median(quiet))}, worst {ms(max(quiet))}; "
              f"workers' CPU {100 * quiet_cpu:.0f}% of a core")
        print(f"    flood, 64 per address:  median {ms(median)}, worst {ms(worst)}; workers' CPU "
              f"{100 * flood_cpu:.0f}% of a core; {flood.opened.value} connections opened, "
              f"{flood.replaced.value} refused or closed")
        print(f"    flood, no cap:          median {ms(statistics.median(bare_times))}, worst {ms(max(bare_times))}; "
              f"workers' CPU {100 * bare_cpu:.0f}% of a core; {bare.opened.value} connections opened, "
              f"{bare.replaced.value} closed")
        print(f"    flood / quiet: median {ratios[-1]:.2f}x, worst {differences[-1]:+.3f} s "
              f"(no cap: median {statistics.median(bare_times) / statistics.median(quiet):.2f}x, "
              f"worst {max(bare_times) - max(quiet):+.3f} s)")
    print(f"flood / quiet over {args.repeat} rounds: median {max(ratios):.2f}x at most (goal: under 2x), "
          f"worst {max(differences):+.3f} s at most (goal: under 1 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

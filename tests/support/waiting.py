"""Waiting for something another process does (a runner started again, a job answered): the check
is asked again every 50 ms until it gives a true value, which is returned; a test fails with
``what`` named if it has not within ``timeout`` seconds (a generous bound, not a timing)."""

from __future__ import annotations

import time


def wait_for(check, timeout: float = 60.0, what: str = "it"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{what} did not happen within {timeout} s")

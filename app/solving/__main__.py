"""``python -m app.solving``: the job runner (app/solving/runner.py), as `make run` starts it."""

import os
import signal

if os.environ.get("CARD_TABLE_RUNNER_KEPT") or os.environ.get("MASON_RUNNER_KEPT"):
    # Started by a server (runner.main says why it ignores Ctrl+C): ignored before the imports
    # too, or a runner still loading prints a traceback as the server stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)

from .runner import main  # noqa: E402

main()

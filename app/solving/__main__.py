"""``python -m app.solving``: the job runner (app/solving/runner.py), as `make run` starts it."""

from .runner import main

main()

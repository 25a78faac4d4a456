"""Work the house does off the request path: the answers to games' questions that take longer
than a request may wait (Seahaven Towers' solver: "can this still be won?", the hint, a whole
solution), and computer players that think too long for a request (``Bot.off_request``).

Where the work runs: a **job runner**, one process per server (``python -m app.solving``),
started and watched by the gunicorn master of `make run` (app/serving/gunicorn_config.py,
``supervisor``): started again if it dies, stopped with the server, and niced, so the gevent
workers that answer requests come first on a busy machine. No request ever runs a solver: not on
a worker's event loop, not in a thread of it.

How work travels (``kept``, ``runner``, ``bell``):

- a request that meets a position with no kept answer asks its question: a row of ``analyses``
  (the position's key, the question's data, the games waiting for it), in the request's write
  transaction (a move's) or one of its own (a player's page), counted against the client's
  ``SOLVES_PER_MINUTE``; spectators never ask. After the commit it rings the runner (``bell``:
  PostgreSQL ``NOTIFY``, SQLite a datagram), which also looks now and then in case a ring was
  lost or a runner elsewhere died with a question in hand;
- the runner takes the waiting row first in priority order (``claim``: ``SKIP LOCKED`` on
  PostgreSQL, the write lock on SQLite, so each row is worked by one runner of all the servers),
  works it for at most ``SOLVER_SLICE`` positions (then it goes back in the queue behind the
  others, the solver's memo keeping what was found), and gives up past ``SOLVER_BUDGET`` in all
  (the answer is "too hard"); it stores the answer under the position's key and announces it to
  the waiting games' tables (``events.announce(slug, "analysed", key)``), which fetch their table
  again; a page loaded later reads the kept answer;
- every page shows the kept answer of its position, or "checking...": the table never waits.

(This package's ``__init__`` imports nothing: the gunicorn master imports ``supervisor`` alone,
before any worker is forked, and must not load the app. The request side is ``kept``.)
"""

"""What the tests (and the benchmarks) share, each once:

- ``pages``: the one HTML page parser (forms, cards, the own hand, alerts, text, markup);
- ``web``: ``Player``, one browser on the Flask test client, and the set-up forms of a game;
- ``client``: the one HTTP client for live servers (``Browser``, ``EventStream``);
- ``live``: the one launcher of real server processes (``LiveServer``) and ``free_port``;
- ``moves``: the one move chooser, from the game protocol's ``legal()``, for every game;
- ``databases``: a migrated database per test, and ``DatabaseReader`` to read games back;
- ``games``: test decks, score tables and admin helpers, and playing a human seat through the forms.
"""

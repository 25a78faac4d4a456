"""The card table: five card games on one table server, played from every browser on the LAN
and in the terminal.

- ``core``, ``games``: the rules (pure: no Flask, no database), one package per game;
- ``terminal``, ``simulate``: Mason Rummy's original program, and games of computer players;
- ``factory``: ``create_app``, the web app;
- ``web`` (the pages), ``tables`` (the web's one door into the games and their rows), ``store``
  (the rows), ``records`` (score tables and statistics), ``solving`` (work off the request
  path), ``live`` (news to open pages), ``serving`` (the server, the commands, backups).

Importing this package stays light for the games and the terminal programs: nothing here loads
Flask or the database.
"""

"""What the job runner tells the rest of the house; the app's factory connects the listeners
(``create_app``), so the runner knows nothing of tables or pages:

- ``answered`` (slug, key): the answer to question ``key``, which game ``slug`` waits for, is
  kept now (its open tables fetch it);
- ``turn_due`` (slug): a computer player that thinks off the request path is to move at game
  ``slug`` (its table plays the turn);
- ``import_due`` (key, file): an exported game's file waits to be checked (the tables replay it
  through its rules and store it if they accept it); what the listener returns is the verdict,
  kept as the job's answer.
"""

from __future__ import annotations

from blinker import Namespace, Signal

signals = Namespace()
answered: Signal = signals.signal("solver-answered")
turn_due: Signal = signals.signal("turn-due")
import_due: Signal = signals.signal("import-due")

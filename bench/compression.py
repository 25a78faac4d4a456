"""What compressing the table's answers costs (a benchmark, not a test): a table's fragment, its
whole page and the biggest static files, compressed at each brotli quality and with gzip, the
bytes and the CPU time of each, against brotli's quality 4 (flask-compress's default) measured in
the same run.

    .venv/bin/python bench/compression.py [--repeat 200]

The pages are those of a game of Mason Rummy set up through the forms with a stacked deck
(``ai_showcase.deck``) and played 30 moves by the computer player's choices (Ann here, Bob on his
own device), read uncompressed through the app's Flask test client on a migrated SQLite file.
Each compression is timed ``--repeat`` times in this process (``time.process_time``, the median
printed), all of them taking turns. The line marked ``served`` is the quality the app is
configured with (``COMPRESS_BR_LEVEL``). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import brotli

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# The biggest static files: htmx (its file is named by its version), the house's style and script.
STATIC_FILES = [*sorted(path.relative_to(ROOT).as_posix() for path in ROOT.glob("static/js/htmx-[0-9]*.min.js")),
                "static/css/app.css", "static/js/app.js"]
QUALITIES = (1, 2, 3, 4, 5)
LIBRARY_DEFAULT = 4  # flask-compress's COMPRESS_BR_LEVEL
MOVES = 30


def pages() -> tuple[dict[str, bytes], int]:
    """The texts to compress, by name, and the brotli quality the app serves with."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from support.databases import migrate
    from support.moves import mover, sensible_move
    from support.web import Player

    from app.factory import create_app
    from config import Config

    folder = Path(tempfile.mkdtemp(prefix="compression-"))
    url = f"sqlite:///{folder}/table.db"
    migrate(url, folder / "instance")
    app = create_app(Config, instance_path=str(folder / "instance"), SQLALCHEMY_DATABASE_URI=url,
                     DECKS_FOLDER=str(ROOT / "tests" / "decks"), ADMIN_PASSWORD="compression")
    host, bob = Player(app), Player(app)
    slug = host.start_game(["Ann", "Bob"], deck="ai_showcase.deck", devices=["here", "own"])
    bob.join_seat(slug, 1)
    for _ in range(MOVES):
        state, version = host.state(slug)
        choice = sensible_move(state)
        if choice is None:
            break
        (bob if mover(state) == 1 else host).play(slug, choice, version=version)
    texts = {"a table's fragment": host.get(f"/games/{slug}/table", htmx=True).get_data(),
             "a table's page": host.get(f"/games/{slug}").get_data()}
    for path in STATIC_FILES:
        texts[path] = (ROOT / path).read_bytes()
    return texts, int(app.config["COMPRESS_BR_LEVEL"])


def cpu_microseconds(compress, data: bytes, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.process_time()
        compress(data)
        times.append(time.process_time() - started)
    return 1e6 * statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=200, help="compressions of each text at each setting")
    args = parser.parse_args()
    texts, served = pages()
    print(f"Compressing the table's answers, median of {args.repeat} each (load average "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}); against brotli {LIBRARY_DEFAULT}, flask-compress's default")
    settings = [(f"brotli {q}", lambda data, q=q: brotli.compress(data, quality=q)) for q in QUALITIES]
    settings.append(("gzip 6", lambda data: gzip.compress(data, compresslevel=6)))
    for name, data in texts.items():
        print(f"  {name}: {len(data)} bytes")
        found = {label: (len(compress(data)), cpu_microseconds(compress, data, args.repeat))
                 for label, compress in settings}
        size_base, time_base = found[f"brotli {LIBRARY_DEFAULT}"]
        for label, (size, micros) in found.items():
            mark = "  (served)" if label == f"brotli {served}" else ""
            print(f"    {label:9} {size:6d} bytes ({size / size_base:.2f}x), {micros:7.1f} us ({micros / time_base:.2f}x){mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

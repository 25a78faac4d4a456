"""The Seahaven Towers table as a real browser shows it (Playwright): the board read from the page,
a game set up through the set-up form, the cards' and the places' buttons."""

from __future__ import annotations


BOARD_JS = """() => {
  const t = document.getElementById('table');
  const text = (el) => el ? el.innerText.replace(/\\s+/g, ' ').trim() : null;
  const cards = (el) => Array.from(el.querySelectorAll('[data-card]'), e => e.dataset.card);
  const top = (el) => cards(el)[0] || null;
  const focused = document.activeElement;
  return {
    version: Number(t.dataset.version),
    columns: Array.from(t.querySelectorAll('.sh-col'), cards),
    cells: Array.from(t.querySelectorAll('.sh-cell'), top),
    foundations: Array.from(t.querySelectorAll('.sh-foundation'), top),
    selected: Array.from(t.querySelectorAll('.sh-src[aria-pressed=true]'), e => e.dataset.card),
    destinations: Array.from(t.querySelectorAll('.sh-to:not([hidden])'), e => e.dataset.to),
    moves: text(t.querySelector('.sh-moves')),
    clock: text(t.querySelector('.sh-clock')),
    mark: text(t.querySelector('.sh-mark')),
    hint: text(t.querySelector('.sh-hint')),
    alert: text(t.querySelector('[role=alert]')),
    results: text(t.querySelector('.results')),
    focused: focused ? (focused.dataset.to || focused.dataset.card || focused.textContent.trim()) : null,
  };
}"""


def board(page) -> dict:
    return page.evaluate(BOARD_JS)


def set_up(device, *, deck: str | None = None, deal: int | None = None, name: str = "Ann") -> str:
    page = device.page
    device.goto("/setup/seahaven")
    page.locator("#name0").fill(name)
    if deal is not None:
        page.locator("#opt-deal").fill(str(deal))
    if deck:
        page.locator(f"input[name=deck][value='{deck}']").check()
    return device.start_set_up_game("#table.game-seahaven")


# htmx is still at work: a table swapped in is not yet wired to htmx until it has settled (a
# button pressed before then posts its form as a plain page, which reloads the page)
HTMX_AT_WORK = "!!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


def wait_past(page, version: int) -> dict:
    page.wait_for_function("""(v) => { const t = document.getElementById('table');
      return !!t && Number(t.dataset.version) > v && !(%s); }""" % HTMX_AT_WORK, arg=version)
    return board(page)


def source(page, card: str):
    return page.locator(f"#table .sh-src[data-card='{card}']")


def destination(page, place: str):
    return page.locator(f"#table .sh-to[data-to='{place}']")


WINNABLE = "\u2713 still winnable"


def wait_for_mark(page, words: str = WINNABLE) -> None:
    """Wait (without reloading) until the "still winnable?" mark says ``words``: the job runner's
    answer arrives through the live update."""
    page.wait_for_function("(w) => { const m = document.querySelector('#table .sh-mark');"
                           " return !!m && m.textContent.trim() === w && !(%s); }" % HTMX_AT_WORK, arg=words)

"""The pages and forms of Seahaven Towers' table as a browser without JavaScript uses them: the
test client's helpers shared by the Seahaven web tests (test_seahaven_table.py,
test_seahaven_solving.py)."""

from __future__ import annotations

from support.web import Page

SHORT_WIN = "short_win.deck"


def set_up(player, *, deal: int | str = 0, classic: bool = False, winnable_only: bool = False, deck: str = "",
           name: str = "Ann") -> str:
    """The set-up form of /setup/seahaven, posted (a checked box follows its hidden "0"); the new
    table's slug."""
    return player.set_up("seahaven", [name], deal=deal, classic=["0", "1"] if classic else "0",
                         winnable_only=["0", "1"] if winnable_only else "0", deck=deck)


def post_fields(player, url: str, fields: list[tuple[str, str]], htmx: bool = False):
    from werkzeug.datastructures import MultiDict

    data = MultiDict(fields)
    if "csrf_token" not in data:
        data.add("csrf_token", player.csrf_token())
    return player.client.post(url, data=data, headers={"HX-Request": "true"} if htmx else {})


def table(player, slug: str, **query) -> Page:
    """The table page, with ``query`` (cards=..., hint=1) as a link or a GET form asks for it."""
    response = player.client.get(f"/games/{slug}", query_string=query)
    assert response.status_code == 200
    return Page(response.get_data(as_text=True))


def form_fields(page: Page, form_id: str) -> list[tuple[str, str]]:
    """The fields a browser sends for the form ``form_id`` (its named inputs, disabled ones left
    out), without the pressed button."""
    form = page.find("form", id=form_id)
    assert form is not None, f"no form #{form_id} on the page"
    return [(element.get("name"), element.get("value") or "") for element in form.iter()
            if element.tag == "input" and element.get("name") and "disabled" not in element.attrs]


def press(player, slug: str, page: Page, button, htmx: bool = True):
    """Press ``button`` (an element of ``page``): its form's fields and its own name and value
    are posted to the form's action, as a browser does."""
    form_id = button.get("form")
    fields = form_fields(page, form_id) + [(button.get("name"), button.get("value"))]
    return post_fields(player, f"/games/{slug}/act", fields, htmx=htmx)


def sources(page: Page) -> dict[str, str]:
    """The cards that may be tapped: place -> card id."""
    return {button.get("data-from"): button.get("data-card") for button in page.find_all("button", "sh-src")}


def shown_destinations(page: Page) -> list[str]:
    return [button.get("data-to") for button in page.find_all("button", "sh-to") if "hidden" not in button.attrs]


def tap(player, slug: str, card: str) -> Page:
    """The first tap: the card's button submits the GET form #sh-pick (``?cards=<id>``)."""
    before = table(player, slug)
    button = next(b for b in before.find_all("button", "sh-src") if b.get("data-card") == card)
    assert button.get("form") == "sh-pick" and button.get("name") == "cards" and button.get("value") == card
    assert before.find("form", id="sh-pick").get("method") == "get"
    return table(player, slug, cards=card)


def move(player, slug: str, card: str, place: str, htmx: bool = True):
    """Tap ``card``, then the destination ``place``; the answer of the move's post."""
    page = tap(player, slug, card)
    button = page.find("button", "sh-to", data_to=place)
    assert button is not None and "hidden" not in button.attrs, (place, shown_destinations(page))
    return press(player, slug, page, button, htmx=htmx)


def plain_button(page: Page, value: str):
    """A button of the dock's #sh-plain form (Undo, Give up, to a foundation) by its value."""
    return next((b for b in page.find_all("button") if b.get("form") == "sh-plain" and b.get("value") == value), None)


def columns_shown(page: Page) -> list[list[str]]:
    return [[element.get("data-card") for element in column.iter() if element.get("data-card")]
            for column in page.find_all("li", "sh-col")]


def win_short_deal(player, slug: str) -> None:
    """short_win.deck through the forms: 2C to cell 1 by two taps, then every card home with the
    dock's "to a foundation" buttons (each one press)."""
    assert move(player, slug, "2C", "c1").status_code == 200
    for _ in range(60):
        page = table(player, slug)
        if page.game_over:
            return
        home = [b for b in page.find_all("button") if b.get("form") == "sh-plain"
                and (b.get("value") or "").startswith("move|from=")]
        assert home, "no card can go home"
        assert press(player, slug, page, home[0]).status_code == 200
    raise AssertionError("short_win.deck was not won")

"""A browser without JavaScript, for scripts that drive the table through HTTP alone
(scripts/serve-check, scripts/lighthouse): forms and their buttons, cookies, redirects; setting
up a game of every game the home page offers and playing one action in each.

Standard library only: scripts/serve-check runs it before anything is installed.
"""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser

GIVING_UP = re.compile(r"give[ _]up|drop|abandon|quit|declare|cancel|undo", re.IGNORECASE)


class CheckFailed(Exception):
    pass


class Form:
    def __init__(self, attrs: dict):
        self.id = attrs.get("id")
        self.method = (attrs.get("method") or "get").lower()
        self.action = attrs.get("action") or ""
        self.fields: list[tuple[str, str]] = []  # hidden and text inputs, checked boxes, selects
        self.texts: list[str] = []  # names of text inputs (a player's name, a code)
        self.buttons: list[tuple[str | None, str | None, str]] = []  # (name, value, label)


class Page(HTMLParser):
    """The forms of a page (inputs and buttons, including those outside a form that name it
    with ``form=``), its links, and the table's version (``data-version``)."""

    def __init__(self, url: str, html: str):
        super().__init__(convert_charrefs=True)
        self.url, self.html = url, html
        self.forms: list[Form] = []
        self.links: list[str] = []
        self.version: int | None = None
        self._open: Form | None = None
        self._button: tuple[Form, str | None, str | None] | None = None
        self._label: list[str] = []
        self._select: tuple[Form, str] | None = None
        self._orphans: list[tuple[str, dict]] = []
        self.feed(html)
        for tag, attrs in self._orphans:  # controls placed outside their form (form="id")
            form = next((f for f in self.forms if f.id == attrs.get("form")), None)
            if form is not None:
                self._control(form, tag, attrs)

    def _owner(self, attrs: dict) -> Form | None:
        if attrs.get("form"):
            return None
        return self._open

    def _control(self, form: Form, tag: str, attrs: dict, label: str = "") -> None:
        if tag == "button":
            if (attrs.get("type") or "submit") == "submit":
                form.buttons.append((attrs.get("name"), attrs.get("value"), label or attrs.get("aria-label") or ""))
            return
        kind = (attrs.get("type") or "text").lower()
        name = attrs.get("name")
        if not name or "disabled" in attrs:
            return
        if kind in ("checkbox", "radio"):
            if "checked" in attrs:
                form.fields.append((name, attrs.get("value", "on")))
        elif kind == "submit":
            form.buttons.append((name, attrs.get("value"), attrs.get("value") or ""))
        else:
            form.fields.append((name, attrs.get("value", "")))
            if kind == "text":
                form.texts.append(name)

    def handle_starttag(self, tag, attrs):
        attrs = {key: (value if value is not None else "") for key, value in attrs}
        if attrs.get("data-version", "").isdigit() and self.version is None:
            self.version = int(attrs["data-version"])
        if tag == "form":
            self._open = Form(attrs)
            self.forms.append(self._open)
        elif tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        elif tag == "button":
            owner = self._owner(attrs)
            if owner is None and attrs.get("form"):
                self._orphans.append((tag, attrs | {"_label": ""}))
                self._button = None
            elif owner is not None:
                self._button = (owner, attrs.get("name"), attrs.get("value"))
                self._label = []
                self._button_attrs = attrs
        elif tag == "input":
            owner = self._owner(attrs)
            if owner is None and attrs.get("form"):
                self._orphans.append((tag, attrs))
            elif owner is not None:
                self._control(owner, tag, attrs)
        elif tag == "select":
            owner = self._owner(attrs)
            if owner is not None and attrs.get("name"):
                self._select = (owner, attrs["name"])
        elif tag == "option" and self._select is not None and "selected" in attrs:
            form, name = self._select
            form.fields.append((name, attrs.get("value", "")))

    def handle_data(self, data):
        if self._button is not None:
            self._label.append(data)

    def handle_endtag(self, tag):
        if tag == "form":
            self._open = None
        elif tag == "button" and self._button is not None:
            form, _name, _value = self._button
            self._control(form, "button", self._button_attrs, " ".join("".join(self._label).split()))
            self._button = None
        elif tag == "select":
            self._select = None

    def form_posting_to(self, pattern: str) -> list[Form]:
        return [form for form in self.forms if form.method == "post" and re.search(pattern, form.action)]


class Browser:
    def __init__(self, base: str):
        self.base = base.rstrip("/")
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
                                                  NoRedirect())

    def request(self, method: str, url: str, fields: list[tuple[str, str]] | None = None) -> tuple[int, str, str]:
        """Status, final URL and body, following redirects (303 after a POST becomes a GET)."""
        url = urllib.parse.urljoin(self.base + "/", url)
        data = urllib.parse.urlencode(fields or []).encode() if method == "POST" else None
        if method == "GET" and fields:
            url += ("&" if "?" in url else "?") + urllib.parse.urlencode(fields)
        first_status = None
        for _hop in range(10):
            request = urllib.request.Request(url, data=data, method=method)
            try:
                with self.opener.open(request, timeout=60) as response:
                    return first_status or response.status, url, response.read().decode("utf-8", "replace")
            except urllib.error.HTTPError as error:
                if error.code in (301, 302, 303, 307, 308):
                    first_status = first_status or error.code
                    url = urllib.parse.urljoin(url, error.headers["Location"])
                    method, data = "GET", None
                    continue
                return error.code, url, error.read().decode("utf-8", "replace")
        raise CheckFailed(f"too many redirects from {url}")

    def get(self, url: str) -> Page:
        status, final, body = self.request("GET", url)
        if status != 200:
            raise CheckFailed(f"GET {url} answered {status}")
        return Page(final, body)

    def submit(self, form: Form, button: tuple | None = None, values: dict | None = None) -> tuple[int, Page]:
        fields = [(name, value) for name, value in form.fields if not values or name not in values]
        fields += list((values or {}).items())
        if button is not None and button[0]:
            fields.append((button[0], button[1] or ""))
        status, final, body = self.request(form.method.upper(), form.action, fields)
        return status, Page(final, body)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


# -- the checks --------------------------------------------------------------------------------


def set_up_menu_game(browser: Browser) -> str:
    """A game's menus (Menu A, its tile's Play on the home page): a 2-player game, whose set-up is
    the one form, Ann and a computer player."""
    home = browser.get("/")
    link = next((link for link in home.links
                 if re.fullmatch(r"/menus/[a-z0-9]+", urllib.parse.urlsplit(link).path)), None)
    if link is None:
        raise CheckFailed("the home page links no game's menus (Menu A)")
    page = browser.get(link)
    menu = next((form for form in page.forms if any(button[0] == "choice" for button in form.buttons)), None)
    choice = next((button for button in menu.buttons if button[1] == "2"), None) if menu else None
    if menu is None or choice is None:
        raise CheckFailed(f"Menu A at {link} has no option 2 (Play 2-player game)")
    _status, page = browser.submit(menu, choice)
    return fill_in_set_up(browser, page)


def set_up_form_game(browser: Browser, link: str, values: dict[str, str] | None = None) -> str:
    """The set-up form at ``link``: Ann and computer players, but for the fields ``values`` gives
    ({"name1": "Bob", "device1": "own"}: Bob joins on his own device)."""
    return fill_in_set_up(browser, browser.get(link), values)


def fill_in_set_up(browser: Browser, page: Page, values: dict[str, str] | None = None) -> str:
    """The set-up form on ``page``, filled in as ``set_up_form_game`` says and sent: the table's path."""
    form = next((f for f in page.form_posting_to(r"/setup/") if any(n.startswith("name") for n in f.texts)), None)
    if form is None:
        raise CheckFailed(f"no set-up form on {page.url}")
    seats = [name for name in form.texts if re.fullmatch(r"name\d+", name)]
    names = {name: ("Ann" if index == 0 else "AI") for index, name in enumerate(seats)}
    start = next((b for b in form.buttons if b[0] != "change_seats"), None)
    _status, page = browser.submit(form, start, names | (values or {}))
    return table_url(page)


def table_url(page: Page) -> str:
    match = re.search(r"/games/([0-9A-Za-z_-]+)$", urllib.parse.urlsplit(page.url).path)
    if not match:
        message = re.search(r'role="alert">([^<]*)', page.html)
        said = message.group(1) if message else page.html[:200]
        raise CheckFailed(f"the set-up did not reach a table (at {page.url}): {said}")
    return urllib.parse.urlsplit(page.url).path


def play_one_action(browser: Browser, table: str) -> str:
    """Press the first move that the server applies: a plain move, else a move of a selected card
    (a card selected the way a page without JavaScript selects it: its link, or its box)."""
    page = browser.get(table)
    before = page.version
    if before is None:
        raise CheckFailed(f"{table} shows no table version")
    # A card is selected by loading the table again with it: a link, or a button of a GET form.
    selections = list(dict.fromkeys(link for link in page.links if "cards=" in link))
    for form in page.forms:
        if form.method == "get":
            selections += [f"{form.action}?cards={urllib.parse.quote(value)}" for name, value, _label in form.buttons
                           if name == "cards" and value]
    pages = [page] + [browser.get(link) for link in selections[:20]]
    for candidate in pages:
        for form in candidate.form_posting_to(r"/act$"):
            cards = [None] + sorted(set(re.findall(r'name="cards" value="([^"]+)"', candidate.html)))[:20]
            for button in form.buttons:
                if GIVING_UP.search(button[2] or "") or GIVING_UP.search(button[1] or ""):
                    continue
                for card in cards:
                    status, after = browser.submit(form, button, {"cards": card} if card else None)
                    if status in (200, 303) and after.version is not None and after.version > before:
                        return f"{button[2] or button[1]}{' ' + card if card else ''}"
                    page = browser.get(table)
                    if page.version != before:
                        raise CheckFailed(f"{table} changed version on a refused move")
    raise CheckFailed(f"no move at {table} was applied")


def set_up_every_game(browser: Browser) -> list[tuple[str, str]]:
    """A game of every game the home page offers, Ann against the computer: (how it was set
    up, its table's path) pairs, Menu A's game first."""
    tables = [("Menu A", set_up_menu_game(browser))]
    home = browser.get("/")
    links = list(dict.fromkeys(link for link in home.links
                               if re.fullmatch(r"/setup/[a-z0-9]+", urllib.parse.urlsplit(link).path)))
    for link in links:
        tables.append((link, set_up_form_game(browser, link)))
    return tables


def check(base: str) -> list[str]:
    """Set up every game and play one action in each: a line per game saying what was played."""
    browser = Browser(base)
    return [f"{how} at {table}: {play_one_action(browser, table)}" for how, table in set_up_every_game(browser)]

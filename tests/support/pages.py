"""The one HTML page parser of the tests and benchmarks: what a test reads on a page or fragment.

``Page(html)`` parses once into a small element tree, then offers what the tests look at:

- forms (``forms``: method, action, hx-post, named inputs, buttons) and every named input of the
  page (``inputs``, ``value(name)``), every button as ``(name, value, text)``;
- the cards shown (every ``data-card`` attribute, in order) and the own hand's checkboxes
  (``hand``: the values of the ``cards`` inputs);
- alerts (the text of every ``role="alert"`` element), and the game's log lines (``log``);
- the table's attributes (``table_version``, ``my_turn``), the form's ``version`` and ``seat``;
- the visible text (scripts and styles left out) and every attribute, for privacy scans
  (``tokens``), and the page's scripts, inline handlers and inline styles, for the content
  security policy;
- ``find_all`` / ``find`` / ``texts`` for any other element or attribute lookup;
- ``card_naming`` / ``names_card``: where raw HTML names a card (its code or its words), and
  ``statistics_rows``: a game's table on the scores page.

Plain standard library (``html.parser``), so the benchmarks can use it without the app.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Iterator

# Elements without an end tag: never parents.
VOID_TAGS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                       "source", "track", "wbr"})
NOT_VISIBLE_TAGS = frozenset({"script", "style"})
# Attributes whose text a screen reader or a tooltip shows.
READ_ALOUD_ATTRIBUTES = ("title", "aria-label", "alt")


def without_tokens(html: str) -> str:
    """The page without its CSRF tokens (random text that could hold any two characters)."""
    html = re.sub(r'name="csrf_token" value="[^"]*"', "", html)
    return re.sub(r"""hx-headers=(?:'[^']*'|"[^"]*")""", "", html)


def card_naming(html: str, code: str, deck) -> str | None:
    """Where ``html`` names the card ``code`` of ``deck`` (a DeckSpec): as a code anywhere (text
    or attribute) or by its words ("nine of Diamonds"), CSRF tokens aside. The text around it,
    or None."""
    html = without_tokens(html)
    label = deck.parse(code).label
    words = label.split("(", 1)[1].rstrip(")") if "(" in label else label
    found = re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])|{re.escape(words)}", html)
    return html[max(0, found.start() - 120):found.end() + 40] if found else None


def names_card(html: str, code: str, deck) -> bool:
    return card_naming(html, code, deck) is not None


SCORE_ROW = re.compile(r'<tr><th scope="row">([^<]+)</th>(.*?)</tr>')
SCORE_CELL = re.compile(r"<td[^>]*>([^<]*)</td>")


def table_rows(html: str) -> list[tuple[str, ...]]:
    """The rows of a scores page's table: (name, each figure as shown), in order."""
    return [(name, *SCORE_CELL.findall(cells)) for name, cells in SCORE_ROW.findall(html)]


def statistics_rows(html: str, key: str) -> dict[str, list[str]]:
    """Game ``key``'s table on its scores page (``/scores/<key>``): name -> its figures as
    shown, in column order."""
    section = html.split(f'id="stats-{key}"', 1)[1].split("<h2", 1)[0]
    return {name: figures for name, *figures in table_rows(section)}


def squeeze(text: str) -> str:
    """Runs of whitespace as one space, no space at the ends (how a browser shows text)."""
    return " ".join(text.split())


def in_a_picture(element: "Element") -> bool:
    """Whether the element is part of a game's picture (``.tile-picture``): cards shown as a
    drawing of the game, the same cards always, of no game at the table."""
    while element is not None:
        if "tile-picture" in (element.attrs.get("class") or "").split():
            return True
        element = element.parent
    return False


def in_the_language_menu(element: "Element") -> bool:
    """Whether the element is part of the footer's language menu (every page's, no page's own
    form: ``forms``, ``buttons`` and ``inputs`` leave it out)."""
    while element is not None:
        if "language-menu" in (element.attrs.get("class") or "").split():
            return True
        element = element.parent
    return False


class Element:
    """One element: its tag, attributes (``None`` for a bare boolean attribute), and children
    (elements and text, in order)."""

    __slots__ = ("tag", "attrs", "children", "parent")

    def __init__(self, tag: str, attrs: dict, parent: "Element | None"):
        self.tag = tag
        self.attrs = attrs
        self.children: list = []
        self.parent = parent

    def get(self, name: str, default=None):
        return self.attrs.get(name, default)

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def iter(self) -> Iterator["Element"]:
        """Every element below this one, in document order."""
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.iter()

    def _text(self, parts: list[str]) -> None:
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            elif child.tag not in NOT_VISIBLE_TAGS:
                child._text(parts)

    @property
    def text(self) -> str:
        """The element's visible text, whitespace squeezed."""
        parts: list[str] = []
        self._text(parts)
        return squeeze("".join(parts))

    def matches(self, tag: str | None = None, cls: str | None = None, **attrs) -> bool:
        """``attrs``: attribute values to equal (``True``: only present); ``_`` in a name is ``-``."""
        if tag is not None and self.tag != tag:
            return False
        if cls is not None and cls not in self.classes:
            return False
        for name, wanted in attrs.items():
            name = name.replace("_", "-")
            if name not in self.attrs or (wanted is not True and self.attrs[name] != wanted):
                return False
        return True

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs) -> list["Element"]:
        return [element for element in self.iter() if element.matches(tag, cls, **attrs)]

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"


class _TreeBuilder(HTMLParser):
    def __init__(self, root: Element):
        super().__init__(convert_charrefs=True)
        self.stack = [root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs), self.stack[-1])
        self.stack[-1].children.append(element)
        if tag not in VOID_TAGS:
            self.stack.append(element)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Element(tag, dict(attrs), self.stack[-1]))

    def handle_endtag(self, tag):
        # Close up to the matching open element; a stray end tag closes nothing.
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


class Page:
    """What a test needs from an HTML page or fragment (see the module's docstring)."""

    def __init__(self, html: str):
        self.html = html
        self.root = Element("#document", {}, None)
        builder = _TreeBuilder(self.root)
        builder.feed(html)
        builder.close()
        self.elements: list[Element] = list(self.root.iter())
        self.inputs: dict[str, list[str]] = {}
        self.cards: list[str] = []  # every data-card attribute, in order (but the pictures')
        self.pictured: list[str] = []  # the cards of a game's picture (the home page's tiles): no game's
        self.hand: list[str] = []  # the checkboxes of the own hand (the values of "cards" inputs)
        self.buttons: list[tuple[str | None, str | None, str]] = []  # (name, value, text)
        for element in self.elements:
            attrs = element.attrs
            if "data-card" in attrs:
                (self.pictured if in_a_picture(element) else self.cards).append(attrs["data-card"])
            if element.tag in ("input", "button") and in_the_language_menu(element):
                continue
            if element.tag == "input":
                name = attrs.get("name")
                if name:
                    self.inputs.setdefault(name, []).append(attrs.get("value") or "")
                if name == "cards":
                    self.hand.append(attrs.get("value"))
            elif element.tag == "button":
                self.buttons.append((attrs.get("name"), attrs.get("value"), element.text))
        self.alerts: list[str] = [element.text for element in self.elements if element.get("role") == "alert"]

    # -- lookups --------------------------------------------------------------------------------

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs) -> list[Element]:
        """Every element with that tag, class and attributes (``data_card=True``: has one)."""
        return [element for element in self.elements if element.matches(tag, cls, **attrs)]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs) -> Element | None:
        found = self.find_all(tag, cls, **attrs)
        return found[0] if found else None

    def texts(self, tag: str | None = None, cls: str | None = None, **attrs) -> list[str]:
        return [element.text for element in self.find_all(tag, cls, **attrs)]

    @property
    def log(self) -> list[str]:
        """The lines of the game's log the page shows (the table's last lines, or a page of the
        whole game's log), as a browser shows them: players' words, cards as "10♥"."""
        return [line.text for log in self.find_all("ol", "log-lines") for line in log.find_all("li")]

    def value(self, name: str) -> str | None:
        """The value of the first input named ``name``."""
        values = self.inputs.get(name)
        return values[0] if values else None

    # -- buttons and forms ----------------------------------------------------------------------

    def button_texts(self) -> list[str]:
        return [text for _name, _value, text in self.buttons]

    def has_button(self, text: str) -> bool:
        return any(text in label for label in self.button_texts())

    def button_values(self, name: str = "action") -> list[str | None]:
        """The values of the buttons named ``name`` (the table's moves: ``action`` or ``move``)."""
        return [value for button_name, value, _text in self.buttons if button_name == name]

    @property
    def forms(self) -> list[dict]:
        """Every <form>: ``method`` (lower case), ``action``, ``hx_post``, ``inputs`` (name ->
        values) and ``buttons`` ((name, value, text)), and the ``element`` itself."""
        found = []
        for element in self.find_all("form"):
            if in_the_language_menu(element):
                continue
            inputs: dict[str, list[str]] = {}
            buttons = []
            for inner in element.iter():
                if inner.tag == "input" and inner.get("name"):
                    inputs.setdefault(inner.get("name"), []).append(inner.get("value") or "")
                elif inner.tag == "button":
                    buttons.append((inner.get("name"), inner.get("value"), inner.text))
            found.append({"method": (element.get("method") or "get").lower(), "action": element.get("action"),
                          "hx_post": element.get("hx-post"), "inputs": inputs, "buttons": buttons,
                          "element": element})
        return found

    def posting_to(self, action: str) -> list[dict]:
        """The forms that POST to exactly ``action``."""
        return [form for form in self.forms if form["method"] == "post" and form["action"] == action]

    def posts_ending(self, suffix: str) -> list[dict]:
        """The forms that POST (plainly or by htmx) to a URL ending with ``suffix``."""
        return [form for form in self.forms if form["method"] == "post"
                and (form["hx_post"] or form["action"] or "").endswith(suffix)]

    # -- the table --------------------------------------------------------------------------------

    @property
    def table(self) -> Element | None:
        return self.find(id="table")

    @property
    def is_table(self) -> bool:
        return self.table is not None

    @property
    def table_version(self) -> int | None:
        """The version the #table element shows (``data-version``)."""
        table = self.table
        value = table.get("data-version") if table is not None else None
        return int(value) if value else None

    def _fetched_on(self, trigger: str) -> str | None:
        """The address of the table's own fetch (``/table?since=`` the version it shows, with the
        steps it showed) that ``trigger`` sets off, as a browser requests it."""
        table = self.table
        found = [element.get("hx-get") for element in table.iter()
                 if "/table?since=" in (element.get("hx-get") or "") and element.get("hx-trigger") == trigger
                 ] if table is not None else []
        return found[0] if found else None

    @property
    def refresh_url(self) -> str | None:
        """What the table fetches on its live event."""
        return self._fetched_on("sse:changed")

    @property
    def poll_url(self) -> str | None:
        """What the table fetches every few seconds, in case its stream cannot connect."""
        return self._fetched_on("every 5s")

    @property
    def my_turn(self) -> bool:
        table = self.table
        return table is not None and table.get("data-my-turn") == "yes"

    @property
    def version(self) -> int | None:
        """The version the page's forms carry."""
        value = self.value("version")
        return int(value) if value else None

    @property
    def seat(self) -> int | None:
        """The seat the page's hand form acts for."""
        value = self.value("seat")
        return int(value) if value not in (None, "") else None

    @property
    def join_codes(self) -> list[str]:
        """The join codes shown (the seats panel, the invite page)."""
        return self.texts("code", "join-code")

    @property
    def game_over(self) -> bool:
        table = self.table
        return table is not None and any(h.text == "Game over" for h in table.find_all("h2"))

    # -- what a person reads ----------------------------------------------------------------------

    @property
    def visible_text(self) -> list[str]:
        """Every piece of text a browser shows (scripts and styles left out), in order."""
        parts: list[str] = []

        def walk(element: Element) -> None:
            for child in element.children:
                if isinstance(child, str):
                    parts.append(child)
                elif child.tag not in NOT_VISIBLE_TAGS:
                    walk(child)

        walk(self.root)
        return parts

    @property
    def readable_text(self) -> list[str]:
        """The visible text and the attributes a screen reader or tooltip reads out."""
        spoken = [element.attrs[name] for element in self.elements for name in READ_ALOUD_ATTRIBUTES
                  if element.attrs.get(name)]
        return self.visible_text + spoken

    def tokens(self, pattern: re.Pattern, skip_attributes=frozenset()) -> list[str]:
        """Every match of ``pattern`` in the visible text and in the attribute values (but those
        named in ``skip_attributes``, and the CSRF token's value, which is random)."""
        found = [token for text in self.visible_text for token in pattern.findall(text)]
        for element in self.elements:
            for name, value in element.attrs.items():
                if value is None or name in skip_attributes:
                    continue
                if name == "value" and element.attrs.get("name") == "csrf_token":
                    continue
                found.extend(pattern.findall(value))
        return found

    # -- the content security policy --------------------------------------------------------------

    @property
    def tags(self) -> list[str]:
        return [element.tag for element in self.elements]

    @property
    def scripts(self) -> list[dict]:
        """The attributes of every <script>."""
        return [element.attrs for element in self.elements if element.tag == "script"]

    @property
    def inline_script(self) -> bool:
        """Whether any <script> holds code of its own."""
        return any(element.tag == "script" and any(isinstance(c, str) and c.strip() for c in element.children)
                   for element in self.elements)

    @property
    def handlers(self) -> list[str]:
        """Inline event handlers (``on...`` attributes) and ``javascript:`` URLs."""
        found = []
        for element in self.elements:
            for name, value in element.attrs.items():
                if name.lower().startswith("on") or (value and value.strip().lower().startswith("javascript:")):
                    found.append(f"{element.tag} {name}={value}")
        return found

    @property
    def styles(self) -> list[str]:
        """<style> elements and style attributes (both need 'unsafe-inline' under the policy)."""
        found = []
        for element in self.elements:
            if element.tag == "style":
                found.append("<style>")
            for name, value in element.attrs.items():
                if name.lower() == "style":
                    found.append(f"{element.tag} style={value}")
        return found

    @property
    def image_sources(self) -> list[str]:
        return [element.get("src") or "" for element in self.elements if element.tag == "img"]

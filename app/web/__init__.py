"""The web doors into the rules: one blueprint per area, and what every response shares."""

from __future__ import annotations

import functools
import hashlib
import inspect
import ipaddress
import os
import socket
import urllib.parse
from collections.abc import Callable, Iterable, MutableMapping
from datetime import datetime, timezone
from typing import Any

from babel.dates import format_datetime
from flask import Flask, g, has_request_context, request, session, url_for
from flask_babel import gettext
from flask.templating import Environment as FlaskEnvironment
from flask.typing import ResponseReturnValue
from flask.wrappers import Response
from flask_compress import Compress
from flask_wtf.csrf import generate_csrf
from jinja2 import (BaseLoader, ChoiceLoader, Environment, FileSystemBytecodeCache, FileSystemLoader, Template,
                    TemplateNotFound, pass_context)
from jinja2.bccache import Bucket
from jinja2.runtime import Context
from markupsafe import Markup

from config import setting

from ..settings import COMPILED_TEMPLATES
from ..core import registry
from ..core.cards import Card, deck_by_key
from ..core.protocol import GameDefinition
from ..tables.decks import deck_title
from . import (admin, errors, events, guides, history, identity, input_checks, items, lan, languages, menu, play, scores,
               setup, sounds, words)
from .error_pages import render_error
from .htmx import is_htmx, vary_on_htmx

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


def register(app: Flask, version: str) -> None:
    """The blueprints, templates and hooks of every page; ``version``: the running version, which
    every page's footer says."""
    for module in (menu, setup, play, lan, scores, items, admin, events, history, guides):
        app.register_blueprint(module.bp)

    # Pages, fragments and assets are compressed when the browser accepts it (brotli or gzip);
    # the event stream is not (text/event-stream is not in the list: each event must go at once).
    app.config.setdefault("COMPRESS_MIMETYPES", ["text/html", "text/css", "application/javascript",
                                                 "text/javascript", "application/json", "image/svg+xml", "text/csv"])
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    # Brotli's quality 2, not flask-compress's 4: on a LAN the CPU counts more than the bytes.
    # Every answer takes about half the time to compress and is 3-9% larger (a table's fragment:
    # 33 us instead of 69, 180 bytes more; bench/compression.py).
    app.config.setdefault("COMPRESS_BR_LEVEL", 2)
    Compress(app)

    _register_static_versions(app)
    languages.register(app)
    words.register(app)
    _register_card_faces(app)
    app.jinja_env.filters["local_time"] = local_time
    app.jinja_env.filters["deck_title"] = deck_title
    app.jinja_env.globals["scores_url"] = scores.scores_url
    app.jinja_env.globals["sound_kinds"] = sounds.SOUND_KINDS
    app.jinja_env.globals["table_news"] = sounds.table_news
    flask_templates = app.jinja_env.loader
    assert flask_templates is not None  # (Flask's: the app's and the blueprints' folders)
    app.jinja_env.loader = HouseTemplates([flask_templates, GameTemplates()])  # the house's templates first
    app.jinja_env.bytecode_cache = CompiledTemplates.in_folder(os.path.join(app.instance_path, COMPILED_TEMPLATES))
    _register_template_parts(app)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    names = own_host_names(app.config.get("ALLOWED_HOSTS") or ())

    @app.before_request
    def check_host() -> ResponseReturnValue | None:
        """DNS rebinding: a page on another site can point its own name at this server, but
        the browser then sends that name as the Host. Only IP addresses, localhost and this
        machine's own names (and ALLOWED_HOSTS) are answered."""
        host = request.environ.get("HTTP_HOST")
        if host is not None and not host_is_allowed(host, names):
            return render_error(400, gettext("This server answers only to its own addresses (such as the one "
                                             "`make run` printed). Add other names to ALLOWED_HOSTS."))
        return None

    input_checks.register(app)  # (after the Host check: a request for another host is refused first)
    identity.register(app)
    app.jinja_env.globals["card_table_version"] = version

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        if request.endpoint != "static":
            response.headers.setdefault("Cache-Control", "no-store")
            vary_on_htmx(response)
        return response

    @app.after_request
    def keep_seats_on_visits(response: Response) -> Response:
        """A visit of a page (not an action, nor a live refresh) sends the session cookie again
        with a new expiry: a player's seats last a month after their last visit."""
        if request.method == "GET" and request.endpoint != "static" and not is_htmx() and session.permanent:
            session.modified = True
        return response

    errors.register(app)


def local_time(moment: datetime | None) -> Markup:
    """A time as the page shows it: a ``<time>`` in UTC, clearly marked, which static/js/app.js
    turns into the browser's local time."""
    if moment is None:
        return Markup("")
    moment = moment.astimezone(timezone.utc).replace(tzinfo=None) if moment.tzinfo else moment
    stamp = moment.replace(microsecond=0).isoformat() + "Z"
    shown = format_datetime(moment, "d MMM y, HH:mm", locale=languages.page_language().replace("-", "_"))
    return Markup('<time class="local-time" datetime="{}">{} UTC</time>').format(stamp, shown)


@functools.cache
def machine_names() -> frozenset[str]:
    """This machine's own names (its host name, fully qualified and on mDNS as ``.local``)."""
    names = {"localhost"}
    for name in (socket.gethostname(), socket.getfqdn()):
        name = name.lower().rstrip(".")
        if name:
            names.update((name, name.split(".")[0], name.split(".")[0] + ".local"))
    return frozenset(names)


def own_host_names(allowed: Iterable[str]) -> frozenset[str]:
    names = set(machine_names()) | {name.lower().rstrip(".") for name in allowed}
    public = urllib.parse.urlsplit(setting("PUBLIC_URL", "")).hostname
    if public:
        names.add(public.lower())
    return frozenset(names)


def host_is_allowed(host: str, names: frozenset[str]) -> bool:
    """Whether a Host header names this server: an IP address (a LAN address cannot be
    rebound), localhost, or one of ``names``; with an optional port."""
    host = host.strip().lower()
    if host.startswith("["):  # an IPv6 address: [::1]:5000
        literal, bracket, port = host[1:].partition("]")
        if not bracket or (port and not (port.startswith(":") and port[1:].isdigit())):
            return False
        try:
            ipaddress.IPv6Address(literal)
        except ValueError:
            return False
        return True
    name, colon, port = host.partition(":")
    if colon and not port.isdigit():
        return False
    try:
        ipaddress.IPv4Address(name)
        return True
    except ValueError:
        pass
    name = name.rstrip(".")
    return name in names or name.endswith(".localhost")


# What a dict has as attributes (its methods): ``name.key`` in a template means the method then.
DICT_ATTRIBUTES = frozenset(dir(dict))


class TableTemplates(FlaskEnvironment):
    """The app's template environment: Jinja's, but ``view.hand`` on a dict (the games' views
    are dicts: a table's render reads about a hundred such keys) looks up the key at once.
    Jinja's own ``getattr`` asks for the attribute first and takes the key after the
    AttributeError, about 0.5 us each (a live refresh's render: 6% of it). The answer is the
    same: a name that is a dict's method still means the method."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except (KeyError, TypeError):
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


class TableApp(Flask):
    """The card table's Flask app: its templates read dicts' keys quickly (``TableTemplates``)."""

    jinja_environment = TableTemplates


class HouseTemplates(ChoiceLoader):
    """The house's templates, then the games' own. A name found nowhere is remembered, unless
    templates are reloaded when they change (debug): a table's page asks for a game's own
    version of a part first (``games/<key>/_results.html``, else ``table/_results.html``), and
    Jinja keeps only the templates it found, so every render would look on disk again for the
    ones a game does not have. The names are the games' keys times the parts: a bounded set."""

    def __init__(self, loaders: list[BaseLoader]):
        super().__init__(loaders)
        self.missing: set[str] = set()

    def get_source(self, environment: Environment, template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        if template in self.missing:
            raise TemplateNotFound(template)
        try:
            return super().get_source(environment, template)
        except TemplateNotFound:
            self.remember_missing(environment, template)
            raise

    def load(self, environment: Environment, name: str,
             globals: MutableMapping[str, Any] | None = None) -> Template:
        if name in self.missing:
            raise TemplateNotFound(name)
        try:
            return super().load(environment, name, globals)
        except TemplateNotFound:
            self.remember_missing(environment, name)
            raise

    def remember_missing(self, environment: Environment, name: str) -> None:
        if not environment.auto_reload:
            self.missing.add(name)


class GameTemplates(BaseLoader):
    """``games/<key>/<name>`` from the folder of a game that brings its own templates
    (``GameDefinition.templates_folder``), for a game whose templates are not in the house's
    ``templates/games/<key>/``. The registry is asked at each load: a game may be registered
    after the app is made."""

    def get_source(self, environment: Environment, template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        top, _, rest = template.partition("/")
        key, _, name = rest.partition("/")
        if top == "games" and name:
            try:
                definition = registry.get(key)
            except registry.UnknownGame:
                raise TemplateNotFound(template) from None
            if definition.templates_folder is not None:
                return self.folder_of(definition).get_source(environment, name)
        raise TemplateNotFound(template)

    def list_templates(self) -> list[str]:
        return [f"games/{definition.key}/{name}" for definition in registry.games()
                if definition.templates_folder is not None for name in self.folder_of(definition).list_templates()]

    @staticmethod
    def folder_of(definition: GameDefinition) -> FileSystemLoader:
        assert definition.templates_folder is not None  # (asked only of a game with its own folder)
        return FileSystemLoader(os.path.join(os.path.dirname(inspect.getfile(type(definition))),
                                             definition.templates_folder))


class CompiledTemplates(FileSystemBytecodeCache):
    """The templates' compiled code, kept in the instance folder: a worker that starts (each one,
    after every restart) loads it instead of compiling the templates again, which held up all of
    that worker's requests for 50-150 ms at the first table it showed. Jinja compiles a template
    again when its source changed. A file that cannot be read or written is only a miss: the
    template is compiled, as it would be without the cache."""

    @classmethod
    def in_folder(cls, folder: str) -> CompiledTemplates | None:
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError:
            return None
        return cls(folder)

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # a damaged file (Jinja catches only some of what reading one raises)
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:  # a folder that is gone, read-only or full
            pass


def _register_template_parts(app: Flask) -> None:
    """``game_part(kind, part, fallback)``: game ``kind``'s own version of a table's part
    (``games/<kind>/<part>``), else the template ``fallback``. Jinja's ``include [a, b]`` would
    raise and catch a TemplateNotFound for every game without its own version on every render;
    the loader remembers a miss, and this asks it before loading. ``csrf_field()``: the hidden
    CSRF input of a form, made once per request however many forms the page has. ``ui``: the
    table's macros (templates/table/_macros.html), see ``TemplateMacros``."""
    environment = app.jinja_env
    loader = environment.loader
    assert isinstance(loader, HouseTemplates)  # (register set it)

    def game_part(kind: str, part: str, fallback: str) -> Template:
        name = f"games/{kind}/{part}"
        if name not in loader.missing:
            try:
                return environment.get_template(name)
            except TemplateNotFound:
                pass
        return environment.get_template(fallback)

    def csrf_field() -> Markup:
        field: Markup | None = g.get("csrf_field")
        if field is None:
            field = g.csrf_field = Markup('<input type="hidden" name="csrf_token" value="{}">').format(generate_csrf())
            # A browser shown a form has its key from then on: two of its forms posted at once
            # (a double-click) act for one browser, not for two new ones.
            identity.own_holder()
        return field

    environment.globals.update(game_part=game_part, csrf_field=csrf_field,
                               ui=TemplateMacros(environment, "table/_macros.html"),
                               url_for=remembered_urls(app))


# A table's own addresses are a few a table; its refresh address (since=the version) is new with
# every move and never asked again: all are forgotten together when this many were kept, a few
# hundred kilobytes at most.
REMEMBERED_URLS = 512


def remembered_urls(app: Flask) -> Callable[..., str]:
    """The templates' ``url_for``: a table's render asks for the same few addresses of its game
    (its forms, its seats' links) on every refresh, and building them anew was a sixth of the
    render; a path built for this site's root, an endpoint and its values is kept. Anything else
    (an external address, an endpoint of the current blueprint, a value that is a list, no
    request, an app that adds default values to its URLs) is built each time, as Flask builds it."""
    build = app.url_for
    kept: dict[tuple[Any, ...], str] = {}
    fixed = not app.url_map.host_matching and not app.subdomain_matching

    def url_for(endpoint: str, **values: Any) -> str:
        if (not fixed or endpoint.startswith(".") or not has_request_context()
                or any(app.url_default_functions.values())):
            return build(endpoint, **values)
        try:
            # (with each value's type: True and 1 are equal keys, but "watch=True" is no "watch=1")
            key = (request.script_root, endpoint, *values.items(), *map(type, values.values()))
            url = kept.get(key)
        except TypeError:  # (a value that is a list)
            return build(endpoint, **values)
        if url is None:
            if any(name.startswith("_") for name in values):
                return build(endpoint, **values)
            url = build(endpoint, **values)
            if len(kept) >= REMEMBERED_URLS:
                kept.clear()
            kept[key] = url
        return url

    return url_for


class TemplateMacros:
    """A template's macros, as a global of every template: what ``{% import name as ui %}`` gives
    a template, without the import's cost on every render (Jinja compares the importing page's
    globals with the macros' own each time: a tenth of a table's render, for three parts that
    import them). Each use asks the environment for the template, so a template reloaded while
    debugging is the one used."""

    def __init__(self, environment: Environment, name: str):
        self.environment = environment
        self.name = name

    def __getattr__(self, macro: str) -> Any:
        return getattr(self.environment.get_template(self.name).module, macro)


def _register_card_faces(app: Flask) -> None:
    """``card(id)``: the card of the table's deck (the template's ``deck_key``: a table's
    ``TableView`` has it); ``card_face(id, extra, deck_key)``: the HTML of the ``face`` macro (templates/table/_card.html)
    for one card, made once per card and kept - a card always looks the same - instead of calling
    the macro for every card on every render of every table; ``card_index(id)``: the same face's
    index (rank and suit), for a card that is a control (a checkbox's label, a button);
    ``card_back(words)``: a face-down card."""

    def macros() -> Any:
        # (a macro is an attribute of its template's module, which Jinja cannot type)
        return app.jinja_env.get_template("table/_card.html").module

    @functools.cache
    def face(deck_key: str, card_id: str, extra: str, language: str) -> Markup:
        """(kept per language: the face is read aloud in the page's words)"""
        card = deck_by_key(deck_key).parse(card_id)
        return Markup(macros().face(card, extra))

    @functools.cache
    def index(deck_key: str, card_id: str) -> Markup:
        return Markup(macros().index(deck_by_key(deck_key).parse(card_id), True))

    @pass_context
    def card_face(context: Context, card_id: str, extra: str = "", deck_key: str | None = None) -> Markup:
        return face(deck_key or context["deck_key"], card_id, extra, languages.page_language())

    @pass_context
    def card_index(context: Context, card_id: str) -> Markup:
        return index(context["deck_key"], card_id)

    @functools.cache
    def card_back(words: str | None = None, extra: str = "") -> Markup:
        return Markup(macros().back(words, extra))

    @pass_context
    def card(context: Context, card_id: str) -> Card:
        return deck_by_key(context["deck_key"]).parse(card_id)

    app.jinja_env.globals.update(card_face=card_face, card_index=card_index, card_back=card_back, card=card)


def _register_static_versions(app: Flask) -> None:
    """``static_url(name)`` adds a content hash, so assets can be cached for a year."""
    versions: dict[str, str] = {}

    def static_url(filename: str) -> str:
        version = versions.get(filename)
        if version is None:
            assert app.static_folder is not None  # (the app's static/)
            path = os.path.join(app.static_folder, filename)
            with open(path, "rb") as handle:
                version = versions[filename] = hashlib.sha256(handle.read()).hexdigest()[:10]
        return url_for("static", filename=filename, v=version)

    app.jinja_env.globals["static_url"] = static_url

    assets: dict[tuple[str, str], list[str]] = {}

    def game_assets(kind: str, key: str | None) -> list[str]:
        """Game ``key``'s own stylesheet or script (``css/games/<key>.css``, ``js/games/<key>.js``)
        if it has one, for base.html to load on the pages that show its table; none for a page
        of no game (``key`` None)."""
        if key is None:
            return []
        found = assets.get((kind, key))
        if found is None:
            assert app.static_folder is not None  # (the app's static/)
            name = f"{kind}/games/{key}.{kind}"
            found = assets[kind, key] = [name] if os.path.isfile(os.path.join(app.static_folder, name)) else []
        return found

    app.jinja_env.globals["game_assets"] = game_assets

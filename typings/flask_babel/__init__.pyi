# The parts of Flask-Babel the app uses (it ships no types).
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from babel import Locale
from babel.support import NullTranslations
from flask import Flask

class Babel:
    def __init__(self, app: Flask | None = ..., locale_selector: Callable[[], str | None] | None = ...,
                 **kwargs: Any) -> None: ...

class Domain:
    domain: list[str]
    def __init__(self, translation_directories: str | list[str] | None = ..., domain: str = ...) -> None: ...
    def get_translations(self) -> NullTranslations: ...

def get_locale() -> Locale | None: ...
def refresh() -> None: ...
@contextmanager
def force_locale(locale: str) -> Iterator[None]: ...

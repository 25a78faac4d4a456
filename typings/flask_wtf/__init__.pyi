# Flask-WTF ships no types (no py.typed, no stub package): these are the parts the app uses.
from .csrf import CSRFProtect as CSRFProtect

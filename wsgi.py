"""The WSGI entry point: `gunicorn wsgi:app` (see `make run` / app/serve.py)."""

from app.settings import SettingError

try:
    from app import create_app

    app = create_app()
except SettingError as problem:  # a setting of the environment: what to set, not a traceback
    raise SystemExit(f"\n  The card table cannot start: {problem}\n") from None

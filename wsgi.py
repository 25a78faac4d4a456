"""The WSGI entry point: `gunicorn wsgi:app` (see `make run` / app/serving/serve.py)."""

from app.settings import SettingError, cannot_start

try:
    from app.factory import create_app

    app = create_app()
except SettingError as problem:  # a setting of the environment: what to set, not a traceback
    raise SystemExit(cannot_start(problem)) from None

"""The WSGI entry point: `gunicorn wsgi:app` (see `make run` / app/serve.py)."""

from app import create_app

app = create_app()

"""Configuration. Secrets come from the environment or the instance folder, never from code."""

from __future__ import annotations

import os

BASE_DIR = os.path.abspath(os.path.dirname(__file__))


class Config:
    # SECRET_KEY: from the environment, else generated once into the instance folder (app/secrets.py).
    SECRET_KEY = os.environ.get("SECRET_KEY")
    # SQLite in the instance folder by default; any SQLAlchemy URL (PostgreSQL) via DATABASE_URL.
    SQLALCHEMY_DATABASE_URI = os.environ.get("DATABASE_URL")
    SQLALCHEMY_TRACK_MODIFICATIONS = False
    DECKS_FOLDER = os.environ.get("DECKS_FOLDER", os.path.join(BASE_DIR, "decks"))
    ADMIN_PASSWORD = os.environ.get("ADMIN_PASSWORD")
    # Uploads (.deck, scores.csv) are small text files.
    MAX_CONTENT_LENGTH = 256 * 1024
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    PERMANENT_SESSION_LIFETIME = 60 * 60 * 24 * 30
    WTF_CSRF_TIME_LIMIT = None  # a table can stay open all evening
    # Live updates: how often an event stream checks the database for a new game version.
    EVENTS_POLL_SECONDS = float(os.environ.get("EVENTS_POLL_SECONDS", "0.05"))
    EVENTS_KEEPALIVE_SECONDS = 15.0
    EVENTS_MAX_SECONDS = float(os.environ.get("EVENTS_MAX_SECONDS", "300"))
    # A player idle this long may be replaced by an AI for their turns by the host.
    IDLE_SECONDS = int(os.environ.get("IDLE_SECONDS", "120"))
    ADMIN_MAX_FAILURES = 5
    ADMIN_FAILURE_WINDOW_SECONDS = 15 * 60


class TestConfig(Config):
    TESTING = True
    SECRET_KEY = "test-secret-key-not-for-production"
    ADMIN_PASSWORD = "test-admin-password"
    EVENTS_MAX_SECONDS = 2.0

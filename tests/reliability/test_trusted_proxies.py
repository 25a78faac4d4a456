"""TRUSTED_PROXIES: behind a load balancer every request comes from the balancer's address. With
TRUSTED_PROXIES=N the address and host that the N proxies in front say the device used count
(Werkzeug's ProxyFix), for the per-device limits and the host check; without it (the default)
forwarded headers are ignored, since any device can send them. The live side, through a real
nginx, is tests/reliability/test_deploy_nginx.py."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from support.live import free_port
from support.web import Player

from app.extensions import db

BALANCER = "10.1.1.1"  # the address every request comes from, behind the balancer


@pytest.fixture
def make_app(database_url, decks_folder, tmp_path):
    apps = []

    def make(**overrides):
        from app.factory import create_app
        from config import TestConfig

        application = create_app(TestConfig, instance_path=str(tmp_path / f"instance-{len(apps)}"),
                                 SQLALCHEMY_DATABASE_URI=database_url, DECKS_FOLDER=str(decks_folder), **overrides)
        apps.append(application)
        return application

    yield make
    for application in apps:
        with application.app_context():
            db.session.remove()
            db.engine.dispose()


def device(app, forwarded_for: str | None, forwarded_host: str | None = None) -> Player:
    """A browser whose requests reach the app from the balancer, carrying what it forwards."""
    browser = Player(app)
    browser.client.environ_base["REMOTE_ADDR"] = BALANCER
    if forwarded_for is not None:
        browser.client.environ_base["HTTP_X_FORWARDED_FOR"] = forwarded_for
    if forwarded_host is not None:
        browser.client.environ_base["HTTP_X_FORWARDED_HOST"] = forwarded_host
    return browser


def set_up(browser: Player) -> int:
    """A game of 21 through its set-up form: the answer's status (303 set up, 429 refused)."""
    return browser.post("/setup/twentyone", {"seats": "1", "name0": "Ann", "device0": "here", "rounds": "5",
                                            "deck": ""}).status_code


def test_behind_a_trusted_proxy_each_device_has_its_own_limit(make_app):
    app = make_app(TRUSTED_PROXIES="1", GAMES_PER_HOUR=2)
    first = device(app, "192.168.1.50")
    assert [set_up(first) for _ in range(3)] == [303, 303, 429]
    # Another device behind the same balancer has its own count...
    assert set_up(device(app, "192.168.1.51")) == 303
    # ...and a device cannot pose as another: the balancer appends the address it saw, the last one.
    assert set_up(device(app, "192.168.1.51, 192.168.1.50")) == 429


def test_without_trusted_proxies_forwarded_headers_are_ignored(make_app):
    app = make_app(GAMES_PER_HOUR=2)  # TRUSTED_PROXIES unset: 0
    assert app.config["TRUSTED_PROXIES"] == 0
    assert [set_up(device(app, f"192.168.1.{n}")) for n in (50, 51, 52)] == [303, 303, 429]  # all one address


def test_the_host_check_sees_the_host_the_device_asked_the_proxy_for(make_app):
    behind = make_app(TRUSTED_PROXIES="1", ALLOWED_HOSTS=["table.example.lan"])
    assert device(behind, "192.168.1.50", forwarded_host="table.example.lan").get("/").status_code == 200
    assert device(behind, "192.168.1.50", forwarded_host="table.example.lan:8080").get("/").status_code == 200
    refused = device(behind, "192.168.1.50", forwarded_host="rebound.attacker.example").get("/")
    assert refused.status_code == 400 and "ALLOWED_HOSTS" in refused.get_data(as_text=True)

    direct = make_app(ALLOWED_HOSTS=["table.example.lan"])  # no proxy trusted: X-Forwarded-Host is ignored
    assert device(direct, None, forwarded_host="rebound.attacker.example").get("/").status_code == 200
    assert device(direct, None).get("/", headers={"Host": "rebound.attacker.example"}).status_code == 400


@pytest.mark.parametrize("value", ["-1", "one", "1.5", "11"])
def test_a_wrong_trusted_proxies_setting_is_refused_with_what_to_set(make_app, value, tmp_path):
    with pytest.raises(ValueError, match="TRUSTED_PROXIES must be the number of proxies"):
        make_app(TRUSTED_PROXIES=value)
    env = {**os.environ, "TRUSTED_PROXIES": value, "CARD_TABLE_INSTANCE": str(tmp_path / "serve-instance"),
           "PORT": str(free_port())}
    env.pop("DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-m", "app.serving.serve"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "cannot start: TRUSTED_PROXIES must be the number of proxies" in done.stderr

"""A take-back in real browsers, on a phone (390x844): at a Classic Rummy table whose creator
chose take-backs "asked", Ann discards, asks to take the discard back, and Bob, on his own phone,
accepts with one tap; both tables show the line and Ann's card is back in her hand."""

from __future__ import annotations

import re

import pytest
from test_rummy import button, invite_link, pile, select, snap, tap, wait_for

from support.browsing import axe_scan

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"width": 390, "height": 844}


def take_back_button(device, words: str):
    return device.page.locator("#table button").filter(has_text=re.compile("^" + re.escape(words) + "$"))


def test_a_take_back_offered_asked_and_accepted_on_phones(live_server, device, screenshot):
    ann = device("Ann's phone", viewport=dict(PHONE), is_mobile=True, has_touch=True)
    ann.set_up_game("Classic Rummy", [("Ann", "here"), ("Bob", "own")], "quick_rummy.deck", target=100,
                    take_backs="asked")
    link = invite_link(ann, "Bob")
    bob = device("Bob's phone", viewport=dict(PHONE), is_mobile=True, has_touch=True)
    bob.goto(link.replace(live_server.url, ""))
    bob.page.get_by_role("button", name="I am Bob: take my seat").click()
    bob.page.locator("#table").wait_for()
    for one in (ann, bob):
        one.mark_document()
    wait_for(ann, snap(bob)["version"])
    assert "Take-backs: Asked" in ann.page.locator("#table .house-rules").inner_text()

    a = tap(ann, pile(ann, "draw|source=discard"))
    assert "7H" in a["hand"]
    select(ann, ["JS"])
    a = tap(ann, button(ann, "Discard"))
    assert "JS" not in a["hand"]
    asking = take_back_button(ann, "Ask to take back your discard")
    assert asking.is_visible()
    screenshot(ann.page, "offered", sizes=(("phone", PHONE),))
    a = tap(ann, asking)
    assert a["log"][-1] == "Ann asks to take back their discard."

    b = wait_for(bob, a["version"])
    accept = take_back_button(bob, "Let Ann take back their discard")
    assert accept.is_visible() and take_back_button(bob, "Keep Ann's discard").is_visible()
    screenshot(bob.page, "asked", sizes=(("phone", PHONE),))
    assert axe_scan(bob.page, "a take-back asked") == []
    b = tap(bob, accept)
    assert b["log"][-1] == "Ann took back their discard."
    a = wait_for(ann, b["version"])
    assert "JS" in a["hand"] and a["myTurn"]
    screenshot(ann.page, "accepted", sizes=(("phone", PHONE),))
    for one in (ann, bob):
        width = one.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{one.name}'s page is {width} px wide"

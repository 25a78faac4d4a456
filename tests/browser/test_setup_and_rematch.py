"""The one set-up form in a real browser at phone size (390x844): computer players chosen at a
strength, seen on the badges and in the results, kept by a rematch; and a rematch offered live to
the other devices at the finished table and to its spectators, without a reload."""

from __future__ import annotations

import re

import pytest
from support.browsing import axe_scan, button_words

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PHONE_ONLY = (("phone", PHONE),)
TWENTYONE = "21 against the dealer"
TURN_CAP = 40


def fits_the_screen(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def play_to_the_end(planner, slug: str, devices: dict[int, object]) -> None:
    """Each person's turn as the suite's move chooser plays it, pressed on the device of that seat
    (``devices``: seat -> Device); the computers play on the server."""
    for _ in range(TURN_CAP):
        if planner.state(slug).is_over():
            return
        choice = planner.next(slug)
        one = devices[choice.seat if choice.seat is not None else min(devices)]
        one.page.locator("#table").wait_for()
        one.table.wait_settled()
        one.table.press(button_words(choice.move, "twentyone"))
    assert planner.state(slug).is_over(), f"no game over after {TURN_CAP} turns"


def badges(page) -> list[str]:
    return [" ".join(text.split()) for text in page.locator("#table .board .badge.computer").all_inner_texts()]


def test_computer_players_at_two_strengths_set_up_played_shown_and_kept_by_a_rematch(live_server, device, planner,
                                                                                      screenshot):
    phone = device("phone", viewport=dict(PHONE), is_mobile=True, has_touch=True)
    page = phone.page
    phone.goto("/")
    page.get_by_role("link", name=f"Play {TWENTYONE}", exact=True).click()  # its tile's Play
    page.get_by_role("heading", name=TWENTYONE).wait_for()
    phone.choose_seat_count(3)
    phone.fill_seats([("Ann", "here"), ("AI", "here"), ("AI", "here")], strengths={1: "easy", 2: "strong"})
    page.locator("#opt-rounds").fill("1")
    # The computer's seats show their strengths (the person's name field is gone), Ann's her name.
    assert page.locator("#name1").is_hidden() and page.locator("input[name=strength1][value=easy]").is_visible()
    assert page.locator("#name0").is_visible() and page.locator("input[name=strength0]").first.is_hidden()
    assert fits_the_screen(page)
    problems = axe_scan(page, "set-up form")
    assert problems == [], "\n".join(problems)
    screenshot(page, "twentyone-form", sizes=PHONE_ONLY)
    slug = phone.start_set_up_game()

    assert badges(page) == ["Computer (easy)", "Computer (strong)"]
    play_to_the_end(planner, slug, {0: phone})
    page.locator("#table .results").wait_for()
    results = " ".join(page.locator("#table .results").inner_text().split())
    assert "AI 2 Computer (easy)" in results and "AI 3 Computer (strong)" in results
    assert fits_the_screen(page)
    problems = axe_scan(page, "results")
    assert problems == [], "\n".join(problems)
    screenshot(page, "results", sizes=PHONE_ONLY)

    phone.table.button("Rematch with the same players").click()
    page.wait_for_url(re.compile(r"/games/(?!%s$)" % slug))
    page.locator("#table").wait_for()
    assert badges(page) == ["Computer (easy)", "Computer (strong)"]  # each computer's strength kept
    assert phone.unexpected_problems() == []


def test_mason_rummy_s_set_up_is_the_same_form_with_new_and_returning_players(live_server, device, screenshot):
    phone = device("phone", viewport=dict(PHONE), is_mobile=True, has_touch=True)
    page = phone.page
    phone.goto("/menus/mason")  # Menu A (Mason Rummy's tile's Play)
    page.get_by_role("button", name=re.compile("Play 3-player game$")).click()
    page.locator("fieldset.seat-setup").nth(2).wait_for()
    assert page.locator("input[name=kind0][value=new]").is_checked()
    page.locator("input[name=device2][value=computer]").check()
    page.locator("input[name=strength2][value=strong]").check()
    assert fits_the_screen(page)
    problems = axe_scan(page, "Mason Rummy's set-up form")
    assert problems == [], "\n".join(problems)
    screenshot(page, "mason-form", sizes=PHONE_ONLY)
    phone.fill_seats([("Ann", "here"), ("Bob", "here")])
    slug = phone.start_set_up_game()
    assert slug
    assert badges(page) == ["Computer (strong)"]


def test_a_rematch_started_on_one_device_is_offered_live_on_the_other_and_to_a_spectator(live_server, device, planner,
                                                                                          screenshot):
    ann = device("Ann's laptop")
    slug = ann.set_up_game(TWENTYONE, [("Ann", "here"), ("Bob", "own")], rounds=1)
    code = ann.page.locator("#table .seats-panel code.join-code").inner_text().strip()
    bob = device("Bob's phone", viewport=dict(PHONE), is_mobile=True, has_touch=True)
    bob.join_with_code(code, "Bob")
    fan = device("spectator", viewport=dict(PHONE))
    fan.goto(f"/games/{slug}/watch")
    fan.page.locator("#table").wait_for()
    play_to_the_end(planner, slug, {0: ann, 1: bob})
    for one in (ann, bob, fan):
        one.page.locator("#table .results").wait_for()
        one.mark_document()
        assert one.page.locator("#table .rematch-offer").count() == 0

    ann.table.button("Rematch with the same players").click()
    ann.page.wait_for_url(re.compile(r"/games/(?!%s$)" % slug))
    rematch = ann.page.url.rsplit("/", 1)[1]

    offer = bob.page.locator("#table .rematch-offer")  # brought by the live stream: no reload
    offer.get_by_role("button", name="Join the rematch").wait_for()
    assert bob.same_document()
    screenshot(bob.page, "offer", sizes=PHONE_ONLY)
    problems = axe_scan(bob.page, "rematch offer")
    assert problems == [], "\n".join(problems)
    watching = fan.page.locator("#table .rematch-offer").get_by_role("link", name="Watch the rematch")
    watching.wait_for()
    assert fan.same_document()
    assert watching.get_attribute("href") == f"/games/{rematch}/watch"

    offer.get_by_role("button", name="Join the rematch").click()  # one tap
    bob.page.wait_for_url(re.compile(re.escape(f"/games/{rematch}") + "$"))
    bob.page.locator("#table").wait_for()
    watching.click()
    fan.page.wait_for_url(re.compile(re.escape(f"/games/{rematch}/watch") + "$"))
    for one in (ann, bob, fan):
        problems = one.unexpected_problems()
        assert problems == [], "\n".join(problems)

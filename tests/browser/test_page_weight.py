"""The weight of a table page: what the browser transfers for a Mason Rummy table at a phone's
size (the page, its stylesheets and scripts, compressed as served), measured from the requests'
own sizes, kept within a tenth over what it was before the themes, sounds and moving cards."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

BEFORE_BYTES = 59_998  # the bodies before the themes, sounds and moving cards: 58.6 KiB (70,301 bytes with headers)
ALLOWED = 1.10


def transferred(device) -> tuple[int, list[str]]:
    """The bytes a fresh browser transfers to load a new 2-seat Mason Rummy table: the sum of
    every finished request's response body as sent (compressed), and each request's URL and size."""
    phone = device("weigh", viewport={"width": 390, "height": 844})
    slug = phone.start_game([("Ann", "here"), ("AI", "here")])
    page = phone.page
    cdp = phone.context.new_cdp_session(page)  # as a first visit: nothing from the browser's cache
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    finished: list = []
    page.on("requestfinished", lambda request: finished.append(request))
    phone.goto(f"/games/{slug}")
    page.locator("#table").wait_for()
    page.wait_for_load_state("load")
    total = 0
    urls = []
    for request in finished:
        if "/events" in request.url:
            continue  # the live event stream stays open: not part of the page's weight
        sizes = request.sizes()
        total += sizes["responseBodySize"]
        urls.append(f"{request.url} {sizes['responseBodySize']}")
    return total, urls


def test_a_table_page_weighs_no_more_than_a_tenth_over_before(device):
    total, urls = transferred(device)
    print(f"table page: {total} bytes ({total / 1024:.1f} KiB)\n" + "\n".join(urls))
    assert urls, "no request was measured"
    assert total <= BEFORE_BYTES * ALLOWED, f"{total} bytes > {BEFORE_BYTES} * {ALLOWED}:\n" + "\n".join(urls)

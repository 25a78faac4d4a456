"""Quick end-to-end checks that the test infrastructure and the main paths work."""

import pytest

from support.client import Browser
from support.web import Page


def test_menu_a_lists_the_six_options_in_order(player):
    page = player.page("/menus/mason")
    labels = [text for name, _value, text in page.buttons if name == "choice"]
    assert labels == ["1View scores", "2Play 2-player game", "3Play 3-player game",
                      "4Play 2-player game with stacked deck", "5Play 3-player game with stacked deck", "6Quit"]


def test_a_stacked_game_against_the_ai_starts_and_accepts_a_draw(player):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    page = player.table(slug)
    assert len(page.hand) == 10
    response = player.act(slug, "draw_stock")
    assert response.status_code == 200
    assert len(Page(response.get_data(as_text=True)).hand) == 11


@pytest.mark.slow
def test_live_server_serves_menu_a(live_server):
    response = Browser(live_server.url).get("/menus/mason")
    assert response.status == 200
    assert "Main menu" in response.body
    assert [text for name, _value, text in response.page.buttons if name == "choice"][0] == "1View scores"

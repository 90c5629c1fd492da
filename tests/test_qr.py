import pytest
from django.test import RequestFactory

from scorecards.qr import qr_svg, table_link
from scorecards.services import game_start, game_token_issue


def test_qr_svg_is_inline_svg_without_fixed_size() -> None:
    svg = qr_svg("http://127.0.0.1:8000/t/abc/")
    assert svg.startswith("<svg") and "viewBox" in svg
    assert 'width="' not in svg


@pytest.mark.django_db
def test_table_link_is_absolute_and_absent_without_token(club, players, standard_rules) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club)
    request = RequestFactory().get("/")
    assert table_link(request, game) is None
    token = game_token_issue(game=game)
    assert table_link(request, game) == f"http://testserver/t/{token}/"

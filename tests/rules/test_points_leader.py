"""How a game cut short by its tournament round is read: the side strictly ahead wins, level
leaders draw (docs/rules.md, "A game ended by its round")."""

from __future__ import annotations

import pytest

from scorecards.rules import points_leader


@pytest.mark.parametrize(
    ("scores", "leader"),
    [
        ((24, -4), 0),
        ((-4, 24), 1),
        ((10, 10), None),
        ((-6, -2), 1),
        ((5, 9, 9), None),  # three sides: the two leaders level
        ((5, 9, 3), 1),
        ((0, 0), None),
    ],
)
def test_points_leader(scores, leader) -> None:
    assert points_leader(scores) == leader

"""A hall laptop serves the phones of its network: `make run HOST=0.0.0.0` gives the links and QR
codes an address the phones can open, and the server answers to it."""

from __future__ import annotations

import ipaddress
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import RequestFactory

from kaiser_league.lan import lan_address
from scorecards.qr import table_link
from scorecards.services import game_start, game_token_issue

ROOT = Path(__file__).resolve().parents[1]


def _make_env(*args: str) -> str:
    """What `make` exports to its commands with `args` (HOST=..., PORT=...)."""
    show = 'hall-env-show: ; @echo "$$ALLOWED_HOSTS|$$PUBLIC_BASE_URL"'
    done = subprocess.run(
        ["make", "-s", "--eval", show, "hall-env-show", f"PYTHON={sys.executable}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    return done.stdout.strip()


def test_the_lan_address_is_an_ipv4_address_other_devices_can_use() -> None:
    address = ipaddress.ip_address(lan_address())
    assert address.version == 4 and not address.is_unspecified


def test_make_run_on_every_interface_serves_and_links_the_network_address() -> None:
    hosts, base = _make_env("HOST=0.0.0.0", "PORT=8123").split("|")
    address = lan_address()
    assert base == f"http://{address}:8123"
    assert address in hosts.split(",") and "127.0.0.1" in hosts.split(",")


def test_make_run_on_this_computer_only_changes_nothing() -> None:
    assert _make_env("HOST=127.0.0.1") == "|"


@pytest.mark.django_db
def test_table_links_carry_the_public_address(settings, club, players, standard_rules) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club)
    token = game_token_issue(game=game)
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")
    assert table_link(request, game) == f"http://127.0.0.1:8000/t/{token}/"
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    assert table_link(request, game) == f"http://192.168.1.20:8000/t/{token}/"


@pytest.mark.django_db
def test_the_demo_prints_the_club_address_as_a_qr_code() -> None:
    out = StringIO()
    call_command("demo_club", "--base-url", "http://192.168.1.20:8000", "--qr", stdout=out)
    printed = out.getvalue()
    assert "http://192.168.1.20:8000/" in printed
    assert "█" in printed or "▀" in printed  # the code, in block characters

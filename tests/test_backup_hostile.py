"""A backup is untrusted input: every tampered case is refused whole (naming section, object and
field, no traceback, nothing written), or restored with every page of the club answering and
no existing account given a role."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import get_resolver

from leagues.backup import BackupError, club_export, club_import
from leagues.backup import limits as backup_limits
from leagues.backup.limits import document_read
from leagues.clubs.models import Club, Membership
from leagues.tournaments.models import Tournament
from scorecards.models import Game
from tests.backup_club import full_club_build

pytestmark = pytest.mark.django_db

_DOCUMENT: list[dict] = []


def _document() -> dict:
    """The full club's backup (a night, versions, an invitation, seat claims, a merge-free
    club), with the database emptied and a superuser "root" made."""
    if not _DOCUMENT:
        _DOCUMENT.append(club_export(full_club_build()))
    Tournament.objects.all().delete()
    Game.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()
    get_user_model().objects.create_superuser("root", "root@example.org", "root pass 42")
    return copy.deepcopy(_DOCUMENT[0])


def _version(d: dict, action: str = "correct") -> dict:
    return next(v for v in d["hand_versions"] if v["action"] == action)


def _many_versions(d: dict) -> None:
    version = _version(d)
    d["hand_versions"].extend(dict(version) for _ in range(backup_limits.MAX_VERSIONS_PER_HAND))


def _six_seat_night(d: dict) -> None:
    d["tournaments"][0]["rules"] = {"preset": "standard", "seats": 6, "partnership": "two_teams"}


def _owner_named_root(d: dict) -> None:
    for row in (*d["members"], *d["players"]):
        if row["username"] == "olga":
            row["username"] = "root"
    for game in d["games"]:
        for hand in game["hands"]:
            if hand["entered_by"] == "olga":
                hand["entered_by"] = "root"
        if game["created_by"] == "olga":
            game["created_by"] = "root"
    for section in ("invitations", "hand_versions", "tournaments", "seat_claims", "seat_releases"):
        for row in d[section]:
            for key in ("created_by", "by", "user"):
                if row.get(key) == "olga":
                    row[key] = "root"


# (what the file says, the damage, the place a refusal names, or None: restored)
CASES: list[tuple[str, Callable[[dict], object], str | None]] = [
    # Accounts
    ("the owner is listed under the superuser's name", _owner_named_root, None),
    (
        "a former member under the superuser's name corrected a hand",
        lambda d: (
            d["former_members"].append({"username": "root", "first_name": "", "last_name": ""}),
            _version(d).update(by="root"),
        ),
        None,
    ),
    (
        "a player linked to an account the backup does not list",
        lambda d: d["players"][0].update(username="root"),
        "players[0].username",
    ),
    (
        "a correction by an account the backup does not list",
        lambda d: _version(d).update(by="root"),
        ".by",
    ),
    (
        "a former member who is also a member",
        lambda d: d["former_members"].append(
            {"username": "olga", "first_name": "", "last_name": ""}
        ),
        "former_members[0].username",
    ),
    ("a member's role is superuser", lambda d: d["members"][0].update(role="superuser"), ".role"),
    # Hand versions
    ("a hand version whose after is a list", lambda d: _version(d).update(after=[1, 2]), ".after"),
    ("a hand version whose before is a number", lambda d: _version(d).update(before=7), ".before"),
    (
        "a hand version whose after bids the word eight",
        lambda d: _version(d)["after"].update(bid="eight"),
        ".after",
    ),
    ("a hand version of hand 0", lambda d: _version(d).update(number=0), ".number"),
    ("a hand version of hand -1", lambda d: _version(d).update(number=-1), ".number"),
    ("too many versions of one hand", _many_versions, ".number"),
    ("a hand version with action explode", lambda d: _version(d).update(action="x"), ".action"),
    (
        "a hand version's reason of 201 letters",
        lambda d: _version(d).update(reason="r" * 201),
        ".reason",
    ),
    (
        "a hand version whose after names bidder 9 at a table of four",
        lambda d: _version(d)["after"].update(bidder=9),
        None,
    ),
    ("a seat claim for seat 9", lambda d: d["seat_claims"][0].update(seat=9), ".seat"),
    ("a seat claim for seat 4 of four", lambda d: d["seat_claims"][0].update(seat=4), ".seat"),
    ("a seat claim for seat -1", lambda d: d["seat_claims"][0].update(seat=-1), ".seat"),
    (
        "two seat claims for one seat",
        lambda d: d["seat_claims"][1].update(
            seat=d["seat_claims"][0]["seat"], game=d["seat_claims"][0]["game"]
        ),
        "seat_claims[1]",
    ),
    (
        "an invitation for an owner",
        lambda d: d["invitations"][0].update(role="owner"),
        "invitations[0].role",
    ),
    (
        "an invitation used 101 times at most",
        lambda d: d["invitations"][0].update(max_uses=101),
        "invitations[0].max_uses",
    ),
    (
        "a closed round without its time",
        lambda d: d["tournament_rounds"][0].update(status="closed", closed_at=None),
        "tournament_rounds[0]",
    ),
    (
        "an entry whose first round is 0",
        lambda d: d["tournament_entries"][0].update(first_round=0),
        "tournament_entries[0].first_round",
    ),
    (
        "a player entered twice in a night",
        lambda d: d["tournament_entries"][1].update(player=d["tournament_entries"][0]["player"]),
        "tournament_entries[1]",
    ),
    # Nights
    (
        "an entry whose first round is 99",
        lambda d: d["tournament_entries"][0].update(first_round=99),
        None,
    ),
    ("a night with 6-seat rules", _six_seat_night, "tournaments[0].rules"),
    (
        "a night with unknown rules",
        lambda d: d["tournaments"][0].update(rules={"preset": "?"}),
        "tournaments[0].rules",
    ),
    (
        "a night of 99 rounds",
        lambda d: d["tournaments"][0].update(rounds=99),
        "tournaments[0].rounds",
    ),
    (
        "a night of 0 hands a round",
        lambda d: d["tournaments"][0].update(hands_per_round=0),
        "tournaments[0].hands_per_round",
    ),
    (
        "a night on 9999-12-31",
        lambda d: d["tournaments"][0].update(date="9999-12-31"),
        "tournaments[0].date",
    ),
    (
        "a night in status bogus",
        lambda d: d["tournaments"][0].update(status="bogus"),
        "tournaments[0].status",
    ),
    ("a cancelled night", lambda d: d["tournaments"][0].update(status="cancelled"), None),
    (
        "a round in status bogus",
        lambda d: d["tournament_rounds"][0].update(status="x"),
        "tournament_rounds[0].status",
    ),
    (
        "a table pointing at game 99",
        lambda d: d["tournament_tables"][0].update(game=99),
        "tournament_tables[0].game",
    ),
    (
        "a table pointing at game true",
        lambda d: d["tournament_tables"][0].update(game=True),
        "tournament_tables[0].game",
    ),
    (
        "an entry with pair number -5",
        lambda d: d["tournament_entries"][0].update(pair_number=-5),
        "tournament_entries[0].pair_number",
    ),
    # Reserved words and names
    ("the slug new", lambda d: d["club"].update(slug="new"), "club.slug"),
    ("the slug with a slash", lambda d: d["club"].update(slug="a/b"), "club.slug"),
    ("a club name of 101 letters", lambda d: d["club"].update(name="n" * 101), "club.name"),
    (
        "a player's name with a NUL",
        lambda d: d["players"][0].update(name="a\x00b"),
        "players[0].name",
    ),
    (
        "a player's name with a lone surrogate",
        lambda d: d["players"][0].update(name="a\ud800"),
        "players[0].name",
    ),
    (
        "a table label of 41 letters",
        lambda d: d["games"][0].update(table_label="t" * 41),
        "games[0].table_label",
    ),
    # Dates and moments
    (
        "a game created in year 1 at +23:59",
        lambda d: d["games"][0].update(created_at="0001-01-01T00:00:00+23:59"),
        "games[0].created_at",
    ),
    (
        "a game created in year 9999 at -23:59",
        lambda d: d["games"][0].update(created_at="9999-12-31T23:59:59-23:59"),
        "games[0].created_at",
    ),
    (
        "a hand entered in year 1",
        lambda d: d["games"][0]["hands"][0].update(entered_at="0001-01-01T00:00:00+00:00"),
        "games[0].hands[0].entered_at",
    ),
    (
        "a version at 9999-12-31 -23:59",
        lambda d: _version(d).update(at="9999-12-31T23:59:59-23:59"),
        ".at",
    ),
    (
        "a club created without an offset",
        lambda d: d["club"].update(created_at="2026-01-01T10:00:00"),
        "club.created_at",
    ),
    (
        "a season starting in year 1",
        lambda d: d["seasons"][0].update(starts_on="0001-01-01"),
        "seasons[0].starts_on",
    ),
    (
        "a season closed in year 3000",
        lambda d: d["seasons"][0].update(closed_at="3000-01-01T00:00:00+00:00"),
        "seasons[0].closed_at",
    ),
    (
        "a season ending before it starts",
        lambda d: d["seasons"][0].update(ends_on="2000-01-01"),
        "seasons[0].ends_on",
    ),
    (
        "a game played on 1066-10-14",
        lambda d: d["games"][0].update(played_on="1066-10-14"),
        "games[0].played_on",
    ),
    (
        "an invitation expiring on 2026-02-30",
        lambda d: d["invitations"][0].update(expires_at="2026-02-30T00:00:00+00:00"),
        "invitations[0].expires_at",
    ),
    # Numbers
    (
        "an invitation used -1 times at most",
        lambda d: d["invitations"][0].update(max_uses=-1),
        "invitations[0].max_uses",
    ),
    ("a pot of 10**30 per set", lambda d: d["club"].update(pot_per_set=10**30), "club.pot_per_set"),
    (
        "a hand entered from seat 7",
        lambda d: d["games"][0]["hands"][0].update(entered_seat=7),
        "entered_seat",
    ),
    ("a game won by side 7", lambda d: d["games"][0]["state"].update(winner=7), None),
    (
        "a game in status bogus",
        lambda d: d["games"][0]["state"].update(status="bogus"),
        "games[0].state.status",
    ),
    (
        "a hand with 9 and 9 tricks",
        lambda d: d["games"][0]["record"]["hands"][0].update(tricks=[9, 9]),
        "games[0].record",
    ),
    # Shapes
    ("the games given as an object", lambda d: d.update(games={"a": 1}), "games"),
    ("a section given as text", lambda d: d.update(hand_versions="none"), "hand_versions"),
    (
        "a version given as a list",
        lambda d: d["hand_versions"].__setitem__(0, [1]),
        "hand_versions[0]",
    ),
    ("the format kaiser-club/2", lambda d: d.update(format="kaiser-club/2"), "format"),
]


def _counts() -> tuple[int, ...]:
    return (
        Club.objects.count(),
        get_user_model().objects.count(),
        Game.objects.count(),
        Membership.objects.count(),
    )


@pytest.mark.parametrize(("case", "damage", "where"), CASES, ids=[c[0] for c in CASES])
def test_a_tampered_backup_is_refused_cleanly_or_restored_with_every_page_answering(
    case, damage, where
) -> None:
    document = _document()
    damage(document)
    before = _counts()
    root = get_user_model().objects.get(username="root")

    if where is not None:
        with pytest.raises(BackupError) as raised:
            club_import(data=json.loads(json.dumps(document)))
        assert where in raised.value.path, (case, str(raised.value))
        assert _counts() == before
        return
    club = club_import(data=json.loads(json.dumps(document)))
    assert not Membership.objects.filter(user=root).exists()
    assert not Membership.objects.filter(user__is_staff=True).exists()
    owner = Membership.objects.filter(club=club, role="owner").select_related("user").first()
    assert owner is not None
    client = Client(raise_request_exception=False)
    client.force_login(owner.user)
    broken = [
        (url, answer.status_code)
        for url in _club_pages(club)
        if (answer := client.get(url)).status_code >= 500
    ]
    assert broken == []
    for night in Tournament.objects.filter(club=club):
        assert client.post(f"/tournaments/{night.pk}/draw/").status_code < 500


def test_every_page_of_a_restored_club_answers_200() -> None:
    club = club_import(data=_document())
    client = Client(raise_request_exception=False)
    client.force_login(Membership.objects.get(club=club, role="owner").user)
    answers = {url: client.get(url).status_code for url in _club_pages(club)}
    assert len(answers) > 60
    assert {url: code for url, code in answers.items() if code not in (200, 302, 405)} == {}
    for name in ("", "standings/", "players/", "seasons/", "members/"):
        assert answers[f"/clubs/{club.slug}/{name}"] == 200
    for game in Game.objects.filter(club=club):
        assert answers[f"/games/{game.pk}/"] == 200


_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")


def _club_pages(club: Club) -> Iterator[str]:
    """Every GET address of the club, read from the URLconf and filled with the club's
    objects (each game's hands, each night's rounds, entries and tables)."""
    from leagues.backup.limits import _routes

    games = list(Game.objects.filter(club=club))
    nights = list(Tournament.objects.filter(club=club))
    for route in _routes(get_resolver().url_patterns):
        params = set(_PARAM.findall(route))
        if "slug" not in params and "game_id" not in params and "tournament_id" not in params:
            continue
        for values in _fillings(club, params, games, nights):
            yield "/" + _PARAM.sub(lambda m, v=values: str(v[m.group(1)]), route)


def _fillings(club, params, games, nights) -> Iterator[dict]:
    base = {"slug": club.slug}
    simple = {
        "player_id": [p.pk for p in club.players.all()],
        "season_id": [s.pk for s in club.seasons.all()],
        "membership_id": [m.pk for m in club.memberships.all()],
        "invitation_id": [i.pk for i in club.invitations.all()],
    }
    rows = [base]
    for name, choices in simple.items():
        if name in params:
            rows = [{**row, name: choice} for row in rows for choice in choices]
    if "game_id" in params:
        rows = [
            {**row, "game_id": game.pk, "number": number}
            for row in rows
            for game in games
            for number in range(1, max(game.hands.count(), 1) + 1)
        ]
    if "tournament_id" in params:
        filled = []
        for row in rows:
            for night in nights:
                for round_ in night.round_set.all() or [None]:
                    tables = list(round_.tables.all()) if round_ else []
                    for table in tables or [None]:
                        for entry in list(night.entries.all())[:2] or [None]:
                            filled.append(
                                {
                                    **row,
                                    "tournament_id": night.pk,
                                    "number": round_.number if round_ else 1,
                                    "table_id": table.pk if table else 0,
                                    "entry_id": entry.pk if entry else 0,
                                }
                            )
        rows = filled
    seen = set()
    for row in rows:
        key = tuple(sorted((k, v) for k, v in row.items() if k in params))
        if key not in seen:
            seen.add(key)
            yield row


@pytest.mark.parametrize(
    ("case", "raw", "said"),
    [
        ("nested 40 deep", b"[" * 40 + b"]" * 40, "nested deeper than 32"),
        ("a number of 400 digits", b'{"a": 1' + b"0" * 400 + b"}", "a number longer than 25"),
        ("NaN", b'{"a": NaN}', "NaN is not a number"),
        ("Infinity", b'{"a": -Infinity}', "Infinity is not a number"),
        ("not UTF-8", b'{"a": "\xff"}', "not UTF-8"),
        ("cut short", b'{"format": "kaiser-club/1", "club": {', "not valid JSON"),
    ],
)
def test_a_hostile_file_is_refused_before_it_is_parsed(case, raw, said, tmp_path) -> None:
    with pytest.raises(BackupError, match=said):
        document_read(raw)
    path = tmp_path / "club.json"
    path.write_bytes(raw)
    with pytest.raises(CommandError, match=f"nothing imported: .*{said}"):
        call_command("club_import", str(path))


def test_brackets_inside_text_are_not_nesting() -> None:
    text = json.dumps({"name": "[" * 100 + '\\"{' * 50})
    assert document_read(text.encode())["name"].startswith("[[[")


def test_a_file_over_the_operators_size_limit_is_refused_unread(tmp_path) -> None:
    path = tmp_path / "club.json"
    path.write_text(json.dumps({"pad": "x" * (1024 * 1024)}))
    with pytest.raises(CommandError, match="nothing imported: the file is larger than 1 MB"):
        call_command("club_import", str(path), "--max-mb", "1")
    with pytest.raises(CommandError, match="--max-mb: expected 1 to 1024"):
        call_command("club_import", str(path), "--max-mb", "0")


def test_a_section_over_its_object_limit_is_refused_naming_it(monkeypatch) -> None:
    document = _document()
    monkeypatch.setattr(backup_limits, "MAX_OBJECTS", 3)
    with pytest.raises(BackupError, match=r"^players: more than 3 objects"):
        club_import(data=document)
    assert not Club.objects.exists()


@pytest.mark.parametrize("slug", ["new", "bad slug", "x" * 61])
def test_a_slug_given_by_the_operator_is_checked_as_the_documents(slug) -> None:
    document = _document()
    with pytest.raises(BackupError) as raised:
        club_import(data=document, slug=slug)
    assert raised.value.path == "slug"
    assert not Club.objects.exists()

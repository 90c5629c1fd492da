"""Club backups: export a club with many kinds of games, restore it into an emptied database (and
beside the original), and compare everything; a bad document writes nothing."""

from __future__ import annotations

import copy
import datetime
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone

from leagues.backup import CLUB_FORMAT, BackupError, club_export, club_import
from leagues.clubs.models import Club, Membership, Player, Season
from leagues.clubs.roles import Role
from leagues.demo import demo_club_create
from scorecards.importing import game_import
from scorecards.models import Game, Hand, Seat
from scorecards.rules import HandInput, KaiserError, game_score, record_parse, rules_build
from scorecards.selectors import game_scored
from scorecards.services import game_start, hand_record
from tests.examples import valid_examples

pytestmark = pytest.mark.django_db


@pytest.fixture
def big_club() -> Club:
    return _big_club_build()


def _big_club_build() -> Club:
    """The demo club, plus: a director with a linked player, a second season, every valid shared
    example (other presets, three seats, auctions), a game with plain-name seats, a confirmed
    hand."""
    club, _ = demo_club_create()
    user_model = get_user_model()
    dora = user_model.objects.create_user("dora", email="dora@example.org", first_name="Dora")
    Membership.objects.create(club=club, user=dora, role=Role.DIRECTOR)
    Player.objects.filter(club=club, name="Ann").update(user=dora)
    summer = Season.objects.create(
        club=club,
        name="Été 2027",
        starts_on=datetime.date(2027, 6, 1),
        rules={"preset": "standard", "min_bid": 6},
    )
    for number, (_, case) in enumerate(valid_examples()):
        game_import(club=club, record=case["record"], season=summer if number % 2 else None)
    plain = game_start(
        seats=["Zoé", "Yves", "Xavier", "Wanda"],
        rules=rules_build({"preset": "standard"}),
        club=club,
        table_label="Table 9",
        created_by=dora,
    )
    hand_record(
        game=plain,
        hand=HandInput(bidder=1, bid=8, tricks=(2, 6), five_hearts=1, three_spades=0),
        entered_by=dora,
        entered_by_name="Dora",
    )
    Hand.objects.filter(game=plain).update(confirmed_at=timezone.now(), confirmed_by_name="Yves")
    return club


def _wipe() -> None:
    Game.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()


def _engine_scores(data: dict) -> list[tuple]:
    """Each game's final result, from its record, by the rules engine."""
    results = []
    for game in data["games"]:
        parsed = record_parse(game["record"])
        score = game_score(parsed.rules, parsed.hands, parsed.first_dealer)
        results.append((score.scores, score.winner, score.reason, len(score.hands)))
    return results


def test_export_then_restore_into_an_empty_database_gives_the_same_club(big_club) -> None:
    before = club_export(big_club)
    assert before["format"] == CLUB_FORMAT
    assert len(before["games"]) == Game.objects.filter(club=big_club).count() > 20
    hands_before = Hand.objects.count()
    json_text = json.dumps(before)  # the document survives JSON as it is
    _wipe()
    assert Hand.objects.count() == 0

    restored = club_import(data=json.loads(json_text))
    after = club_export(restored)
    assert after == before
    assert Hand.objects.count() == hands_before
    # Every stored game agrees with the engine reading its record, and with the cached totals.
    for game, expected in zip(
        Game.objects.filter(club=restored).order_by("created_at", "pk"),
        _engine_scores(before),
        strict=True,
    ):
        score = game_scored(game)
        assert (score.scores, score.winner, score.reason, len(score.hands)) == expected
        assert (tuple(game.scores), game.winner, game.hand_count) == (
            tuple(score.scores),
            score.winner,
            len(score.hands),
        )
    dora = get_user_model().objects.get(username="dora")
    assert not dora.has_usable_password()
    assert Player.objects.get(club=restored, name="Ann").user == dora
    assert Membership.objects.get(club=restored, user=dora).role == Role.DIRECTOR
    assert Seat.objects.filter(game__table_label="Table 9", player__isnull=True).count() == 4


def test_restore_beside_the_original_as_a_new_club(big_club) -> None:
    before = club_export(big_club)
    # The operator gives the backup's accounts to the same people here, by name.
    same = {m["username"]: m["username"] for m in before["members"]}
    copy_club = club_import(data=before, slug="demo-copy", name="Demo (copy)", accounts=same)
    after = club_export(copy_club)
    assert after["club"]["slug"] == "demo-copy"
    assert after["club"]["name"] == "Demo (copy)"
    # The keys are taken by the original's hands, so the copy's hands got new ones.
    keys_before = {h["idempotency_key"] for g in before["games"] for h in g["hands"]}
    keys_after = {h["idempotency_key"] for g in after["games"] for h in g["hands"]}
    assert not keys_before & keys_after

    def without_keys(data: dict) -> dict:
        data = copy.deepcopy(data)
        data.pop("club")
        for game in data["games"]:
            for hand in game["hands"]:
                hand.pop("idempotency_key")
        return data

    assert without_keys(after) == without_keys(before)
    assert Membership.objects.filter(user__username="demo").count() == 2


_DOCUMENT: list[dict] = []


def _document() -> dict:
    """A copy of the big club's export, with the database left empty (built once per run)."""
    if not _DOCUMENT:
        _DOCUMENT.append(club_export(_big_club_build()))
    _wipe()
    return copy.deepcopy(_DOCUMENT[0])


def _counts() -> tuple[int, ...]:
    return (
        Club.objects.count(),
        get_user_model().objects.count(),
        Player.objects.count(),
        Season.objects.count(),
        Game.objects.count(),
        Hand.objects.count(),
    )


@pytest.mark.parametrize(
    ("damage", "where"),
    [
        (lambda d: d.update(format="kaiser-game/1"), "format"),
        (lambda d: d["games"][-3]["record"]["hands"][1].update(tricks=[9, 9]), "games["),
        (lambda d: d["games"][5].update(season="No such season"), ".season"),
        (lambda d: d["members"][0].update(role="emperor"), "members[0].role"),
        (lambda d: d["members"].append(dict(d["members"][0])), ".username"),
        (lambda d: d["players"][1].update(name=d["players"][0]["name"].upper()), "players[1]"),
        (lambda d: d["seasons"][0].update(rules={"preset": "nope"}), "seasons[0].rules"),
        (lambda d: d["seasons"][0].update(ends_on="1999-01-01"), "seasons[0].ends_on"),
        (lambda d: d["games"][2]["hands"][0].update(idempotency_key="xyz"), "idempotency_key"),
        (lambda d: d["games"][2]["hands"].pop(), "games[2].hands"),
        (lambda d: d["games"][1].update(created_at="yesterday"), "games[1].created_at"),
        (lambda d: d["players"][0].update(name="x\x00y"), "players[0].name"),
        (lambda d: d.update(games={"a": 1}), "games"),
        (lambda d: d["club"].update(slug=""), "club.slug"),
    ],
)
def test_a_bad_document_writes_nothing_and_names_the_problem(damage, where) -> None:
    data = _document()
    damage(data)
    counts = _counts()
    with pytest.raises(BackupError) as raised:
        club_import(data=data)
    assert where in str(raised.value)
    assert _counts() == counts


def test_a_failure_half_way_through_the_writes_rolls_everything_back(monkeypatch) -> None:
    data = _document()
    import leagues.backup.batches as batches
    import leagues.backup.restore as backup

    # Every game its own transaction: the failure comes after several have committed.
    monkeypatch.setattr(batches, "BATCH_SECONDS", 0)
    calls = {"n": 0}
    real = backup.score_apply

    def failing_score_apply(game, score):
        calls["n"] += 1
        if calls["n"] == 10:
            raise KaiserError("the server fell over")
        return real(game, score)

    monkeypatch.setattr(backup, "score_apply", failing_score_apply)
    with pytest.raises(KaiserError):
        club_import(data=data)
    assert calls["n"] == 10
    assert _counts() == (0, 0, 0, 0, 0, 0)


def test_restoring_over_an_existing_slug_is_refused(big_club) -> None:
    counts = _counts()
    with pytest.raises(BackupError, match="exists already"):
        club_import(data=club_export(big_club))
    assert _counts() == counts


def test_commands_export_and_import(big_club, tmp_path, capsys) -> None:
    target = tmp_path / "club.json"
    call_command("club_export", "demo", "--output", str(target))
    data = json.loads(target.read_text())
    assert data["club"]["slug"] == "demo"
    call_command("club_import", str(target), "--slug", "copy")
    assert "restored club 'copy'" in capsys.readouterr().out
    assert Game.objects.filter(club__slug="copy").count() == len(data["games"])

    truncated = tmp_path / "truncated.json"
    truncated.write_text(target.read_text()[:5000])
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("club_import", str(truncated), "--slug", "other")
    with pytest.raises(CommandError, match=r"nothing imported: club\.slug"):
        call_command("club_import", str(target))
    with pytest.raises(CommandError, match="no club"):
        call_command("club_export", "nope")
    assert not Club.objects.filter(slug="other").exists()

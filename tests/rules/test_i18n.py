"""The engine's messages go through the translator of `scorecards.rules.i18n` (no Django here)."""

from __future__ import annotations

import ast
import pickle
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scorecards.rules import (
    HandError,
    HandInput,
    KaiserError,
    RecordError,
    RulesError,
    call_parse,
    game_score,
    i18n,
    record_score,
    rules_build,
)

# Not imported as `_`: makemessages scans the tests too, and the catalogue is the app's.
from scorecards.rules.i18n import _ as engine_gettext
from scorecards.rules.i18n import translator_set
from tests.rules.helpers import ENGINE, calls_of_underscore, engine_messages

ROOT = Path(__file__).resolve().parents[2]

SEATS = ["Ann", "Cat", "Bob", "Dan"]
GOOD = {"bidder": 0, "bid": 8, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1}

# Records the engine refuses, one for each kind of message and prefix (hand, rules, seats, ...).
BAD_RECORDS: list[dict[str, Any]] = [
    {"seats": SEATS, "hands": [{**GOOD, "tricks": [6, 3]}]},
    {"seats": SEATS, "hands": [{**GOOD, "bid": 3}]},
    {"seats": SEATS, "hands": [{**GOOD, "five_hearts": 1, "tricks": [8, 0]}]},
    {"seats": SEATS, "hands": [{**GOOD, "three_spades": None}]},
    {"seats": SEATS, "hands": [{**GOOD, "bidder": None, "auction": ["8", "7", "pass", "9"]}]},
    {"seats": SEATS, "hands": [{**GOOD, "bidder": None, "auction": ["8", "x", "pass", "9"]}]},
    {"seats": SEATS, "hands": [{**GOOD, "bidder": None, "auction": ["8", "8 low", "pass", "9"]}]},
    {"seats": SEATS, "hands": [{**GOOD, "bidder": None, "auction": ["pass"] * 4}]},
    {"seats": SEATS, "hands": [{**GOOD, "seat_tricks": [6, 1, 0, 0]}]},
    {"seats": SEATS, "hands": [{**GOOD, "kind": "no"}], "rules": {"no_trump": False}},
    {"seats": SEATS, "hands": [{**GOOD, "dealer": 2}]},
    {"seats": SEATS, "hands": ["a hand"]},
    {"seats": SEATS, "hands": [{**GOOD, "bid": "8"}]},
    {"seats": SEATS, "hands": [], "rules": {"seats": 9}},
    {"seats": SEATS, "hands": [], "rules": {"preset": "nope"}},
    {"seats": SEATS, "hands": [], "rules": {"seats": 6, "partnership": "individual"}},
    {"seats": SEATS, "hands": [], "rules": {"min_bid": True}},
    {"seats": SEATS, "hands": [], "rules": {"kaiser_bid": "solo", "no_trump": False}},
    {"seats": SEATS[:3], "hands": []},
    {"seats": [*SEATS[:3], ""], "hands": []},
    {"hands": []},
    {"seats": SEATS, "hands": [], "first_dealer": 4},
    {"seats": SEATS, "hands": "none"},
    {"seats": SEATS, "hands": [], "format": "kaiser-game/0"},
]


def refusal(record: Any) -> KaiserError:
    with pytest.raises(KaiserError) as caught:
        record_score(record)
    return caught.value


@pytest.fixture
def translate() -> Iterator[Callable[[Callable[[str], str]], None]]:
    """Install a fake translator for the test; whatever was installed comes back after it."""
    before = i18n._translator
    yield translator_set
    translator_set(before)


def bracketed(message: str) -> str:
    return f"[{message}]"


def angled(message: str) -> str:
    return f"<{message}>"


def test_identity_by_default_and_no_django() -> None:
    # A process of its own: in the test run, the Django app has installed its gettext.
    code = (
        "import sys\n"
        "from scorecards.rules import RulesError, rules_build\n"
        "from scorecards.rules.i18n import _\n"
        "try:\n"
        "    rules_build({'seats': 9})\n"
        "except RulesError as e:\n"
        "    print(e)\n"
        "print(_('hand %(number)s: %(message)s'))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert run.stdout.splitlines() == [
        "rules: seats must be 2 to 6 (got 9)",
        "hand %(number)s: %(message)s",
        "[]",
    ]


def test_translator_set_replaces_the_translator(translate) -> None:
    translate(bracketed)
    assert engine_gettext("bid is missing") == "[bid is missing]"
    translate(angled)
    assert engine_gettext("bid is missing") == "<bid is missing>"


@pytest.mark.parametrize("record", BAD_RECORDS)
def test_every_message_and_prefix_is_translated(translate, record) -> None:
    english = str(refusal(record))
    translate(bracketed)
    error = refusal(record)
    # The prefix is translated, and so is the message inside it.
    assert str(error).startswith("[") and str(error).endswith("]]"), str(error)
    assert error.message.startswith("[") and error.message.endswith("]"), error.message
    # Nothing else changes: take the brackets away and the English is back.
    assert str(error).replace("[", "").replace("]", "") == english.replace("[", "").replace("]", "")


def test_placeholders_may_be_reordered(translate) -> None:
    catalogue = {
        "hand %(number)s: %(message)s": "%(message)s (hand %(number)s)",
        "tricks must add up to %(total)s (got %(sum)s)": "got %(sum)s, want %(total)s",
        "%(field)s: %(message)s": "[%(field)s] %(message)s",
    }
    translate(lambda message: catalogue.get(message, message))
    error = refusal(BAD_RECORDS[0])
    assert isinstance(error, HandError)
    assert str(error) == "got 9, want 8 (hand 1)"
    assert (error.number, error.field, error.message) == (1, "tricks", "got 9, want 8")
    assert str(refusal({"seats": SEATS[:3], "hands": []})) == "[seats] expected 4 names (got 3)"


def test_words_inside_messages_are_translated(translate) -> None:
    catalogue = {
        "hand %(number)s: %(message)s": "main %(number)s : %(message)s",
        "the five of hearts": "le cinq de cœur",
        "%(card)s went to side %(side)s, which took no trick": (
            "%(card)s est allé à l'équipe %(side)s, qui n'a fait aucune levée"
        ),
        "auction call %(index)s (the dealer, seat %(seat)s)": (
            "l'annonce %(index)s des enchères (le donneur, siège %(seat)s)"
        ),
        "%(who)s: %(call)s must be higher than %(best)s (seat %(seat)s)": (
            "%(who)s : %(call)s doit dépasser %(best)s (siège %(seat)s)"
        ),
    }
    translate(lambda message: catalogue.get(message, message))
    assert str(refusal(BAD_RECORDS[2])) == (
        "main 1 : five_hearts: le cinq de cœur est allé à l'équipe 1, qui n'a fait aucune levée"
    )
    rules = rules_build({"dealer_may_equal": False})
    with pytest.raises(HandError) as caught:
        game_score(rules, [HandInput(auction=("8", "pass", "pass", "8"))])
    assert str(caught.value) == (
        "main 1 : l'annonce 4 des enchères (le donneur, siège 0) : '8' doit dépasser '8' (siège 1)"
    )


def test_translated_when_raised(translate) -> None:
    translate(bracketed)
    first = refusal(BAD_RECORDS[0])
    translate(angled)
    second = refusal(BAD_RECORDS[0])
    assert str(first) == "[hand 1: [tricks must add up to 8 (got 9)]]"
    assert str(second) == "<hand 1: <tricks must add up to 8 (got 9)>>"


def _hand_error() -> HandError:
    message = engine_gettext("tricks must add up to %(total)s (got %(sum)s)") % {
        "total": 8,
        "sum": 9,
    }
    return HandError(3, "tricks", message)


def _rules_error() -> RulesError:
    return RulesError(engine_gettext("unknown setting %(setting)s") % {"setting": "'x'"}, "x")


def _record_error() -> RecordError:
    return RecordError(
        "seats",
        engine_gettext("expected %(seats)s names (got %(count)s)") % {"seats": 4, "count": 3},
    )


@pytest.mark.parametrize("make", [_hand_error, _rules_error, _record_error])
def test_pickling_keeps_the_text_as_raised(translate, make) -> None:
    translate(bracketed)
    error = make()
    translate(angled)  # another process, another language
    again = pickle.loads(pickle.dumps(error))
    assert (str(again), again.message, again.field) == (str(error), error.message, error.field)
    assert str(again).startswith("[")


def test_call_parse_refusal_is_translated(translate) -> None:
    translate(bracketed)
    with pytest.raises(ValueError, match=r"^\[not a call: 'eight'\]$"):
        call_parse("eight")


# ---------------------------------------------------------------------------------------------
# What xgettext needs to see


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_messages_are_literals_xgettext_can_extract(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for call in calls_of_underscore(tree):
        assert len(call.args) == 1 and not call.keywords, ast.unparse(call)
        (argument,) = call.args
        assert isinstance(argument, ast.Constant) and isinstance(argument.value, str), (
            f"{path.name}:{call.lineno}: _() needs a plain string literal, not "
            f"{ast.unparse(argument)}"
        )
    # No f-string builds a message any more: the only ones left are not for players.
    fstrings = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)]
    allowed = {"errors.py": 1, "calls.py": 2}  # a prefix to strip; call_text's "8 no"
    assert len(fstrings) == allowed.get(path.name, 0), (path.name, fstrings)


def test_messages_use_named_placeholders_only() -> None:
    messages = engine_messages()
    assert len(messages) > 70
    for message in messages:
        # Every % starts a named %(name)s placeholder, so translators may reorder them.
        assert message.count("%") == message.count("%("), message
        assert message.count("%(") == message.count(")s"), message


def test_every_message_is_asked_for_through_the_translator(translate) -> None:
    asked: set[str] = set()

    def recording(message: str) -> str:
        asked.add(message)
        return message

    translate(recording)
    for record in BAD_RECORDS:
        refusal(record)
    assert asked <= set(engine_messages())
    assert "hand %(number)s: %(message)s" in asked
    assert "%(field)s: %(message)s" in asked

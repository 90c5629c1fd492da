"""JSON someone sends is bounded before it is parsed: nesting depth and the length of a number,
refused with the place and the bound, never a RecursionError or a ValueError traceback; in the
reader itself, the game import page, `game_import`, `kaiser_score`, `club_import` and the rules
form's JSON box."""

from __future__ import annotations

import json
import time

import pytest
from django.core.management import CommandError, call_command

from kaiser_league.json_read import MAX_DEPTH, MAX_NUMBER_CHARS, JsonRefused, json_read
from scorecards.models import Game
from scorecards.rules_form import RulesForm

DEEP_ARRAY = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000
LONG_INT = '{"format": "kaiser-game/1", "x": ' + "9" * 5000 + "}"
LONG_FLOAT = '{"x": 0.' + "1" * 5000 + "}"


@pytest.mark.parametrize(
    ("text", "path", "message"),
    [
        (DEEP_ARRAY, "[0][0][0]", f"nested deeper than {MAX_DEPTH} levels"),
        (DEEP_OBJECT, "a.a.a.a", f"nested deeper than {MAX_DEPTH} levels"),
        (LONG_INT, "x", f"a number longer than {MAX_NUMBER_CHARS} characters"),
        (LONG_FLOAT, "x", f"a number longer than {MAX_NUMBER_CHARS} characters"),
        ('{"hands": [{}, {"tricks": [1, -' + "2" * 30 + "]}]}", "hands[1].tricks[1]", "longer"),
        ('{"a": NaN}', "", "NaN is not a number"),
        ('{"a": -Infinity}', "", "-Infinity is not a number"),
        ('{"a": 1e999}', "", "1e999 is too large"),
        ('{"a": ', "", "not valid JSON (line 1, column 7"),
    ],
)
def test_the_reader_refuses_naming_the_place(text, path, message) -> None:
    with pytest.raises(JsonRefused) as refused:
        json_read(text)
    assert refused.value.path.startswith(path)
    assert message in refused.value.message


def test_brackets_and_digits_inside_strings_are_text() -> None:
    text = json.dumps({"note": "[" * 1000 + "9" * 5000, 'a\\"[': ["]]]", 1]})
    assert json_read(text)["note"].startswith("[[[")
    assert json_read(text.encode())['a\\"['] == ["]]]", 1]


def test_the_scan_stays_linear_on_an_unterminated_string_of_escaped_quotes() -> None:
    text = '"' + '\\"' * 200_000
    started = time.perf_counter()
    with pytest.raises(JsonRefused):
        json_read(text)
    assert time.perf_counter() - started < 5  # quadratic would take minutes


def test_a_run_of_letters_that_is_not_a_number_is_left_to_the_parser() -> None:
    with pytest.raises(JsonRefused, match="not valid JSON"):
        json_read("[" + "e" * 40 + "]")


def test_bytes_not_utf8_are_refused() -> None:
    with pytest.raises(JsonRefused, match="not UTF-8"):
        json_read(b'{"a": "\xff"}')


@pytest.mark.parametrize("command", ["game_import", "kaiser_score", "club_import"])
@pytest.mark.parametrize(
    ("text", "message"),
    [(DEEP_ARRAY, "nested deeper than"), (DEEP_OBJECT, "nested deeper than"), (LONG_INT, "longer")],
    ids=["deep-array", "deep-object", "5000-digits"],
)
@pytest.mark.django_db
def test_commands_refuse_deep_json_and_long_numbers_with_a_message(
    tmp_path, club, command, text, message
) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(text)
    args = [str(path), "--club", club.slug] if command == "game_import" else [str(path)]
    with pytest.raises(CommandError, match=message):
        call_command(command, *args)
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_game_import_names_the_field_of_a_long_number(tmp_path, club) -> None:
    record = {"format": "kaiser-game/1", "seats": ["Ann", "Bob", "Cy", "Di"], "hands": []}
    text = json.dumps(record)[:-1] + ', "first_dealer": ' + "1" * 400 + "}"
    path = tmp_path / "long.json"
    path.write_text(text)
    with pytest.raises(CommandError, match=r"first_dealer: a number longer than 25"):
        call_command("game_import", str(path), "--club", club.slug)


@pytest.mark.parametrize("raw", ["[" * 1500, '{"target": ' + "9" * 5000 + "}"])
def test_the_rules_forms_json_box_refuses_deep_or_long_input_on_its_field(raw) -> None:
    form = RulesForm({"preset": "standard", "overrides": raw[:2000]})
    assert not form.is_valid()
    assert "overrides" in form.errors


def test_a_record_file_larger_than_the_commands_read_is_refused_unread(tmp_path) -> None:
    from scorecards.management.commands.kaiser_score import MAX_FILE_CHARS

    path = tmp_path / "huge.json"
    path.write_text("[" + " " * MAX_FILE_CHARS + "]")
    with pytest.raises(CommandError, match="larger than 4 MB"):
        call_command("kaiser_score", str(path))

"""The summaries' JSON columns written by hand (`leagues.standings.summary_text`) are the text
`json.dumps` writes for what a summary holds, and JSON meaning the same value for anything else
(a stored summary must read back as the value the rebuild computed)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from leagues.standings.derived import COUNTERS
from leagues.standings.summary_text import JSON_TEXT, lists_text

numbers = st.integers(min_value=-(2**40), max_value=2**40)
# A row as the engine's counters give it: every counter, in COUNTERS' order.
counter_row = st.lists(numbers, min_size=len(COUNTERS), max_size=len(COUNTERS))
# Anything a column could be handed, summary-shaped or not.
other = st.recursive(
    st.none() | st.booleans() | numbers | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=12,
)


@given(st.lists(numbers, max_size=8))
def test_whole_numbers_as_json_dumps_writes_them(value):
    assert lists_text(value) == json.dumps(value)


@given(st.lists(st.lists(numbers, max_size=3), max_size=3))
def test_lists_of_whole_numbers_as_json_dumps_writes_them(value):
    assert lists_text(value) == json.dumps(value)


@given(st.lists(counter_row, max_size=6))
def test_counter_rows_as_json_dumps_writes_them(rows):
    for name in ("seat_counts", "side_counts"):
        assert JSON_TEXT[name](rows) == json.dumps(rows)


@given(other)
def test_anything_else_reads_back_as_itself(value):
    for name, text in JSON_TEXT.items():
        assert json.loads(text(value)) == value, name


def test_a_bool_is_not_written_as_a_number():
    # True is an int to Python; json.dumps writes it true, and so must these.
    assert lists_text([1, True]) == "[1, true]"
    row = [0] * len(COUNTERS)
    row[0] = True
    assert json.loads(lists_text([row])) == [row]
    assert lists_text([row]) == json.dumps([row])
    assert json.loads(lists_text([row]))[0][0] is True


def test_what_python_writes_otherwise_goes_through_the_encoder():
    # Each is a list Python writes unlike JSON: None, a float, a text, a tuple, a bool.
    for value in ([None], [1.5], [1e300], ["1"], [(1, 2)], [[1], [False]], [[[-1, 2]], []]):
        assert lists_text(value) == json.dumps(value), value

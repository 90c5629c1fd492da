"""The summaries' JSON columns written as text (`leagues.standings.summary_text`) read back as
the value the rebuild computed, whatever it holds (a stored summary must be what was computed)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from leagues.standings.derived import COUNTERS
from leagues.standings.summary_text import JSON_TEXT, json_text

# Whole numbers of any size: past 64 bits orjson writes none, and json does.
numbers = st.integers(min_value=-(2**70), max_value=2**70)
# A row as the engine's counters give it: every counter, in COUNTERS' order.
counter_row = st.lists(numbers, min_size=len(COUNTERS), max_size=len(COUNTERS))
# Anything a column could be handed, summary-shaped or not (but what no JSON column stores: an
# infinity or NaN, which neither database takes as JSON).
finite = st.floats(allow_nan=False, allow_infinity=False)
other = st.recursive(
    st.none() | st.booleans() | numbers | finite | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=12,
)


def same(read, value) -> bool:
    """`read` is `value`, down to each item's type (True is not 1, 1.0 is not 1)."""
    if isinstance(value, list):
        return type(read) is list and len(read) == len(value) and all(map(same, read, value))
    if isinstance(value, dict):
        return (
            type(read) is dict
            and read.keys() == value.keys()
            and all(same(read[key], value[key]) for key in value)
        )
    return type(read) is type(value) and read == value


@given(st.lists(st.lists(numbers, max_size=3), max_size=3) | st.lists(counter_row, max_size=6))
def test_lists_of_whole_numbers_read_back_as_themselves(value):
    for name, text in JSON_TEXT.items():
        assert same(json.loads(text(value)), value), name


@given(other)
def test_anything_else_reads_back_as_itself(value):
    for name, text in JSON_TEXT.items():
        assert same(json.loads(text(value)), value), name


def test_a_bool_is_not_written_as_a_number():
    row = [0] * len(COUNTERS)
    row[0] = True
    assert json_text([row]).startswith("[[true,")
    assert json.loads(json_text([1, True])) == [1, True]

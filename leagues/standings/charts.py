"""Inline SVG charts (no JavaScript, CSP-safe): only scales stored numbers to the drawing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kaiser_league.charts import ChartScale

WIDTH, HEIGHT, PAD = 320, 120, 8


@dataclass(frozen=True)
class LineChart:
    points: str  # the polyline's "x,y x,y ..."
    low: float
    high: float
    first: float
    last: float
    width: int = WIDTH
    height: int = HEIGHT
    zero_y: float | None = None  # where 0 falls, when it is in range
    dots: tuple[ChartDot, ...] = ()  # each value's point, for its label


@dataclass(frozen=True)
class ChartDot:
    x: float
    y: float
    value: float


def line_chart(values: Sequence[float]) -> LineChart | None:
    """A polyline of `values` in order, scaled to fit WIDTH x HEIGHT. None for no values."""
    if not values:
        return None
    low, high = min(values), max(values)
    scale = ChartScale(WIDTH, HEIGHT, PAD, low, high, len(values))
    zero = scale.y(0.0) if low <= 0 <= high else None
    dots = tuple(ChartDot(scale.x(i), scale.y(v), v) for i, v in enumerate(values))
    return LineChart(
        scale.points(list(values)), low, high, values[0], values[-1], zero_y=zero, dots=dots
    )

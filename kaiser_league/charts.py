"""The one scaler of our inline SVG line charts: a value and its position in the series to a
point of the drawing (the score sheet's running totals, a player's rating over time)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChartScale:
    """Maps a series of `count` values between `low` and `high` onto a `width` x `height`
    drawing with `pad` around it; the first value sits left, higher values higher up."""

    width: int
    height: int
    pad: int
    low: float
    high: float
    count: int

    def x(self, index: int) -> float:
        steps = max(self.count - 1, 1)
        return round(self.pad + index * (self.width - 2 * self.pad) / steps, 1)

    def y(self, value: float) -> float:
        span = (self.high - self.low) or 1
        return round(
            self.height - self.pad - (value - self.low) / span * (self.height - 2 * self.pad), 1
        )

    def points(self, values: list[float] | list[int]) -> str:
        """The polyline's "x,y x,y ..." of `values` in order."""
        return " ".join(f"{self.x(i)},{self.y(v)}" for i, v in enumerate(values))

"""Amounts of the money pot (kept in cents) as people read and type them. Who fed a game's pot and
who collects it is the engine's account (`scorecards.rules.pot_account`)."""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format


def cents_decimal(cents: int) -> Decimal:
    """Cents as an amount with two decimals (150 -> 1.50), as a form shows it."""
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def cents_text(cents: int) -> str:
    """An amount of cents with two decimals, in the active language's number format."""
    return number_format(cents_decimal(cents), decimal_pos=2, use_l10n=True)

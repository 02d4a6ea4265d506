"""Bit masks: a set of cell values as one int (bit v set when value v is allowed)."""

from __future__ import annotations

from typing import Iterator

Mask = int
"""A set of values as a bit mask: bit v is set when value v is allowed (bit 0 is never set)."""


def bit(v: int) -> Mask:
    return 1 << v


def up_to(v: int) -> Mask:
    """The values 1..v."""
    return (2 << v) - 2 if v >= 1 else 0


def is_single(m: Mask) -> bool:
    return m != 0 and m & (m - 1) == 0


def values_of(m: Mask) -> Iterator[int]:
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def describe(m: Mask) -> str:
    values = list(values_of(m))
    shown = ", ".join(map(str, values[:8])) + (", …" if len(values) > 8 else "")
    return f"{'value' if len(values) == 1 else 'values'} {shown}"

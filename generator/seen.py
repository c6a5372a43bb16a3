"""A compact set of 64-bit sentence digests, for uniqueness checks over millions of pairs.

A Python set of digests costs about 150 bytes a pair; this open-addressing table in an
`array('Q')` costs 16 to 32 bytes a pair, so generation memory stays nearly flat in N.
"""

from __future__ import annotations

import hashlib
from array import array


class DigestSet:
    """Remembers which texts were seen, by a 64-bit digest (never 0, which marks a free slot)."""

    __slots__ = ("_mask", "_size", "_table")

    def __init__(self, capacity: int = 1024) -> None:
        size = 1
        while size < capacity * 2:
            size *= 2
        self._table = array("Q", bytes(8 * size))
        self._mask = size - 1
        self._size = 0

    def __len__(self) -> int:
        return self._size

    @staticmethod
    def digest(text: str) -> int:
        """Return the non-zero 64-bit digest of a text."""
        value = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
        return value or 1

    def __contains__(self, value: object) -> bool:
        """Return whether a digest (from `digest`) is in the set."""
        table, mask = self._table, self._mask
        index = value & mask  # type: ignore[operator]
        while True:
            current = table[index]
            if current == 0:
                return False
            if current == value:
                return True
            index = (index + 1) & mask

    def add(self, value: int) -> bool:
        """Add a digest (from `digest`); return False if it was already present."""
        table, mask = self._table, self._mask
        index = value & mask
        while True:
            current = table[index]
            if current == 0:
                break
            if current == value:
                return False
            index = (index + 1) & mask
        table[index] = value
        self._size += 1
        if self._size * 2 > mask:
            self._grow()
        return True

    def _grow(self) -> None:
        old = self._table
        size = len(old) * 2
        self._table = array("Q", bytes(8 * size))
        self._mask = size - 1
        table, mask = self._table, self._mask
        for value in old:
            if value:
                index = value & mask
                while table[index]:
                    index = (index + 1) & mask
                table[index] = value

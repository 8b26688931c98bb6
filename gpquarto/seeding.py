"""Deterministic seed derivation: every random choice in gpquarto flows from an explicit seed.

``derive_seed(run_seed, generation, index)`` gives the same 63-bit seed in every process and on every
machine (it hashes the parts with BLAKE2b, not Python's randomised ``hash``), so results do not depend on
the number of workers or the order in which work is done.
"""

from __future__ import annotations

import hashlib


def derive_seed(*parts: int | str | None) -> int:
    """A seed in [0, 2**63) determined by ``parts`` alone."""
    text = "\x1f".join("None" if part is None else str(part) for part in parts)
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1

"""Shared by the Godot 3 and Godot 4 engine scripts (tests/godot3/, tests/godot4/): the
seeded mutator of the differential runs. The two engines differ only in the parameters of a
`Mutator` (how many type ids there are, which header flag bits exist); the sequence of random
draws is the same for both, so a given seed gives the same mutants as before this was shared.
"""
EDGE_WORDS = [0, 1, 2, 3, 4, 5, 7, 8, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x40000000, 0xFFFF]
KINDS = ["flip", "flip2", "trunc", "count", "count_delta", "type", "flags", "insert", "delete",
         "splice"]


def words(b):
    """The little-endian 32-bit words of `b` (a trailing partial word is left out)."""
    return [int.from_bytes(b[i:i + 4], "little") for i in range(0, len(b) - 3, 4)]


def set_word(b, i, w):
    return b[:4 * i] + w.to_bytes(4, "little") + b[4 * i + 4:]


class Mutator:
    """Bit flips, truncations, count and length fields set to edge values or nudged, type bytes
    and header flags changed, aligned words inserted and deleted, splices of two values.

    variant_max: the number of type ids of the dialect (27 for Godot 3, 39 for Godot 4);
    flags: the header bits the "flags" kind toggles, one chosen per mutant;
    flag_head_clear: the bits a word must have clear to have its flags toggled (Godot 3 looks
    only at the top byte; Godot 4 also wants the byte above the type id clear).
    """

    def __init__(self, variant_max, flags, flag_head_clear):
        self.variant_max = variant_max
        self.flags = flags
        self.flag_head_clear = flag_head_clear

    def is_head(self, w, clear=0xFF00):
        """A word that looks like a header: a valid type id and the bits `clear` clear."""
        return (w & 0xFF) < self.variant_max and w & clear == 0

    def mutate(self, rng, b, other):
        """One mutant of `b` (`other`: a second value for splices), as (kind, bytes)."""
        kind = rng.choice(KINDS)
        ws = words(b)
        if kind in ("flip", "flip2") and b:
            b = bytearray(b)
            for _ in range(1 if kind == "flip" else 2):
                bit = rng.randrange(len(b) * 8)
                b[bit // 8] ^= 1 << (bit % 8)
            return kind, bytes(b)
        if kind == "trunc" and b:
            return kind, b[:rng.randrange(len(b))]
        if kind in ("count", "count_delta") and len(ws) > 1:
            # Counts and lengths are aligned words after a header; prefer small ones.
            small = [i for i, w in enumerate(ws) if i > 0 and w < 0x10000] \
                or list(range(1, len(ws)))
            i = rng.choice(small)
            if kind == "count":
                w = rng.choice(EDGE_WORDS)
            else:
                w = (ws[i] + rng.choice([-3, -2, -1, 1, 2, 3, 4, 100])) & 0xFFFFFFFF
            return kind, set_word(b, i, w)
        if kind == "type" and ws:
            heads = [i for i, w in enumerate(ws) if self.is_head(w)] or [0]
            i = rng.choice(heads)
            return kind, set_word(b, i, (ws[i] & ~0xFF) | rng.randrange(0, self.variant_max + 3))
        if kind == "flags" and ws:
            heads = [i for i, w in enumerate(ws) if self.is_head(w, self.flag_head_clear)] or [0]
            i = rng.choice(heads)
            return kind, set_word(b, i, ws[i] ^ rng.choice(self.flags))
        if kind == "insert":
            i = rng.randrange(len(ws) + 1)
            w = rng.choice(EDGE_WORDS + [rng.randrange(self.variant_max), rng.getrandbits(32)])
            return kind, b[:4 * i] + w.to_bytes(4, "little") + b[4 * i:]
        if kind == "delete" and len(ws) > 1:
            i = rng.randrange(len(ws))
            return kind, b[:4 * i] + b[4 * i + 4:]
        if kind == "splice" and other:
            cut = 4 * rng.randrange(len(ws) + 1)
            cut2 = 4 * rng.randrange(len(other) // 4 + 1)
            return kind, b[:cut] + other[cut2:]
        # Fallback when the chosen kind does not apply: a byte flip anywhere (or a lone byte).
        if not b:
            return "byte", bytes([rng.randrange(256)])
        b = bytearray(b)
        b[rng.randrange(len(b))] ^= 0xFF
        return "byte", bytes(b)

//! Hostile input shapes (Godot 4 dialect), shared by the adversarial tests and benchmark.
#![allow(dead_code)]

const ARRAY: u32 = 0x1c;
const DICT: u32 = 0x1b;
const INT: u32 = 2;
const STRING: u32 = 4;
const PACKED_STRINGS: u32 = 34;

fn u32s(out: &mut Vec<u8>, words: &[u32]) {
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

/// `[[[…[1], 1]…, 1], 1]`: `depth` arrays, each holding a deeper array and then a sibling,
/// so every level has an item pending while the deeper ones are read.
pub fn deep_with_siblings(depth: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 * depth + 8);
    for _ in 0..depth {
        u32s(&mut out, &[ARRAY, 2]);
    }
    u32s(&mut out, &[INT, 1]);
    for _ in 0..depth {
        u32s(&mut out, &[INT, 1]);
    }
    out
}

/// `[[[…[1]…]]]`: a chain of single-item arrays.
pub fn deep_chain(depth: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 * depth + 8);
    for _ in 0..depth {
        u32s(&mut out, &[ARRAY, 1]);
    }
    u32s(&mut out, &[INT, 1]);
    out
}

/// `{{{…{1: 1}…: 1}: 1}: 1}`: dictionaries whose key is the deeper dictionary.
pub fn deep_dict_keys(depth: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 * depth + 16);
    for _ in 0..depth {
        u32s(&mut out, &[DICT, 1]);
    }
    u32s(&mut out, &[INT, 1, INT, 1]);
    // The innermost dictionary is `{1: 1}`; each enclosing one then has its value.
    for _ in 1..depth {
        u32s(&mut out, &[INT, 1]);
    }
    out
}

/// `copies` deep-with-siblings structures side by side in one array: input size grows at a
/// fixed depth.
pub fn repeated_deep(depth: usize, copies: usize) -> Vec<u8> {
    let one = deep_with_siblings(depth);
    let mut out = Vec::with_capacity(8 + one.len() * copies);
    u32s(&mut out, &[ARRAY, copies as u32]);
    for _ in 0..copies {
        out.extend_from_slice(&one);
    }
    out
}

/// An array of `n` Nils (4 bytes each): the most values per byte.
pub fn many_nils(n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + 4 * n);
    u32s(&mut out, &[ARRAY, n as u32]);
    out.resize(8 + 4 * n, 0);
    out
}

/// An array of `n` one-byte strings (12 bytes each).
pub fn many_short_strings(n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + 12 * n);
    u32s(&mut out, &[ARRAY, n as u32]);
    for _ in 0..n {
        u32s(&mut out, &[STRING, 1, u32::from(b'a')]);
    }
    out
}

/// An array claiming 2^31 - 1 elements followed by `n` Ints: the data runs out long before
/// the count does (the decoder must fail after reading what is there, not before or later).
pub fn huge_array_count(n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + 8 * n);
    u32s(&mut out, &[ARRAY, 0x7fff_ffff]);
    for _ in 0..n {
        u32s(&mut out, &[INT, 1]);
    }
    out
}

/// A PackedStringArray claiming 2^31 - 1 strings followed by `n` empty ones.
pub fn huge_packed_strings_count(n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + 4 * n);
    u32s(&mut out, &[PACKED_STRINGS, 0x7fff_ffff]);
    out.resize(8 + 4 * n, 0);
    out
}

//! Strict UTF-8 validation one byte at a time without data-dependent branches: a
//! shift-based DFA (one table load, one shift and one mask per byte) with a 16-byte ASCII
//! skip. On short strings that mix ASCII with multi-byte text, which is what game data looks
//! like, the branchy decoder of `core::str::from_utf8` mispredicts on every multi-byte
//! character; this does not.

/// State offsets in a transition word: each state's next state sits at the state's own bit
/// offset, 6 bits wide. ERROR is 0 so that it maps to itself in every row for free.
const ERROR: u32 = 0;
const ACCEPT: u32 = 6;
const CONT1: u32 = 12; // one continuation byte (80..BF) to go
const CONT2: u32 = 18;
const CONT3: u32 = 24;
const AFTER_E0: u32 = 30; // next must be A0..BF (no overlong 3-byte forms)
const AFTER_ED: u32 = 36; // next must be 80..9F (no surrogates)
const AFTER_F0: u32 = 42; // next must be 90..BF (no overlong 4-byte forms)
const AFTER_F4: u32 = 48; // next must be 80..8F (nothing above U+10FFFF)

/// The next state from `state` on byte `b` (Unicode Table 3-7, well-formed byte sequences).
const fn next(state: u32, b: u8) -> u32 {
    let cont = b >= 0x80 && b <= 0xBF;
    match state {
        ACCEPT => match b {
            0x00..=0x7F => ACCEPT,
            0xC2..=0xDF => CONT1,
            0xE0 => AFTER_E0,
            0xED => AFTER_ED,
            0xE1..=0xEF => CONT2,
            0xF0 => AFTER_F0,
            0xF1..=0xF3 => CONT3,
            0xF4 => AFTER_F4,
            _ => ERROR,
        },
        CONT1 if cont => ACCEPT,
        CONT2 if cont => CONT1,
        CONT3 if cont => CONT2,
        AFTER_E0 if b >= 0xA0 && b <= 0xBF => CONT1,
        AFTER_ED if b >= 0x80 && b <= 0x9F => CONT1,
        AFTER_F0 if b >= 0x90 && b <= 0xBF => CONT2,
        AFTER_F4 if b >= 0x80 && b <= 0x8F => CONT2,
        _ => ERROR,
    }
}

const STATES: [u32; 9] = [
    ERROR, ACCEPT, CONT1, CONT2, CONT3, AFTER_E0, AFTER_ED, AFTER_F0, AFTER_F4,
];

const TABLE: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut s = 0;
        while s < STATES.len() {
            table[b] |= (next(STATES[s], b as u8) as u64) << STATES[s];
            s += 1;
        }
        b += 1;
    }
    table
};

#[inline(always)]
fn step(state: u32, b: u8) -> u32 {
    (TABLE[b as usize] >> state) as u32 & 63
}

/// True when `bytes` is well-formed UTF-8 (exactly what `core::str::from_utf8` accepts).
#[inline]
pub(super) fn is_utf8(bytes: &[u8]) -> bool {
    // Most strings on the wire are short ASCII keys and names: two overlapping word loads
    // answer those without a per-byte step.
    if super::short_ascii(bytes) {
        return true;
    }
    let mut state = ACCEPT;
    let mut chunks = bytes.chunks_exact(16);
    for chunk in &mut chunks {
        if state == ACCEPT && chunk.first_chunk::<16>().is_some_and(super::is_ascii16) {
            continue;
        }
        for &b in chunk {
            state = step(state, b);
        }
    }
    let rest = chunks.remainder();
    if state == ACCEPT && !rest.is_empty() && bytes.len() >= 16 {
        // The last 16 bytes (overlapping the chunks) hold the remainder: all ASCII, no step.
        if bytes.last_chunk::<16>().is_some_and(super::is_ascii16) {
            return true;
        }
    }
    for &b in rest {
        state = step(state, b);
    }
    state == ACCEPT
}

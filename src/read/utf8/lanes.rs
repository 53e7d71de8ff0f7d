//! Strict UTF-8 validation 16 bytes at a time. Each byte is judged from itself and the three
//! bytes before it, so a window of 16 bytes is checked with four 16-byte loads (the window,
//! and the windows one, two and three bytes earlier) and a fixed sequence of lane-wise
//! operations on `[u8; 16]`, which the compiler turns into SIMD instructions (SSE2 on
//! x86_64, NEON on aarch64) with no `unsafe` and no intrinsics. Windows are not aligned to
//! anything: the last one overlaps the one before it, and judging a byte twice gives the
//! same answer.
//!
//! A byte is wrong when (Unicode Table 3-7, well-formed byte sequences):
//! - it is a continuation byte (80..BF) and none is owed, or none and one is owed: a lead
//!   C0..FF owes one after it, E0..FF two, F0..FF three;
//! - it can never appear: C0, C1 (overlong 2-byte forms), F5..FF (above U+10FFFF);
//! - it follows E0 and is below A0 (overlong), follows ED and is above 9F (surrogates),
//!   follows F0 and is below 90 (overlong), or follows F4 and is above 8F (above U+10FFFF);
//! - the text ends while continuation bytes are owed.

type Lanes = [u8; 16];

/// True when `bytes` is well-formed UTF-8.
#[inline]
pub(super) fn is_utf8(bytes: &[u8]) -> bool {
    let len = bytes.len();
    // Keys and names are mostly short ASCII: answered without the lane checks. Long texts
    // skip their ASCII windows one by one instead (below).
    if len < 64 && all_ascii(bytes) {
        return true;
    }
    if len <= 16 {
        let only = short_window(bytes);
        return no_errors(&errors_at_start(&only)) && !owes_into(bytes, len);
    }
    let first = window(bytes, 0);
    let mut err = errors_at_start(&first);
    // A lead before a skipped ASCII window owes it a continuation byte.
    let mut owed = false;
    let mut at = 16;
    if len >= 64 {
        let mut judged_last = true;
        while at + 16 <= len {
            if !super::is_ascii16(&window(bytes, at)) {
                err = or(&err, &errors(bytes, at));
                judged_last = true;
            } else if judged_last {
                owed |= owes_into(bytes, at);
                judged_last = false;
            }
            at += 16;
        }
    } else {
        // Short mixed text: every window judged, no branch on the data.
        while at + 16 <= len {
            err = or(&err, &errors(bytes, at));
            at += 16;
        }
    }
    if at < len {
        // The last 16 bytes, overlapping the window before them. Only texts of 17 and 18
        // bytes have fewer than three bytes before it: zeros stand for those before the text.
        let end = len - 16;
        let tail = match end {
            1 => judge(
                &window(bytes, 1),
                &first,
                &shift::<1>(&first),
                &shift::<2>(&first),
            ),
            2 => judge(
                &window(bytes, 2),
                &window(bytes, 1),
                &first,
                &shift::<1>(&first),
            ),
            _ => errors(bytes, end),
        };
        err = or(&err, &tail);
    }
    no_errors(&err) & !owed & !owes_into(bytes, len)
}

/// True when a lead among the three bytes before `at` owes a byte at `at` or later (false
/// when `at` < 3: the lanes after a short text are zeros, which [`judge`] already refuses
/// after a lead).
#[inline(always)]
fn owes_into(bytes: &[u8], at: usize) -> bool {
    match bytes.get(at.wrapping_sub(3)..at) {
        Some(&[a, b, c]) => (a >= 0xF0) | (b >= 0xE0) | (c >= 0xC0),
        _ => false,
    }
}

/// Nonzero lanes where the window at `at` (3 or more) breaks UTF-8: one bounds check for
/// the window and the three bytes before it.
#[inline(always)]
fn errors(bytes: &[u8], at: usize) -> Lanes {
    // `wrapping_sub` never wraps here; were it to, the bytes would be missing and the text
    // rejected: a mistake here can only reject.
    let Some(ctx) = bytes
        .get(at.wrapping_sub(3)..)
        .and_then(|rest| rest.first_chunk::<19>())
    else {
        return [0xFF; 16];
    };
    let back = |k: usize| -> Lanes {
        let mut w = [0u8; 16];
        w.copy_from_slice(&ctx[3 - k..19 - k]);
        w
    };
    judge(&back(0), &back(1), &back(2), &back(3))
}

/// [`errors`] for the window at the start of the text: zeros stand for the bytes before it.
#[inline(always)]
fn errors_at_start(cur: &Lanes) -> Lanes {
    judge(cur, &shift::<1>(cur), &shift::<2>(cur), &shift::<3>(cur))
}

/// Nonzero lanes where `cur` breaks UTF-8, given `p1`, `p2`, `p3`: the bytes one, two and
/// three places earlier, lane by lane.
#[inline(always)]
fn judge(cur: &Lanes, p1: &Lanes, p2: &Lanes, p3: &Lanes) -> Lanes {
    // Plain loops over the lanes, no short-circuits: the compiler vectorises these (a
    // closure through `array::from_fn` it did not always inline).
    let mut err = [0u8; 16];
    for i in 0..16 {
        let (c, a, b, d) = (cur[i], p1[i], p2[i], p3[i]);
        // Nonzero when a lead one, two or three bytes back owes this byte.
        let owed = a.saturating_sub(0xBF) | b.saturating_sub(0xDF) | d.saturating_sub(0xEF);
        let continuation = (c as i8) < -64; // 80..BF
        let misplaced = (owed != 0) != continuation;
        let never = (c > 0xF4) | (c & 0xFE == 0xC0);
        let second = ((a == 0xE0) & (c < 0xA0))
            | ((a == 0xED) & (c > 0x9F))
            | ((a == 0xF0) & (c < 0x90))
            | ((a == 0xF4) & (c > 0x8F));
        err[i] = u8::from(misplaced | never | second);
    }
    err
}

/// `lanes` moved `K` places up, zeros in front.
#[inline(always)]
fn shift<const K: usize>(lanes: &Lanes) -> Lanes {
    (u128::from_le_bytes(*lanes) << (8 * K)).to_le_bytes()
}

#[inline(always)]
fn or(a: &Lanes, b: &Lanes) -> Lanes {
    let mut out = [0u8; 16];
    for i in 0..16 {
        out[i] = a[i] | b[i];
    }
    out
}

#[inline(always)]
fn no_errors(err: &Lanes) -> bool {
    u128::from_le_bytes(*err) == 0
}

/// The 16 bytes at `at`. Callers keep `at + 16 <= bytes.len()`; were that ever broken, the
/// window is all 0xFF, which fails the text (or, as the ASCII test of a window, sends it to
/// be judged): a mistake here can only reject.
#[inline(always)]
fn window(bytes: &[u8], at: usize) -> Lanes {
    match bytes.get(at..).and_then(|rest| rest.first_chunk::<16>()) {
        Some(w) => *w,
        None => [0xFF; 16],
    }
}

/// `bytes` (at most 16) in the first lanes, zeros after: two overlapping word loads, whose
/// common bytes are the same bytes, instead of a copy of variable length.
#[inline(always)]
fn short_window(bytes: &[u8]) -> Lanes {
    let len = bytes.len();
    let word: u128 = if let (Some(a), Some(b)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>())
    {
        u128::from(u64::from_le_bytes(*a)) | u128::from(u64::from_le_bytes(*b)) << (8 * (len - 8))
    } else if let (Some(a), Some(b)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        u128::from(u32::from_le_bytes(*a)) | u128::from(u32::from_le_bytes(*b)) << (8 * (len - 4))
    } else {
        bytes
            .iter()
            .enumerate()
            .fold(0, |w, (i, &b)| w | u128::from(b) << (8 * i))
    };
    word.to_le_bytes()
}

/// True when every byte is below 0x80 (for texts under 64 bytes: one pass of word ORs).
#[inline(always)]
fn all_ascii(bytes: &[u8]) -> bool {
    if bytes.len() <= 16 {
        return super::short_ascii(bytes);
    }
    let mut any = [0u8; 16];
    let mut chunks = bytes.chunks_exact(16);
    for chunk in &mut chunks {
        if let Some(w) = chunk.first_chunk::<16>() {
            any = or(&any, w);
        }
    }
    if let Some(tail) = bytes.last_chunk::<16>() {
        any = or(&any, tail);
    }
    super::is_ascii16(&any)
}

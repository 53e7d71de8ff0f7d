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

/// Texts shorter than this are tested for ASCII whole first (one branch, where the windows
/// of an ASCII text would each take one).
const WHOLE_ASCII_TEST: usize = 128;

/// Texts that are not ASCII and shorter than this have every window judged, without a
/// branch on the data; longer ones skip their ASCII windows one by one. (Judging every
/// window up to 127 bytes instead ran the mixed text of the benchmarks 4 % faster, and
/// English text with one accented word 29 % slower.)
const JUDGE_EVERY_WINDOW: usize = 64;

/// True when `bytes` is well-formed UTF-8. Out of line: left to the compiler (`#[inline]`),
/// this form of it was inlined into every caller ((c) `validate` +0.9 % instructions).
#[inline(never)]
pub(super) fn is_utf8(bytes: &[u8]) -> bool {
    check::<false>(bytes).0
}

/// [`is_utf8`], and whether `bytes` are kept whole (see [`super::is_utf8_whole`]).
#[inline(never)]
pub(super) fn is_utf8_whole(bytes: &[u8]) -> (bool, bool) {
    check::<true>(bytes)
}

/// Whether `bytes` is well-formed UTF-8 and, with `WHOLE`, whether it is kept whole: no NUL
/// byte (the zero bytes of the windows the check loads anyway) and no leading BOM; `false`
/// without `WHOLE`.
#[inline(always)]
fn check<const WHOLE: bool>(bytes: &[u8]) -> (bool, bool) {
    let len = bytes.len();
    // Keys and names are mostly short ASCII: answered without the lane checks.
    if len < WHOLE_ASCII_TEST {
        let (ascii, no_nul) = all_ascii::<WHOLE>(bytes);
        if ascii {
            return (true, no_nul);
        }
    }
    let (utf8, no_nul) = judged::<WHOLE>(bytes);
    // Not all ASCII, or long: this text may start with a BOM.
    (
        utf8,
        WHOLE && utf8 && no_nul && !bytes.starts_with(super::BOM),
    )
}

/// [`is_utf8`] of a text that is not all ASCII or at least [`WHOLE_ASCII_TEST`] bytes long,
/// and with `WHOLE` whether none of its bytes is zero (`false` without).
#[inline(always)]
fn judged<const WHOLE: bool>(bytes: &[u8]) -> (bool, bool) {
    let len = bytes.len();
    if len <= 16 {
        let only = short_window(bytes);
        let utf8 = no_errors(&errors_at_start(&only)) && !owes_into(bytes, len);
        return (utf8, WHOLE && super::short_no_nul(bytes));
    }
    let first = window(bytes, 0);
    let mut err = errors_at_start(&first);
    // Lanes where some window had a zero byte (with `WHOLE`), and the same for the windows
    // of the longer texts' loop as one word.
    let mut nul = zeros(&first);
    let mut nul_word = 0u128;
    // A lead before a skipped ASCII window owes it a continuation byte.
    let mut owed = false;
    // Starts three bytes before the next window: its first 19 bytes are the window and the
    // bytes it is judged against, checked once as the loop's own condition.
    let mut rest = bytes.get(13..).unwrap_or_default();
    if len >= JUDGE_EVERY_WINDOW {
        let mut judged_last = true;
        while let Some(ctx) = rest.first_chunk::<19>() {
            let cur = back::<0, 16>(ctx);
            if WHOLE {
                // In the general registers the ASCII test reads the window into (as lanes,
                // the compiler rebuilt the vector from them byte by byte).
                nul_word |= zero_flags!(u128::from_le_bytes(cur), u128);
            }
            if !super::is_ascii16(&cur) {
                err = or(&err, &errors(ctx));
                judged_last = true;
            } else if judged_last {
                owed |= owes(&back::<3, 3>(ctx));
                judged_last = false;
            }
            rest = rest.get(16..).unwrap_or_default();
        }
    } else {
        // Short mixed text: every window judged, no branch on the data.
        while let Some(ctx) = rest.first_chunk::<19>() {
            if WHOLE {
                nul = or(&nul, &zeros(&back::<0, 16>(ctx)));
            }
            err = or(&err, &errors(ctx));
            rest = rest.get(16..).unwrap_or_default();
        }
    }
    // Where the next window would start (`rest` is never longer than `bytes[13..]`).
    let at = (len - rest.len()).wrapping_add(3);
    if at < len {
        // The last 16 bytes, overlapping the window before them. Only texts of 17 and 18
        // bytes have fewer than three bytes before it: zeros stand for those before the text.
        let end = len - 16;
        if WHOLE {
            nul = or(&nul, &zeros(&window(bytes, end)));
        }
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
            // `end` is 3 or more here; were `wrapping_sub` to wrap, the text is rejected.
            _ => match bytes
                .get(end.wrapping_sub(3)..)
                .and_then(|rest| rest.first_chunk::<19>())
            {
                Some(ctx) => errors(ctx),
                None => [0xFF; 16],
            },
        };
        err = or(&err, &tail);
    }
    let utf8 = no_errors(&err) & !owed & !owes_into(bytes, len);
    (utf8, WHOLE && no_errors(&nul) && nul_word == 0)
}

/// All ones in the lanes holding a zero byte.
#[inline(always)]
pub(crate) fn zeros(lanes: &Lanes) -> Lanes {
    let mut out = [0u8; 16];
    for i in 0..16 {
        out[i] = mask(lanes[i] == 0);
    }
    out
}

/// True when a lead among the three bytes before `at` owes a byte at `at` or later (false
/// when `at` < 3: the lanes after a short text are zeros, which [`judge`] already refuses
/// after a lead).
#[inline(always)]
fn owes_into(bytes: &[u8], at: usize) -> bool {
    match bytes.get(at.wrapping_sub(3)..at) {
        Some(&[a, b, c]) => owes(&[a, b, c]),
        _ => false,
    }
}

/// True when a lead among these three bytes owes a byte after them.
#[inline(always)]
fn owes(&[a, b, c]: &[u8; 3]) -> bool {
    (a >= 0xF0) | (b >= 0xE0) | (c >= 0xC0)
}

/// The `N` bytes of `ctx` starting `K` before its window (`ctx[3..]`).
#[inline(always)]
fn back<const K: usize, const N: usize>(ctx: &[u8; 19]) -> [u8; N] {
    let mut w = [0u8; N];
    w.copy_from_slice(&ctx[3 - K..3 - K + N]);
    w
}

/// Nonzero lanes where the window `ctx[3..]` breaks UTF-8, judged against the three bytes
/// before it, `ctx[..3]`.
#[inline(always)]
fn errors(ctx: &[u8; 19]) -> Lanes {
    judge(
        &back::<0, 16>(ctx),
        &back::<1, 16>(ctx),
        &back::<2, 16>(ctx),
        &back::<3, 16>(ctx),
    )
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
        let misplaced = mask((owed != 0) != continuation);
        // Every byte is at most F4; after ED at most 9F, after F4 at most 8F; after E0 at
        // least A0, after F0 at least 90. Out of range: a nonzero saturating difference (one
        // floor and one ceiling per lane instead of a compare per rule).
        let floor: u8 = (if a == 0xE0 { 0xA0 } else { 0 }) | (if a == 0xF0 { 0x90 } else { 0 });
        let ceiling: u8 =
            0xF4 - ((if a == 0xED { 0x55 } else { 0 }) | (if a == 0xF4 { 0x65 } else { 0 }));
        let out_of_range = floor.saturating_sub(c) | c.saturating_sub(ceiling);
        let overlong_lead = mask(c & 0xFE == 0xC0);
        err[i] = misplaced | out_of_range | overlong_lead;
    }
    err
}

/// All ones for true: a compare's own result in a vector lane (`u8::from` costs a mask).
#[inline(always)]
fn mask(b: bool) -> u8 {
    if b {
        0xFF
    } else {
        0
    }
}

/// `lanes` moved `K` places up, zeros in front.
#[inline(always)]
fn shift<const K: usize>(lanes: &Lanes) -> Lanes {
    // A loop the compiler makes a byte shift of the vector (`pslldq`). As a `u128` shift it
    // went through general registers, and `copy_from_slice` through the stack.
    let mut out = [0u8; 16];
    #[allow(clippy::manual_memcpy)]
    for i in K..16 {
        out[i] = lanes[i - K];
    }
    out
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

/// Whether every byte is below 0x80 (for texts under [`WHOLE_ASCII_TEST`] bytes: one pass of
/// ORs) and, with `WHOLE`, whether none is zero (a lane-wise minimum in the same pass); the
/// second answer is `false` without `WHOLE`.
#[inline(always)]
fn all_ascii<const WHOLE: bool>(bytes: &[u8]) -> (bool, bool) {
    if bytes.len() <= 16 {
        return (
            super::short_ascii(bytes),
            WHOLE && super::short_no_nul(bytes),
        );
    }
    let (mut any, mut least) = ([0u8; 16], [0xFFu8; 16]);
    let mut chunks = bytes.chunks_exact(16);
    for chunk in &mut chunks {
        if let Some(w) = chunk.first_chunk::<16>() {
            any = or(&any, w);
            if WHOLE {
                least = min(&least, w);
            }
        }
    }
    if let Some(tail) = bytes.last_chunk::<16>() {
        any = or(&any, tail);
        if WHOLE {
            least = min(&least, tail);
        }
    }
    (super::is_ascii16(&any), WHOLE && no_zero(&least))
}

/// True when no lane is zero.
#[inline(always)]
fn no_zero(lanes: &Lanes) -> bool {
    lanes.iter().fold(true, |all, &b| all & (b != 0))
}

#[inline(always)]
fn min(a: &Lanes, b: &Lanes) -> Lanes {
    let mut out = [0u8; 16];
    for i in 0..16 {
        out[i] = a[i].min(b[i]);
    }
    out
}

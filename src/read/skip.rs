//! Skipping (and validating) a whole value in one pass, without recursion per nesting level,
//! and the same traversal with a [`Visit`]or at every value: the one pending-level stack the
//! validating skip and the re-encoding walk (`Writer::value`) share (the
//! [`Walker`](crate::read::Walker), an iterator that cannot spill into nested calls, keeps
//! its own in `pending.rs`).
//!
//! Containers push a frame holding how many items they still owe; frames are popped as soon
//! as their last item starts, so a chain of single-item containers needs one frame, and only
//! levels with items still pending occupy the stack. The first stack is short (32 frames,
//! zeroed on every skip that nests); if it fills, the rest of the skip continues in a nested
//! call on a fresh stack, each twice the size of the one before (`STACK_WORDS`): six nested
//! calls at most, so the thread stack used stays small and bounded whatever the nesting, and
//! a value zeroes stack in proportion to its nesting. At most [`MAX_PENDING_LEVELS`] levels
//! may have items pending at once (chains of last items are not counted, so arbitrarily deep
//! chains still decode when the depth limit allows).

use crate::error::{Error, ErrorKind, Result};
use crate::read::canonical::is_canonical;
use crate::read::decoder::Decoder;
use crate::read::head::{quick_next, read_head, Next};
use crate::read::object::check_script_property;
use crate::read::str_ref::string_block;

/// Frames per word of property bits.
const FRAMES_PER_WORD: usize = 32;
/// The size in words of the first stack and of each the traversal continues on when the
/// one before is full ([`spill`]).
const STACK_WORDS: [usize; 7] = [1, 1, 2, 4, 8, 16, 32];
/// Most nesting levels that may still have items pending at one time (all the stacks).
///
/// ```
/// use gdwire::read::MAX_PENDING_LEVELS;
/// use gdwire::MAX_DEPTH;
/// assert!(MAX_PENDING_LEVELS >= MAX_DEPTH);
/// ```
pub const MAX_PENDING_LEVELS: u32 = {
    let (mut words, mut i) = (0, 0);
    while i < STACK_WORDS.len() {
        words += STACK_WORDS[i];
        i += 1;
    }
    (FRAMES_PER_WORD * words) as u32
};

/// One pending level: a container with items still to come.
///
/// The [`Walker`](crate::read::Walker) keeps its levels in `pending.rs` instead (2048 of
/// them, not initialised on creation). The skip keeps its own short stack, whose props are
/// bits of one word: on that stack's layout the skip runs 3-6 % fewer instructions per value
/// than on the walker's (measured on the benches' game-state, deep and save-game datasets).
#[derive(Clone, Copy, Default)]
struct Level {
    /// Items still to come (values, or for objects (name, value) pairs).
    left: u32,
    /// Nesting depth of those items.
    depth: u32,
}

/// Takes the next item of the top frame of `frames[..*sp]`, popping the frame if that was
/// its last one (so a chain of last items needs no frame); returns the frame's index (for
/// its property bit) and the item's depth, `None` when nothing is pending.
#[inline(always)]
fn take_item(frames: &mut [Level], sp: &mut usize) -> Option<(usize, u32)> {
    let i = sp.checked_sub(1)?;
    let top = frames.get_mut(i)?;
    top.left = top.left.saturating_sub(1);
    if top.left == 0 {
        *sp = i;
    }
    Some((i, top.depth))
}

/// The pending levels: frames plus one bit per frame saying its items are properties (a
/// name string block before each value). Kept apart so a frame is 8 bytes without padding
/// and the first stack is zeroed with a short memset on every skip that nests. The `L`th stack
/// ([`spill`]) has `W` = `STACK_WORDS[L]` words.
struct Stack<const L: usize, const W: usize> {
    frames: [[Level; FRAMES_PER_WORD]; W],
    props: [u32; W],
}

impl<const L: usize, const W: usize> Stack<L, W> {
    const CAPACITY: usize = FRAMES_PER_WORD * W;

    #[inline(always)]
    fn new() -> Self {
        const { assert!(W == STACK_WORDS[L]) };
        Stack {
            frames: [[Level::default(); FRAMES_PER_WORD]; W],
            props: [0; W],
        }
    }

    /// Writes frame `i` (below [`Self::CAPACITY`]) and its property bit.
    #[inline(always)]
    fn set(&mut self, i: usize, frame: Level, props: bool) {
        self.frames.as_flattened_mut()[i] = frame;
        let (word, bit) = (i / FRAMES_PER_WORD, i % FRAMES_PER_WORD);
        self.props[word] = (self.props[word] & !(1 << bit)) | (props as u32) << bit;
    }

    /// Whether the items of frame `i` are object properties.
    #[inline(always)]
    fn props(&self, i: usize) -> bool {
        let (word, bit) = (i / FRAMES_PER_WORD, i % FRAMES_PER_WORD);
        self.props[word] & (1 << bit) != 0
    }
}

/// What a traversal does at each value and each object property name.
pub(crate) trait Visit<'a> {
    /// Reads (and handles) the value at `pos`, at nesting `depth`: where it ends, or what
    /// its container holds.
    fn value(&mut self, dec: &Decoder, data: &'a [u8], pos: usize, depth: u32) -> Result<Next>;
    /// Reads (and handles) the property name block at `pos`; returns where it ends.
    fn name(&mut self, dec: &Decoder, data: &'a [u8], pos: usize) -> Result<usize>;
    /// Whether this visit checks what the engine checks (then a Godot 4.3+ object's `script`
    /// property is checked too).
    fn validates(&self) -> bool {
        false
    }
}

/// The skip: reads each value's extent, building no view.
struct Skip<const COPY: bool> {
    validate: bool,
    /// With `COPY`: every value passed so far is canonical ([`is_canonical`]).
    canonical: bool,
}

impl<const COPY: bool> Skip<COPY> {
    /// With `COPY`, notes whether the value at `pos` (measured as `next`) is canonical.
    #[inline(always)]
    fn note(&mut self, dec: &Decoder, data: &[u8], pos: usize, next: Next) {
        note::<COPY>(&mut self.canonical, dec, data, pos, next);
    }
}

/// [`Skip::note`] on a flag held outside the visitor (the stackless part of [`skip_with`]).
#[inline(always)]
fn note<const COPY: bool>(
    canonical: &mut bool,
    dec: &Decoder,
    data: &[u8],
    pos: usize,
    next: Next,
) {
    if COPY && *canonical {
        let end = match next {
            Next::Leaf(end) => end,
            Next::Nest { body, .. } => body,
        };
        *canonical = is_canonical(dec.dialect(), data, pos, end);
    }
}

impl<'a, const COPY: bool> Visit<'a> for Skip<COPY> {
    #[inline(always)]
    fn value(&mut self, dec: &Decoder, data: &'a [u8], pos: usize, depth: u32) -> Result<Next> {
        let note = COPY && self.canonical;
        // No sizes as arms here (`quick_next`): this loop measured no faster with them.
        if let Some((next, canonical)) =
            quick_next::<false, COPY>(dec, data, pos, self.validate, note)
        {
            if COPY {
                self.canonical = canonical;
            }
            return Ok(next);
        }
        let next = read_head(dec, data, pos, depth, self.validate)?.1;
        self.note(dec, data, pos, next);
        Ok(next)
    }

    #[inline(always)]
    fn name(&mut self, dec: &Decoder, data: &'a [u8], pos: usize) -> Result<usize> {
        Ok(string_block(data, pos, dec.dialect().text_rules(), self.validate)?.1)
    }

    fn validates(&self) -> bool {
        self.validate
    }
}

/// [`skip_value`] that also tells whether the whole value is canonical ([`is_canonical`]):
/// where it ends, and whether its bytes are exactly what the writer writes for it (then the
/// value can be re-sent as a copy of them). Inlined into its one caller (`read_noting_copy`,
/// itself out of line): a call less per value, and the pair not returned through memory.
#[inline(always)]
pub(crate) fn skip_noting_copy(
    dec: &Decoder,
    data: &[u8],
    pos: usize,
    depth: u32,
    validate: bool,
) -> Result<(usize, bool)> {
    let mut canonical = true;
    let end = skip_with::<true>(dec, data, pos, depth, validate, &mut canonical)?;
    Ok((end, canonical))
}

/// Skips the value at `pos` (at nesting `depth`) and returns where it ends. With `validate`,
/// everything the engine checks is checked, including string text; the depth limit is always
/// enforced.
#[inline(always)]
pub(crate) fn skip_value(
    dec: &Decoder,
    data: &[u8],
    pos: usize,
    depth: u32,
    validate: bool,
) -> Result<usize> {
    skip_with::<false>(dec, data, pos, depth, validate, &mut false)
}

/// The skip, noting canonical values in `canonical` with `COPY`. (`#[inline]`, not
/// `always`: inlined into every caller, its code grows `Cursor::skip` by 5 % in
/// instructions on small values.)
#[inline]
fn skip_with<const COPY: bool>(
    dec: &Decoder,
    data: &[u8],
    pos: usize,
    depth: u32,
    validate: bool,
    canonical: &mut bool,
) -> Result<usize> {
    // The general traversal, with the verdict so far.
    let run_from = |pos: usize, start: Start, canonical: &mut bool| {
        let mut visit = Skip::<COPY> {
            validate,
            canonical: COPY && *canonical,
        };
        let end = run::<_, 0, { STACK_WORDS[0] }>(dec, data, pos, start, &mut visit);
        if COPY {
            *canonical = visit.canonical;
        }
        end
    };
    // A leaf, or an untyped container holding only leaves (a packet, a flat dictionary),
    // needs no stack (and no stack to zero).
    if depth < dec.max_depth() {
        match quick_next::<true, COPY>(dec, data, pos, validate, COPY && *canonical) {
            Some((Next::Leaf(end), noted)) => {
                if COPY {
                    *canonical = noted;
                }
                return Ok(end);
            }
            Some((
                Next::Nest {
                    body,
                    values,
                    props: false,
                },
                noted,
            )) => {
                if COPY {
                    *canonical = noted;
                }
                return match flat_items::<COPY>(dec, data, body, values, validate, canonical) {
                    Ok(end) => Ok(end),
                    // The traversal goes on from that item, with the container's frame.
                    Err((at, left)) => {
                        let frame = Level {
                            left,
                            depth: depth + 1,
                        };
                        run_from(at, Start::Level(frame, false), canonical)
                    }
                };
            }
            _ => {}
        }
    } else if depth == dec.max_depth() {
        if let Some((Next::Leaf(end), noted)) =
            quick_next::<true, COPY>(dec, data, pos, validate, COPY && *canonical)
        {
            if COPY {
                *canonical = noted;
            }
            return Ok(end);
        }
    }
    run_from(pos, Start::Value(depth), canonical)
}

/// Reads the `values` items starting at `pos` while each is a leaf [`quick_next`] answers
/// (noting each with `COPY`): `Ok(end)` when all are, else `Err((pos, left))` with the first
/// item it leaves to the general path (a container, anything `quick_next` declines, errors
/// included) and how many items remain counting that one.
#[inline(always)]
fn flat_items<const COPY: bool>(
    dec: &Decoder,
    data: &[u8],
    mut pos: usize,
    values: u32,
    validate: bool,
    canonical: &mut bool,
) -> core::result::Result<usize, (usize, u32)> {
    let mut left = values;
    while left > 0 {
        match quick_next::<true, COPY>(dec, data, pos, validate, COPY && *canonical) {
            Some((Next::Leaf(end), noted)) => {
                if COPY {
                    *canonical = noted;
                }
                pos = end;
                left -= 1;
            }
            _ => return Err((pos, left)),
        }
    }
    Ok(pos)
}

/// Visits the value at `pos` (at nesting `depth`) and everything in it, in wire order, with
/// `visit`; returns where the value ends. The depth limit of `dec` is enforced.
///
/// A leaf, or an untyped container whose items are all leaves (a packet, a flat dictionary),
/// is visited without the pending-level stack (zeroing it costs as much as visiting a small
/// packet); the first nested container hands the rest to [`run`]. One call site of
/// `visit.value` here and one in [`run`], so that the visitor stays inlined.
pub(crate) fn traverse<'a, V: Visit<'a>>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    depth: u32,
    visit: &mut V,
) -> Result<usize> {
    if depth > dec.max_depth() {
        let limit = dec.max_depth();
        return Err(Error::new(ErrorKind::TooDeep { limit }, pos));
    }
    // The value itself, then (once it is an untyped container) its items while they are
    // leaves; `left` counts what is still to visit at `at_depth`.
    let (mut at, mut at_depth, mut left, mut inside) = (pos, depth, 1u32, false);
    while left > 0 {
        left -= 1;
        match visit.value(dec, data, at, at_depth)? {
            Next::Leaf(end) => at = end,
            Next::Nest {
                body,
                values,
                props: false,
            } if !inside && depth < dec.max_depth() => {
                (at, at_depth, left, inside) = (body, depth + 1, values, true);
            }
            nest => {
                // The container's remaining items (if any), then this value's own.
                let outer = Level {
                    left,
                    depth: at_depth,
                };
                return run_inside(dec, data, outer, at_depth, nest, visit);
            }
        }
    }
    Ok(at)
}

enum Start {
    Value(u32),
    /// A frame (and whether its items are properties) carried over from a full stack.
    Level(Level, bool),
}

/// The traversal from `pos` on a fresh stack of `W` words, the `L`th (`STACK_WORDS[L]` = `W`).
fn run<'a, V: Visit<'a>, const L: usize, const W: usize>(
    dec: &Decoder,
    data: &'a [u8],
    mut pos: usize,
    start: Start,
    visit: &mut V,
) -> Result<usize> {
    let mut stack = Stack::<L, W>::new();
    let mut sp = 0;
    let depth = match start {
        Start::Value(depth) => depth,
        Start::Level(frame, props) => {
            stack.set(0, frame, props);
            sp = 1;
            match next_item(dec, data, &mut pos, &mut stack, &mut sp, visit)? {
                Some(depth) => depth,
                None => return Ok(pos),
            }
        }
    };
    run_loop(dec, data, pos, depth, &mut stack, &mut sp, visit)
}

/// [`run`] from inside an untyped container that [`traverse`] was reading: the item at
/// `depth` was visited already, with the answer `next`; `outer` holds the container's items
/// after it (none: a spent frame). Apart from [`run`], whose code stays as it was for the
/// validating skip.
#[inline(never)]
fn run_inside<'a, V: Visit<'a>>(
    dec: &Decoder,
    data: &'a [u8],
    outer: Level,
    depth: u32,
    next: Next,
    visit: &mut V,
) -> Result<usize> {
    let mut stack = Stack::<0, { STACK_WORDS[0] }>::new();
    let mut sp = 0;
    if outer.left > 0 {
        stack.set(0, outer, false);
        sp = 1;
    }
    let mut pos = enter(dec, data, next, depth, &mut stack, &mut sp, visit)?;
    let depth = match next_item(dec, data, &mut pos, &mut stack, &mut sp, visit)? {
        Some(depth) => depth,
        None => return Ok(pos),
    };
    run_loop(dec, data, pos, depth, &mut stack, &mut sp, visit)
}

/// The traversal proper: visits the value at `pos` (at `depth`), then every pending item.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn run_loop<'a, V: Visit<'a>, const L: usize, const W: usize>(
    dec: &Decoder,
    data: &'a [u8],
    mut pos: usize,
    mut depth: u32,
    stack: &mut Stack<L, W>,
    sp: &mut usize,
    visit: &mut V,
) -> Result<usize> {
    loop {
        if depth > dec.max_depth() {
            let limit = dec.max_depth();
            return Err(Error::new(ErrorKind::TooDeep { limit }, pos));
        }
        let next = visit.value(dec, data, pos, depth)?;
        pos = enter(dec, data, next, depth, stack, sp, visit)?;
        match next_item(dec, data, &mut pos, stack, sp, visit)? {
            Some(next_depth) => depth = next_depth,
            None => return Ok(pos),
        }
    }
}

/// Takes in the answer `next` for a value visited at `depth`: where the traversal goes on,
/// with a container's items (if any) pushed as a frame (or, on a full first stack, read by a
/// nested [`run`] on the deep one): the steps of [`run_loop`] after a visit.
#[inline(always)]
fn enter<'a, V: Visit<'a>, const L: usize, const W: usize>(
    dec: &Decoder,
    data: &'a [u8],
    next: Next,
    depth: u32,
    stack: &mut Stack<L, W>,
    sp: &mut usize,
    visit: &mut V,
) -> Result<usize> {
    match next {
        Next::Leaf(end) => Ok(end),
        Next::Nest {
            body,
            values,
            props,
        } => {
            if values == 0 {
                return Ok(body);
            }
            let frame = Level {
                left: values,
                depth: depth + 1,
            };
            if *sp == Stack::<L, W>::CAPACITY {
                let start = Start::Level(frame, props);
                return spill::<V, L>(dec, data, body, start, visit);
            }
            stack.set(*sp, frame, props);
            *sp += 1;
            Ok(body)
        }
    }
}

/// Continues a traversal whose stack, the `L`th, is full, from `pos` on the next (twice as
/// large); past the last one, the value has too many levels pending.
#[inline(never)]
fn spill<'a, V: Visit<'a>, const L: usize>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    start: Start,
    visit: &mut V,
) -> Result<usize> {
    match L {
        0 => run::<V, 1, { STACK_WORDS[1] }>(dec, data, pos, start, visit),
        1 => run::<V, 2, { STACK_WORDS[2] }>(dec, data, pos, start, visit),
        2 => run::<V, 3, { STACK_WORDS[3] }>(dec, data, pos, start, visit),
        3 => run::<V, 4, { STACK_WORDS[4] }>(dec, data, pos, start, visit),
        4 => run::<V, 5, { STACK_WORDS[5] }>(dec, data, pos, start, visit),
        5 => run::<V, 6, { STACK_WORDS[6] }>(dec, data, pos, start, visit),
        _ => {
            let limit = MAX_PENDING_LEVELS;
            Err(Error::new(ErrorKind::TooDeep { limit }, pos))
        }
    }
}

/// Takes the next pending item from the top frame: reads a property name if needed and
/// returns the depth of the value now at `pos`, or `None` when nothing is pending. Inlined:
/// as a call it was a fifth of the validating skip (a call per value, and its
/// `Result<Option<u32>>` returned through memory).
#[inline(always)]
fn next_item<'a, V: Visit<'a>, const L: usize, const W: usize>(
    dec: &Decoder,
    data: &'a [u8],
    pos: &mut usize,
    stack: &mut Stack<L, W>,
    sp: &mut usize,
    visit: &mut V,
) -> Result<Option<u32>> {
    let Some((i, depth)) = take_item(stack.frames.as_flattened_mut(), sp) else {
        return Ok(None);
    };
    if stack.props(i) {
        let start = *pos;
        *pos = visit.name(dec, data, start)?;
        if visit.validates() && dec.dialect().checks_script_property() {
            let (name, _) = string_block(data, start, dec.dialect().text_rules(), false)?;
            check_script_property(dec, data, name, *pos, depth, true)?;
        }
    }
    Ok(Some(depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;
    use crate::read::head::read_head;
    use std::vec::Vec;

    /// Records every value `traverse` visits (position, depth), reading each with the
    /// general reader.
    struct Record(Vec<(usize, u32)>);

    impl<'a> Visit<'a> for Record {
        fn value(&mut self, dec: &Decoder, data: &'a [u8], pos: usize, depth: u32) -> Result<Next> {
            self.0.push((pos, depth));
            Ok(read_head(dec, data, pos, depth, true)?.1)
        }
        fn name(&mut self, dec: &Decoder, data: &'a [u8], pos: usize) -> Result<usize> {
            Ok(string_block(data, pos, dec.dialect().text_rules(), true)?.1)
        }
    }

    /// Appends a random Godot 4 value of at most `levels` nesting levels to `out`, and each
    /// value's (position, depth) in wire order to `seen`: the expected visit, built with the
    /// bytes rather than read back from them.
    fn build(
        rand: &mut impl FnMut() -> u64,
        levels: u32,
        depth: u32,
        out: &mut Vec<u8>,
        seen: &mut Vec<(usize, u32)>,
    ) {
        seen.push((out.len(), depth));
        let kind = if levels == 0 { 0 } else { rand() % 4 };
        let (id, children) = match kind {
            0 | 1 => {
                out.extend_from_slice(&[2, 0, 0, 0]);
                out.extend_from_slice(&(rand() as u32).to_le_bytes());
                return;
            }
            2 => (28u8, (rand() % 5) as u32),
            _ => (27u8, (rand() % 3) as u32),
        };
        out.extend_from_slice(&[id, 0, 0, 0]);
        out.extend_from_slice(&children.to_le_bytes());
        let values = if id == 27 { children * 2 } else { children };
        for _ in 0..values {
            build(rand, levels - 1, depth + 1, out, seen);
        }
    }

    /// `traverse` (with its stack-free path for flat containers and the hand-over to `run` at
    /// the first nested item, first, middle or last) visits exactly the values of randomly
    /// nested arrays and dictionaries, in wire order and at their depths, returns where the
    /// value ends, and fails with `TooDeep` at the first value deeper than the limit.
    #[test]
    fn traverse_visits_every_value_in_order() {
        let mut rand = crate::test_rand::xorshift(0x7EA5_u64);
        let mut nested_after_flat = 0;
        let rounds = if cfg!(miri) { 20 } else { 3000 };
        for round in 0..rounds {
            let (mut bytes, mut seen) = (Vec::new(), Vec::new());
            build(&mut rand, 1 + round % 5, 0, &mut bytes, &mut seen);
            let deepest = seen.iter().map(|&(_, d)| d).max().unwrap_or(0);
            if seen.get(1).is_some_and(|&(_, d)| d == 1) && deepest > 1 {
                nested_after_flat += 1;
            }
            for limit in 0..=deepest + 1 {
                let dec = Decoder::new(Dialect::GODOT_4).with_max_depth(limit);
                let mut visit = Record(Vec::new());
                let got = traverse(&dec, &bytes, 0, 0, &mut visit);
                match seen.iter().position(|&(_, d)| d > limit) {
                    None => {
                        assert_eq!(got, Ok(bytes.len()), "{bytes:02x?}");
                        assert_eq!(visit.0, seen, "{bytes:02x?}");
                    }
                    Some(first) => {
                        let err = got.unwrap_err();
                        assert_eq!(err.kind(), ErrorKind::TooDeep { limit });
                        assert_eq!(err.offset(), seen[first].0, "{bytes:02x?}");
                        assert_eq!(visit.0, seen[..first], "{bytes:02x?}");
                    }
                }
            }
        }
        // About one round in ten hands over to `run` after flat items.
        assert!(nested_after_flat * 30 > rounds, "{nested_after_flat}");
    }
}

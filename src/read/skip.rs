//! Skipping (and validating) a whole value in one pass, without recursion per nesting level.
//!
//! Containers push a frame holding how many items they still owe; frames are popped as soon
//! as their last item starts, so a chain of single-item containers needs one frame, and only
//! levels with items still pending occupy the fixed-size stack. If that stack fills (more than
//! `STACK` such levels), the rest of the skip continues in a nested call with a fresh stack.
//! Those nested calls are capped so stack use stays small whatever `max_depth` says: at most
//! [`MAX_PENDING_LEVELS`] levels may have items pending at once (chains of last items are not
//! counted, so arbitrarily deep chains still decode when the limit allows).

use crate::error::{Error, ErrorKind, Result};
use crate::read::decoder::Decoder;
use crate::read::head::{quick_next, read_head, Next};
use crate::read::input::string_block;
use crate::read::object::check_script_property;

const STACK: usize = 32;
const MAX_SPILLS: u32 = 64;
/// Most nesting levels that may still have items pending at one time (`STACK * MAX_SPILLS`).
pub const MAX_PENDING_LEVELS: u32 = STACK as u32 * MAX_SPILLS;

#[derive(Clone, Copy, Default)]
struct Frame {
    /// Items still to come (values, or for objects (name, value) pairs).
    left: u32,
    /// Nesting depth of those items.
    depth: u32,
}

/// The pending levels: frames plus one bit per frame saying its items are properties (a
/// name string block before each value). Kept apart so a frame is 8 bytes without padding
/// and the stack is zeroed with a short memset on every skip.
struct Stack {
    frames: [Frame; STACK],
    props: u32,
}

/// Skips the value at `pos` (at nesting `depth`) and returns where it ends. With `validate`,
/// everything the engine checks is checked, including string text; the depth limit is always
/// enforced.
#[inline]
pub(crate) fn skip_value(
    dec: &Decoder,
    data: &[u8],
    pos: usize,
    depth: u32,
    validate: bool,
) -> Result<usize> {
    // A leaf needs no stack.
    if depth <= dec.max_depth() {
        if let Some(Next::Leaf(end)) = quick_next(dec, data, pos, validate) {
            return Ok(end);
        }
    }
    run(dec, data, pos, Start::Value(depth), validate, 0)
}

enum Start {
    Value(u32),
    /// A frame (and whether its items are properties) carried over from a full stack.
    Frame(Frame, bool),
}

fn run(
    dec: &Decoder,
    data: &[u8],
    mut pos: usize,
    start: Start,
    validate: bool,
    spills: u32,
) -> Result<usize> {
    let mut stack = Stack {
        frames: [Frame::default(); STACK],
        props: 0,
    };
    let mut sp = 0;
    let mut depth = match start {
        Start::Value(depth) => depth,
        Start::Frame(frame, props) => {
            stack.frames[0] = frame;
            stack.props = props as u32;
            sp = 1;
            match next_item(dec, data, &mut pos, &mut stack, &mut sp, validate)? {
                Some(depth) => depth,
                None => return Ok(pos),
            }
        }
    };
    loop {
        if depth > dec.max_depth() {
            let limit = dec.max_depth();
            return Err(Error::new(ErrorKind::TooDeep { limit }, pos));
        }
        let next = match quick_next(dec, data, pos, validate) {
            Some(next) => next,
            None => read_head(dec, data, pos, depth, validate)?.1,
        };
        match next {
            Next::Leaf(end) => pos = end,
            Next::Nest {
                body,
                values,
                props,
            } => {
                pos = body;
                if values > 0 {
                    let frame = Frame {
                        left: values,
                        depth: depth + 1,
                    };
                    if sp == STACK {
                        if spills + 1 >= MAX_SPILLS {
                            let limit = MAX_PENDING_LEVELS;
                            return Err(Error::new(ErrorKind::TooDeep { limit }, pos));
                        }
                        let start = Start::Frame(frame, props);
                        pos = run(dec, data, pos, start, validate, spills + 1)?;
                    } else {
                        stack.frames[sp] = frame;
                        stack.props = (stack.props & !(1 << sp)) | (props as u32) << sp;
                        sp += 1;
                    }
                }
            }
        }
        match next_item(dec, data, &mut pos, &mut stack, &mut sp, validate)? {
            Some(next_depth) => depth = next_depth,
            None => return Ok(pos),
        }
    }
}

/// Takes the next pending item from the top frame: reads a property name if needed and
/// returns the depth of the value now at `pos`, or `None` when nothing is pending.
#[inline]
fn next_item(
    dec: &Decoder,
    data: &[u8],
    pos: &mut usize,
    stack: &mut Stack,
    sp: &mut usize,
    validate: bool,
) -> Result<Option<u32>> {
    let Some(i) = (*sp).checked_sub(1) else {
        return Ok(None);
    };
    let Some(top) = stack.frames.get_mut(i) else {
        return Ok(None);
    };
    top.left = top.left.saturating_sub(1);
    let frame = *top;
    if frame.left == 0 {
        *sp -= 1;
    }
    if stack.props & (1 << i) != 0 {
        let (name, end) = string_block(data, *pos, dec.dialect().text_rules(), validate)?;
        *pos = end;
        if validate {
            check_script_property(dec, data, name, end, frame.depth, validate)?;
        }
    }
    Ok(Some(frame.depth))
}

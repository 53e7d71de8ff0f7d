//! A linear pull walker: a whole nested value as a flat stream of events, validated as it goes.
//!
//! Walking a structure recursively through the lazy [`ArrayRef`](crate::ArrayRef) /
//! [`DictRef`](crate::DictRef) iterators skips every nested container a second time when the
//! iterator moves past it (unless the walked child is handed back with `resume`), which costs
//! O(n × depth) on deep inputs with siblings after the deep child. The walker reads every byte
//! once: O(n) whatever the shape, with no recursion and no allocation.

use core::iter::FusedIterator;

use crate::error::{Error, ErrorKind, Result};
use crate::read::decoder::Decoder;
use crate::read::head::quick_leaf;
use crate::read::head::{quick_container, read_head, Next};
use crate::read::object::check_script_property;
use crate::read::pending::{Item, Level, Pending};
use crate::read::skip::MAX_PENDING_LEVELS;
use crate::read::str_ref::{string_block, StrRef};
use crate::read::value::VariantRef;

/// One step of a [`Walker`].
///
/// ```
/// use gdwire::read::Event;
/// use gdwire::{Decoder, Dialect};
/// let bytes = [28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]; // [7]
/// let events: Vec<Event> = Decoder::new(Dialect::GODOT_4).walk(&bytes).collect::<Result<_, _>>()?;
/// assert!(matches!(events[..], [Event::Begin(_), Event::Value(_), Event::End]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event<'a> {
    /// A value that holds no further values: scalars, strings, math types, node paths, packed
    /// arrays, object ids and null objects, callables, signals.
    Value(VariantRef<'a>),
    /// An Array (any kind), Dictionary or full Object starts. The view tells its length,
    /// element / key / value types and class name; its items follow as events (dictionary
    /// keys and values alternate; each object property is a [`Event::Property`] then the
    /// value), then [`Event::End`]. Iterating the view itself is not needed, and its items
    /// are not validated yet when this event comes (the walk checks them as it reaches them).
    Begin(VariantRef<'a>),
    /// The name of a full object's next property; the value follows.
    Property(StrRef<'a>),
    /// The innermost open container ends.
    End,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Start,
    Running,
    /// A property name was handed out; its value at this depth is next.
    Property(u32),
    Done,
}

/// Walks one value and everything nested in it as [`Event`]s, checking everything
/// [`Decoder::validate`] checks, in one pass. Errors come when the walk reaches the bad bytes
/// (the same [`Error`] that `validate` returns); the walk then ends.
///
/// Cost is linear in the input, whatever the nesting. The walker holds a fixed stack of `N`
/// levels that still have items pending (a chain of last items needs one); the default,
/// 2048, is the most any decodable input can need, so a walk never fails on a value
/// [`Decoder::decode`] accepts. A smaller `N` (via [`Walker::with_stack`]) makes the walker
/// smaller and fails deeper inputs with `TooDeep { limit: N }`. The stack is 9 bytes per
/// level, held inline (18 KiB by default) and not initialised until used, so creating a
/// walker costs about as little as [`Walker::reset`]: one per packet is fine.
///
/// ```
/// use gdwire::read::{Event, Walker};
/// use gdwire::{Decoder, Dialect};
/// // [1, [2]] in Godot 4.
/// let bytes = [0x1c,0,0,0, 2,0,0,0, 2,0,0,0, 1,0,0,0, 0x1c,0,0,0, 1,0,0,0, 2,0,0,0, 2,0,0,0];
/// let mut ints = 0;
/// let mut depth = 0;
/// for event in Walker::new(Decoder::new(Dialect::GODOT_4), &bytes) {
///     match event? {
///         Event::Begin(v) => { assert!(v.as_array().is_some()); depth += 1 }
///         Event::End => depth -= 1,
///         Event::Value(v) => ints += v.as_int().unwrap(),
///         Event::Property(_) => unreachable!("no objects here"),
///     }
/// }
/// assert_eq!((ints, depth), (3, 0));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone)]
pub struct Walker<'a, const N: usize = 2048> {
    dec: Decoder,
    data: &'a [u8],
    pos: usize,
    state: State,
    /// `state == State::Running`, tested alone on the way of almost every event (a match on
    /// `state` compiles to a jump table there).
    running: bool,
    /// `End` events still owed.
    ends: u32,
    /// Containers begun and not yet ended.
    open: u32,
    pending: Pending<N>,
}

impl<'a> Walker<'a> {
    /// A walker over the value at the start of `bytes` (trailing bytes are left alone; see
    /// [`Walker::offset`]).
    ///
    /// ```
    /// use gdwire::read::Walker;
    /// use gdwire::{Decoder, Dialect};
    /// let walker = Walker::new(Decoder::new(Dialect::GODOT_4), &[0, 0, 0, 0]);
    /// assert_eq!(walker.count(), 1);
    /// ```
    pub fn new(dec: Decoder, bytes: &'a [u8]) -> Walker<'a> {
        Walker::with_stack(dec, bytes)
    }
}

impl<'a, const N: usize> Walker<'a, N> {
    /// A walker with room for `N` levels with pending items (see the type's docs).
    ///
    /// ```
    /// use gdwire::read::Walker;
    /// use gdwire::{Decoder, Dialect, ErrorKind};
    /// // [[1], 2]: one level with an item pending while the inner array is read.
    /// let bytes = [0x1c,0,0,0, 2,0,0,0, 0x1c,0,0,0, 1,0,0,0, 2,0,0,0, 1,0,0,0, 2,0,0,0, 2,0,0,0];
    /// let dec = Decoder::new(Dialect::GODOT_4);
    /// assert!(Walker::<'_, 2>::with_stack(dec, &bytes).all(|e| e.is_ok()));
    /// let err = Walker::<'_, 1>::with_stack(dec, &bytes).find_map(|e| e.err()).unwrap();
    /// assert_eq!(err.kind(), ErrorKind::TooDeep { limit: 1 });
    /// ```
    pub fn with_stack(dec: Decoder, bytes: &'a [u8]) -> Walker<'a, N> {
        Walker {
            dec,
            data: bytes,
            pos: 0,
            state: State::Start,
            running: false,
            ends: 0,
            open: 0,
            pending: Pending::new(),
        }
    }

    /// Starts over on the value at the start of `bytes`, keeping the options.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// let (a, b) = ([0u8, 0, 0, 0], [1u8, 0, 0, 0, 1, 0, 0, 0]);
    /// let mut walker = Decoder::new(Dialect::GODOT_4).walk(&a);
    /// assert_eq!(walker.by_ref().count(), 1);
    /// walker.reset(&b); // the same walker, on the next value
    /// assert_eq!(walker.count(), 1);
    /// ```
    pub fn reset(&mut self, bytes: &'a [u8]) {
        self.data = bytes;
        self.pos = 0;
        self.state = State::Start;
        self.running = false;
        self.ends = 0;
        self.open = 0;
        self.pending.clear();
    }

    /// Where the walk stands, in bytes from the start: after the last event, the length of
    /// the value (as [`Decoder::validate`] returns it). (Not `position`: on a `&mut Walker`
    /// that name resolves to [`Iterator::position`].)
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// let bytes = [0u8, 0, 0, 0, 0xAA];
    /// let mut walker = Decoder::new(Dialect::GODOT_4).walk(&bytes);
    /// walker.by_ref().for_each(drop);
    /// assert_eq!(walker.offset(), 4); // where the value ended
    /// ```
    pub fn offset(&self) -> usize {
        self.pos.min(self.data.len())
    }

    /// Containers begun and not yet ended.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// let bytes = [28, 0, 0, 0, 1, 0, 0, 0, 28, 0, 0, 0, 0, 0, 0, 0]; // [[]]
    /// let mut walker = Decoder::new(Dialect::GODOT_4).walk(&bytes);
    /// walker.next();
    /// assert_eq!(walker.open_containers(), 1);
    /// ```
    pub fn open_containers(&self) -> u32 {
        self.open
    }

    /// True once the whole value has been walked (or an error ended the walk).
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// let mut walker = Decoder::new(Dialect::GODOT_4).walk(&[0, 0, 0, 0]);
    /// assert!(!walker.is_done());
    /// assert!(walker.next().is_some());
    /// assert!(walker.next().is_none());
    /// assert!(walker.is_done());
    /// ```
    pub fn is_done(&self) -> bool {
        self.state == State::Done && self.ends == 0
    }

    fn fail(&mut self, e: Error) -> Option<Result<Event<'a>>> {
        self.state = State::Done;
        self.running = false;
        self.ends = 0;
        Some(Err(e))
    }

    /// The next event, `None` after the value's last `End` (or after an error).
    #[inline(always)]
    fn step(&mut self) -> Option<Result<Event<'a>>> {
        if self.ends > 0 {
            self.ends -= 1;
            self.open = self.open.saturating_sub(1);
            return Some(Ok(Event::End));
        }
        let depth = if self.running {
            let Some(Item { depth, property }) = self.pending.take_item() else {
                self.state = State::Done;
                self.running = false;
                return None;
            };
            if property {
                let rules = self.dec.dialect().text_rules();
                let checked =
                    string_block(self.data, self.pos, rules, true).and_then(|(name, end)| {
                        check_script_property(&self.dec, self.data, name, end, depth, true)
                            .map(|()| (name, end))
                    });
                return match checked {
                    Ok((name, end)) => {
                        self.pos = end;
                        self.state = State::Property(depth);
                        self.running = false;
                        Some(Ok(Event::Property(name)))
                    }
                    Err(e) => self.fail(e),
                };
            }
            depth
        } else {
            let depth = match self.state {
                State::Done | State::Running => return None,
                State::Start => 0,
                State::Property(depth) => depth,
            };
            self.state = State::Running;
            self.running = true;
            depth
        };
        if depth > self.dec.max_depth() {
            let limit = self.dec.max_depth();
            return self.fail(Error::new(ErrorKind::TooDeep { limit }, self.pos));
        }
        if let Some((value, end)) = quick_leaf(&self.dec, self.data, self.pos, true) {
            self.pos = end;
            self.ends = depth.saturating_sub(self.pending.next_depth());
            return Some(Ok(Event::Value(value)));
        }
        let head = match quick_container(&self.dec, self.data, self.pos, depth) {
            Some(head) => Ok(head),
            None => read_head(&self.dec, self.data, self.pos, depth, true),
        };
        match head {
            Err(e) => self.fail(e),
            Ok((value, Next::Leaf(end))) => {
                self.pos = end;
                self.ends = depth.saturating_sub(self.pending.next_depth());
                Some(Ok(Event::Value(value)))
            }
            Ok((
                value,
                Next::Nest {
                    body,
                    values,
                    props,
                },
            )) => {
                self.pos = body;
                self.open += 1;
                if values == 0 {
                    self.ends = 1 + depth.saturating_sub(self.pending.next_depth());
                } else {
                    let cap = N.min(MAX_PENDING_LEVELS as usize);
                    let level = Level {
                        left: values,
                        depth: depth.saturating_add(1),
                        props,
                    };
                    // The cap below `N` is decided at compile time for the default `N`.
                    let capped = N > cap && self.pending.len() >= cap;
                    if capped || !self.pending.push(level) {
                        let limit = cap as u32;
                        return self.fail(Error::new(ErrorKind::TooDeep { limit }, body));
                    }
                }
                Some(Ok(Event::Begin(value)))
            }
        }
    }
}

impl<'a, const N: usize> Iterator for Walker<'a, N> {
    type Item = Result<Event<'a>>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.step()
    }
}

impl<const N: usize> FusedIterator for Walker<'_, N> {}

impl Decoder {
    /// A [`Walker`] over the value at the start of `bytes`: every nested value as a flat
    /// stream of events, validated in the same single pass. Creating a walker is cheap (its
    /// stack is not initialised), so one per packet costs about what [`Walker::reset`] does.
    ///
    /// ```
    /// use gdwire::read::Event;
    /// use gdwire::{Decoder, Dialect};
    /// // Count the ints anywhere in [1, [2, 3]] in one linear pass.
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 28, 0, 0, 0, 2, 0, 0, 0,
    ///     2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0];
    /// let mut ints = 0;
    /// for event in Decoder::new(Dialect::GODOT_4).walk(&bytes) {
    ///     if let Event::Value(v) = event? {
    ///         ints += usize::from(v.as_int().is_some());
    ///     }
    /// }
    /// assert_eq!(ints, 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn walk<'a>(&self, bytes: &'a [u8]) -> Walker<'a> {
        Walker::new(*self, bytes)
    }
}

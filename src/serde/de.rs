//! The deserializer: serde's visitors are driven straight from the bytes with a read
//! position, one value head at a time (through the crate's one layout reader,
//! `read::head`), so every byte is read once and validated as it is reached; strings, byte
//! arrays and packed arrays are handed out borrowed from the input.

use alloc::string::{String, ToString};
use core::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, EnumAccess, Error as _, MapAccess, SeqAccess, Unexpected, VariantAccess,
    Visitor,
};

use crate::dialect::Dialect;
use crate::frame::{Framing, Split};
use crate::read::head::{
    quick_bool, quick_float, quick_int, quick_math, quick_string, read_head, untyped_container,
    untyped_view, Next, WireFloat,
};
use crate::read::skip::skip_value;
use crate::read::str_ref::string_block;
use crate::read::{check_script_property, quick_leaf, Decoder, ObjectRef, StrRef, VariantRef};
use crate::serde::error::{Error, Result};
use crate::serde::leaf::{marker, visit_leaf, Hint, LeafDe, Marker, MathWire};

/// Nesting limit of the deserializer (the top-level value is depth 0), like `serde_json`'s
/// default recursion limit: serde visitors recurse natively, so deeper input is refused
/// rather than risking the thread's stack.
pub const MAX_NESTING: u32 = 128;

/// A serde deserializer over Godot Variant bytes: one value ([`Deserializer::from_bytes`]),
/// values back to back ([`Deserializer::new`], [`Deserializer::from_cursor`]) or `store_var`
/// frames ([`Deserializer::framed`]).
///
/// Each value is read once, front to back, and validated as it goes (everything
/// [`Decoder::validate`] checks): a malformed value fails where the bad bytes are, with
/// their offset. The deserializer
/// allocates nothing itself (errors aside); borrowed `&str`, `&[u8]` and
/// [`PackedRef`](crate::PackedRef) fields point into the input.
///
/// ```
/// use serde::Deserialize;
/// use gdwire::frame::Framing;
/// use gdwire::serde::Deserializer;
/// use gdwire::{Decoder, Dialect};
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Ping { seq: u32 }
///
/// // Two values as `FileAccess.store_var` writes them: u32 length, then the value.
/// let file = [
///     28, 0, 0, 0, 0x1b,0,0,0, 1,0,0,0, 4,0,0,0, 3,0,0,0, b's',b'e',b'q',0, 2,0,0,0, 7,0,0,0,
///     28, 0, 0, 0, 0x1b,0,0,0, 1,0,0,0, 4,0,0,0, 3,0,0,0, b's',b'e',b'q',0, 2,0,0,0, 8,0,0,0,
/// ];
/// let decoder = Decoder::new(Dialect::GODOT_4);
/// let pings: Vec<Ping> = Deserializer::framed(Framing::default(), decoder, &file)
///     .into_values()
///     .collect::<Result<_, _>>()?;
/// assert_eq!(pings, [Ping { seq: 7 }, Ping { seq: 8 }]);
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
pub struct Deserializer<'de> {
    dec: Decoder,
    /// The current value's bytes and their offset in the caller's buffer.
    value: &'de [u8],
    base: usize,
    /// Read position in `value`, and the nesting depth of the value read next.
    pos: usize,
    depth: u32,
    /// A value head read ahead (by `deserialize_option`) and not yet visited.
    peeked: Option<(Item<'de>, usize)>,
    /// The whole input; where the next value (or frame) starts; whether `value` is set up.
    input: &'de [u8],
    next: usize,
    loaded: bool,
    /// The quick readers may run while `depth < open`: the nesting limit plus one when a
    /// value is loaded and no head is read ahead, else 0. One compare per value instead of
    /// three; kept in step by [`Self::reopen`] wherever `loaded` or `peeked` change.
    open: u32,
    framing: Option<Framing>,
    /// Offset of `input` in the caller's buffer (a cursor's position), for error offsets.
    offset_shift: usize,
}

/// One value's head, read straight from the bytes by the crate's single layout reader
/// ([`quick_leaf`], [`untyped_container`], [`read_head`]): a complete leaf, or a container
/// whose `values` items (for objects, `values` (name, value) pairs) follow at the read
/// position.
#[derive(Clone, Copy)]
enum Item<'de> {
    Leaf(VariantRef<'de>),
    /// An untyped Array or (`dict`) Dictionary, the common container: no view is built for
    /// it unless one is asked for ([`Deserializer::plain_view`]).
    Plain {
        dict: bool,
        values: u32,
    },
    Nest {
        view: VariantRef<'de>,
        values: u32,
        props: bool,
    },
}

impl<'de> Deserializer<'de> {
    /// One value (or several back to back) in `dialect` with engine defaults.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use gdwire::serde::Deserializer;
    /// use gdwire::Dialect;
    ///
    /// // var_to_bytes([1, "a"]) from Godot 4.6, read as a tuple.
    /// let bytes = [0x1c,0,0,0, 2,0,0,0, 2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0];
    /// let mut de = Deserializer::from_bytes(Dialect::GODOT_4, &bytes);
    /// let pair = <(i64, &str)>::deserialize(&mut de)?;
    /// de.end()?; // nothing after it
    /// assert_eq!(pair, (1, "a"));
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn from_bytes(dialect: Dialect, bytes: &'de [u8]) -> Deserializer<'de> {
        Deserializer::new(Decoder::new(dialect), bytes)
    }

    /// Values back to back in `bytes` (`var_to_bytes` outputs concatenated), read with
    /// `decoder`'s options; its nesting limit is capped at [`MAX_NESTING`].
    ///
    /// ```
    /// use gdwire::serde::Deserializer;
    /// use gdwire::{Decoder, Dialect};
    ///
    /// // var_to_bytes(1) and var_to_bytes("a") from Godot 4.6, back to back.
    /// let bytes = [2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0];
    /// let mut de = Deserializer::new(Decoder::new(Dialect::GODOT_4), &bytes);
    /// assert_eq!(de.next_value::<i32>().transpose()?, Some(1));
    /// assert_eq!(de.next_value::<&str>().transpose()?, Some("a"));
    /// assert!(de.next_value::<i32>().is_none());
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    #[inline]
    pub fn new(decoder: Decoder, bytes: &'de [u8]) -> Deserializer<'de> {
        let max = decoder.max_depth().min(MAX_NESTING);
        let dec = decoder.with_max_depth(max);
        Deserializer {
            dec,
            value: bytes,
            base: 0,
            pos: 0,
            depth: 0,
            peeked: None,
            input: bytes,
            next: 0,
            loaded: false,
            open: 0,
            framing: None,
            offset_shift: 0,
        }
    }

    /// The values left in `cursor`, from its position on (offsets in errors count from the
    /// start of the cursor's input).
    ///
    /// ```
    /// use gdwire::serde::Deserializer;
    /// use gdwire::{Cursor, Dialect};
    ///
    /// // var_to_bytes(1) and var_to_bytes("a") from Godot 4.6, back to back: the cursor reads the
    /// // first value as a view, serde the rest.
    /// let bytes = [2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0];
    /// let mut cursor = Cursor::new(Dialect::GODOT_4, &bytes);
    /// assert_eq!(cursor.read()?.as_int(), Some(1));
    /// let mut de = Deserializer::from_cursor(cursor);
    /// assert_eq!(de.position(), 8); // offsets count from the start of `bytes`
    /// assert_eq!(de.next_value::<String>().transpose()?.as_deref(), Some("a"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_cursor(cursor: crate::Cursor<'de>) -> Deserializer<'de> {
        Deserializer::at(cursor.decoder(), cursor.remaining(), 0).shifted(cursor.position())
    }

    fn shifted(mut self, by: usize) -> Self {
        self.offset_shift = by;
        self
    }

    /// The value at `offset` in `input` (offsets in errors count from the start of `input`).
    pub(crate) fn at(decoder: Decoder, input: &'de [u8], offset: usize) -> Deserializer<'de> {
        let mut de = Deserializer::new(decoder, input.get(offset..).unwrap_or_default());
        de.offset_shift = offset;
        de
    }

    /// Length-prefixed values, as `FileAccess.store_var`, `StreamPeer.put_var` and
    /// `PacketPeerStream` write them ([`Framing`] says the prefix's byte order and the
    /// largest frame). Bytes after a value inside its frame are ignored, as by the engine.
    ///
    /// ```
    /// use gdwire::frame::Framing;
    /// use gdwire::serde::Deserializer;
    /// use gdwire::{Decoder, Dialect};
    ///
    /// // The last three `store_var` frames of a file Godot 4.6 wrote (the crate's sample).
    /// let file = include_bytes!("../../samples/godot4_capture.bin");
    /// let decoder = Decoder::new(Dialect::GODOT_4);
    /// let mut de = Deserializer::framed(Framing::default(), decoder, &file[2116..]);
    /// assert_eq!(de.next_value::<&str>().transpose()?, Some("gg wp 🎮"));
    /// assert_eq!(de.next_value::<i64>().transpose()?, Some(1234567890123));
    /// assert_eq!(de.next_value::<Option<i32>>().transpose()?, Some(None)); // null
    /// assert!(de.is_at_end());
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn framed(framing: Framing, decoder: Decoder, bytes: &'de [u8]) -> Deserializer<'de> {
        let mut de = Deserializer::new(decoder, bytes);
        de.framing = Some(framing);
        de
    }

    /// Offset (in the input) where the next value, or frame, starts.
    ///
    /// ```
    /// use gdwire::serde::Deserializer;
    /// use gdwire::Dialect;
    ///
    /// // var_to_bytes(1) and var_to_bytes("a") from Godot 4.6, back to back.
    /// let bytes = [2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0];
    /// let mut de = Deserializer::from_bytes(Dialect::GODOT_4, &bytes);
    /// assert_eq!(de.position(), 0);
    /// de.next_value::<i32>();
    /// assert_eq!(de.position(), 8);
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn position(&self) -> usize {
        self.offset_shift + self.next
    }

    /// True when no bytes are left for another value.
    ///
    /// ```
    /// use gdwire::serde::Deserializer;
    /// use gdwire::Dialect;
    ///
    /// // var_to_bytes(1) and var_to_bytes("a") from Godot 4.6, back to back.
    /// let bytes = [2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0];
    /// let mut de = Deserializer::from_bytes(Dialect::GODOT_4, &bytes);
    /// let mut n = 0;
    /// while !de.is_at_end() {
    ///     de.next_value::<serde::de::IgnoredAny>().transpose()?;
    ///     n += 1;
    /// }
    /// assert_eq!(n, 2);
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn is_at_end(&self) -> bool {
        !self.loaded && self.next >= self.input.len()
    }

    /// Deserializes the next value of the sequence; `None` once the input is used up.
    ///
    /// ```
    /// use gdwire::serde::Deserializer;
    /// use gdwire::Dialect;
    ///
    /// // var_to_bytes(1) and var_to_bytes("a") from Godot 4.6, back to back.
    /// let bytes = [2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0];
    /// let mut de = Deserializer::from_bytes(Dialect::GODOT_4, &bytes);
    /// assert_eq!(de.next_value::<u8>().transpose()?, Some(1));
    /// // A value of the wrong type is an error with its offset, and ends the sequence.
    /// let err = de.next_value::<u8>().unwrap().unwrap_err();
    /// assert_eq!(err.offset(), Some(8));
    /// assert!(de.next_value::<u8>().is_none());
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn next_value<T: de::Deserialize<'de>>(&mut self) -> Option<Result<T>> {
        if self.is_at_end() {
            return None;
        }
        let result = T::deserialize(&mut *self);
        if result.is_err() {
            // No telling where the next value starts: the sequence ends here.
            self.next = self.input.len();
            self.loaded = false;
            self.reopen();
            return Some(result);
        }
        self.done_value();
        Some(result)
    }

    /// The values of the sequence as an iterator of `T` (it ends after the first error).
    ///
    /// ```
    /// use gdwire::serde::Deserializer;
    /// use gdwire::Dialect;
    ///
    /// // var_to_bytes(1) and var_to_bytes(-1) from Godot 4.6, back to back.
    /// let bytes = [2,0,0,0, 1,0,0,0, 2,0,0,0, 0xff,0xff,0xff,0xff];
    /// let ints: Vec<i64> = Deserializer::from_bytes(Dialect::GODOT_4, &bytes)
    ///     .into_values()
    ///     .collect::<Result<_, _>>()?;
    /// assert_eq!(ints, [1, -1]);
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn into_values<T: de::Deserialize<'de>>(self) -> StreamIter<'de, T> {
        StreamIter {
            de: self,
            _t: PhantomData,
        }
    }

    /// Checks that nothing is left after the value(s) read, like `serde_json`'s `end`: one
    /// value per buffer is the `var_to_bytes` / `PacketPeer.put_var` contract.
    ///
    /// ```
    /// use gdwire::serde::{Deserializer, ErrorCode};
    /// use gdwire::{Dialect, ErrorKind};
    ///
    /// // var_to_bytes(1) and var_to_bytes("a") from Godot 4.6, back to back.
    /// let bytes = [2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0];
    /// let mut de = Deserializer::from_bytes(Dialect::GODOT_4, &bytes);
    /// assert_eq!(de.next_value::<i32>().transpose()?, Some(1));
    /// let err = de.end().unwrap_err(); // 12 bytes ("a") left
    /// assert_eq!(err.code(), &ErrorCode::Wire(ErrorKind::TrailingBytes { count: 12 }));
    /// assert_eq!(err.offset(), Some(8));
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn end(&mut self) -> Result<()> {
        if self.loaded {
            self.done_value();
        }
        match self.input.len().saturating_sub(self.next) {
            0 => Ok(()),
            count => Err(Error::wire(
                crate::Error::new(crate::ErrorKind::TrailingBytes { count }, self.next),
                self.offset_shift,
            )),
        }
    }

    /// The value just deserialized is complete: the next one starts after it.
    fn done_value(&mut self) {
        if self.framing.is_none() {
            self.next = self.base - self.offset_shift + self.pos.min(self.value.len());
        }
        self.loaded = false;
        self.peeked = None;
        self.reopen();
    }

    /// Recomputes `open` after `loaded` or `peeked` changed.
    #[inline]
    fn reopen(&mut self) {
        self.open = if self.loaded && self.peeked.is_none() {
            self.dec.max_depth() + 1
        } else {
            0
        };
    }

    /// Puts a head back, to be read again by the next call.
    #[inline]
    fn put_back(&mut self, head: (Item<'de>, usize)) {
        self.peeked = Some(head);
        self.reopen();
    }

    /// Sets the read position on the next value (or frame).
    #[cold]
    fn load(&mut self) -> Result<()> {
        let rest = self.input.get(self.next..).unwrap_or_default();
        match self.framing {
            None => {
                self.value = rest;
                self.base = self.offset_shift + self.next;
            }
            Some(framing) => match framing.split(rest) {
                Ok(Split::Complete { frame, rest }) => {
                    self.value = frame;
                    self.base = self.offset_shift + self.next + crate::frame::PREFIX_LEN;
                    self.next = self.input.len() - rest.len();
                }
                Ok(Split::Partial { needed }) => {
                    let at = self.offset_shift + self.input.len();
                    let msg = alloc::format!("the last frame lacks {needed} bytes");
                    return Err(Error::message(msg).at(at));
                }
                Err(e) => return Err(Error::wire(e, self.offset_shift + self.next)),
            },
        }
        self.pos = 0;
        self.depth = 0;
        self.peeked = None;
        self.loaded = true;
        self.reopen();
        Ok(())
    }

    /// Reads the next value's head (or takes the one read ahead) and its offset: a leaf is
    /// read whole, a container up to its first item. Everything the walker and
    /// [`Decoder::validate`] check is checked here, as the bytes are reached.
    #[inline(always)]
    fn head(&mut self) -> Result<(Item<'de>, usize)> {
        match self.quick_head() {
            Some((v, at)) => Ok((Item::Leaf(v), at)),
            None => self.head_slow(),
        }
    }

    /// The next value and its offset when it is a leaf [`quick_leaf`] reads (the common
    /// case), consumed; `None` (nothing consumed) leaves it to [`Self::head_slow`]. Callers
    /// that dispatch on the leaf at once use this instead of [`Self::head`], so the view is
    /// never moved through an [`Item`].
    #[inline(always)]
    fn quick_head(&mut self) -> Option<(VariantRef<'de>, usize)> {
        self.quick(|dec, data, pos| quick_leaf(dec, data, pos, true))
    }

    /// A newtype struct with a private marker name: the value must be the marker's type.
    fn marked<V: Visitor<'de>>(&mut self, m: Marker, visitor: V) -> Result<V::Value> {
        let (item, at) = self.head()?;
        let view = match item {
            Item::Leaf(v) => return LeafDe::new(v).marked(m, visitor).map_err(|e| e.at(at)),
            Item::Plain { dict, values } => self.plain_view(at, dict, values),
            Item::Nest { view, .. } => view,
        };
        match m {
            // Typed containers and full objects: put the head back so the
            // container is read as usual after its type strings.
            Marker::Godot(k) => {
                self.put_back((item, at));
                crate::serde::godot::visit_container_marked(k, view, &mut *self, visitor)
                    .map_err(|e| e.at(at))
            }
            _ => Err(Marker::mismatch(m, &view).at(at)),
        }
    }

    /// The next value read by `read` (one of the typed quick readers) and its offset,
    /// consumed; `None` (nothing consumed) when `read` declines or the quick readers may not
    /// run.
    #[inline(always)]
    fn quick<T>(
        &mut self,
        read: impl FnOnce(&Decoder, &'de [u8], usize) -> Option<(T, usize)>,
    ) -> Option<(T, usize)> {
        if self.depth >= self.open {
            return None;
        }
        let pos = self.pos;
        let (x, end) = read(&self.dec, self.value, pos)?;
        self.pos = end;
        Some((x, self.base + pos))
    }

    /// The next value's text and offset when it is a String that is strict UTF-8 (the
    /// common case for field names and `&str`), consumed; `None` (nothing consumed)
    /// otherwise.
    #[inline(always)]
    fn quick_str(&mut self) -> Option<(&'de str, usize)> {
        // Not through `Self::quick`: with the text check inside its closure, 3 % more
        // instructions on both serde benches.
        if self.depth >= self.open {
            return None;
        }
        let pos = self.pos;
        let (s, end) = quick_string(&self.dec, self.value, pos)?;
        let text = s.as_str()?;
        self.pos = end;
        Some((text, self.base + pos))
    }

    /// The real-valued math type `ty` when it is next (the common case for a marked math
    /// field), consumed, with its offset; `None` (nothing consumed) otherwise.
    #[inline(always)]
    fn quick_math(&mut self, ty: crate::VariantType) -> Option<(&'de [u8], usize)> {
        self.quick(|dec, data, pos| quick_math(dec, data, pos, ty))
    }

    /// The next value when it is an untyped Array or (`true`) Dictionary: how many values
    /// follow its head, and its offset; consumed. `None` (nothing consumed) otherwise. For
    /// the calls that expect a container, which would read the header twice through
    /// [`Self::head`] (once as a leaf, once as a container).
    #[inline(always)]
    fn quick_container(&mut self) -> Option<(bool, u32, usize)> {
        let ((dict, values), at) =
            self.quick(|dec, data, pos| Some((untyped_container(dec, data, pos)?, pos + 8)))?;
        Some((dict, values, at))
    }

    /// A head read ahead, containers, the leaves [`quick_leaf`] leaves to the full reader,
    /// and every error.
    fn head_slow(&mut self) -> Result<(Item<'de>, usize)> {
        if let Some(p) = self.peeked.take() {
            self.reopen();
            return Ok(p);
        }
        if !self.loaded {
            self.load()?;
        }
        let pos = self.pos;
        let at = self.base + pos;
        if self.depth > self.dec.max_depth() {
            return Err(self.too_deep(pos));
        }
        // Untyped containers first: the common reason to be here.
        if let Some((dict, values)) = untyped_container(&self.dec, self.value, pos) {
            self.pos = pos + 8;
            return Ok((Item::Plain { dict, values }, at));
        }
        if let Some((v, end)) = quick_leaf(&self.dec, self.value, pos, true) {
            self.pos = end;
            return Ok((Item::Leaf(v), at));
        }
        self.head_full(pos, at)
    }

    #[cold]
    fn too_deep(&self, pos: usize) -> Error {
        let limit = self.dec.max_depth();
        let e = crate::Error::new(crate::ErrorKind::TooDeep { limit }, pos);
        Error::wire(e, self.base)
    }

    /// Every other value (typed containers, objects, the rarer leaves) and every error, by
    /// the full reader. Kept out of line: its large frame stays off the common path.
    #[inline(never)]
    fn head_full(&mut self, pos: usize, at: usize) -> Result<(Item<'de>, usize)> {
        let head = read_head(&self.dec, self.value, pos, self.depth, true)
            .map_err(|e| Error::wire(e, self.base))?;
        Ok(match head {
            (v, Next::Leaf(end)) => {
                self.pos = end;
                (Item::Leaf(v), at)
            }
            (
                view,
                Next::Nest {
                    body,
                    values,
                    props,
                },
            ) => {
                self.pos = body;
                let item = Item::Nest {
                    view,
                    values,
                    props,
                };
                (item, at)
            }
        })
    }

    /// The view of an [`Item::Plain`] read at `at` (for a marked container, or to name it
    /// in an error).
    fn plain_view(&self, at: usize, dict: bool, values: u32) -> VariantRef<'de> {
        let pos = at - self.base;
        untyped_view(&self.dec, self.value, pos, self.depth, dict, values, false)
    }

    /// A full object's next property name (a bare string block; its value follows), with
    /// the engine's `script` property check.
    fn property_name(&mut self) -> Result<StrRef<'de>> {
        let rules = self.dec.dialect().text_rules();
        let data = self.value;
        let depth = self.depth;
        let checked = string_block(data, self.pos, rules, true).and_then(|(name, end)| {
            check_script_property(&self.dec, data, name, end, depth, true).map(|()| (name, end))
        });
        match checked {
            Ok((name, end)) => {
                self.pos = end;
                Ok(name)
            }
            Err(e) => Err(Error::wire(e, self.base)),
        }
    }

    /// The next whole value's bytes (validated as it is stepped over), handed to an owned
    /// `Variant`'s visitor, which decodes them with the owned decoder.
    fn variant_whole<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let head = self.head()?;
        let start = head.1 - self.base;
        self.put_back(head);
        self.skip_value()?;
        let bytes = &self.value[start..self.pos];
        crate::serde::variant::visit_wire(self.dec.dialect(), bytes, visitor)
            .map_err(|e| e.at(head.1))
    }

    /// Steps over one whole value (`IgnoredAny`: unknown fields, unread tail items),
    /// validating it.
    fn skip_value(&mut self) -> Result<()> {
        let (values, props) = match self.head()? {
            (Item::Leaf(_), _) => return Ok(()),
            (Item::Plain { values, .. }, _) => (values, false),
            (Item::Nest { values, props, .. }, _) => (values, props),
        };
        self.depth += 1;
        for _ in 0..values {
            if props {
                self.property_name()?;
            }
            self.pos = skip_value(&self.dec, self.value, self.pos, self.depth, true)
                .map_err(|e| Error::wire(e, self.base))?;
        }
        self.depth -= 1;
        Ok(())
    }

    /// A key's text for an error path, re-read from the bytes (`props`: an object property
    /// name, which has no header).
    #[cold]
    fn key_text(&self, at: usize, props: bool) -> String {
        let bytes = self.value.get(at - self.base..).unwrap_or_default();
        let rules = self.dec.dialect().text_rules();
        if props {
            return match crate::read::str_ref::string_block(bytes, 0, rules, false) {
                Ok((s, _)) => lossy(s),
                Err(_) => "?".into(),
            };
        }
        match self.dec.decode(bytes) {
            Ok(VariantRef::String(s) | VariantRef::StringName(s)) => lossy(s),
            Ok(VariantRef::Int(i)) => i.to_string(),
            Ok(other) => alloc::format!("<{} key>", other.variant_type()),
            Err(_) => "?".into(),
        }
    }

    #[inline]
    fn visit_item<V: Visitor<'de>>(
        &mut self,
        item: Item<'de>,
        at: usize,
        hint: Hint,
        visitor: V,
    ) -> Result<V::Value> {
        match item {
            Item::Leaf(v) => visit_leaf(v, hint, visitor).map_err(|e| e.at(at)),
            Item::Plain { dict, values } => {
                let len = if dict { values / 2 } else { values };
                self.visit_container(len, dict, false, visitor)
                    .map_err(|e| e.at(at))
            }
            Item::Nest {
                view,
                values,
                props,
            } => {
                let (len, map) = match view {
                    VariantRef::Array(_) => (values, false),
                    VariantRef::Dictionary(_) => (values / 2, true),
                    VariantRef::Object(ObjectRef::Full(_)) => (values, true),
                    other => return Err(unexpected(&other, &visitor).at(at)),
                };
                self.visit_container(len, map, props, visitor)
                    .map_err(|e| e.at(at))
            }
        }
    }

    /// A container's `len` items (`map`: entries) go to `visitor`; `props`: an object's,
    /// each preceded by its property name.
    fn visit_container<V: Visitor<'de>>(
        &mut self,
        len: u32,
        map: bool,
        props: bool,
        visitor: V,
    ) -> Result<V::Value> {
        self.depth += 1;
        let value = if map {
            let mut access = MapAcc {
                de: self,
                left: len,
                key_at: 0,
                props,
            };
            let value = visitor.visit_map(&mut access)?;
            if access.left > 0 {
                return Err(Error::invalid_length(len as usize, &"fewer entries"));
            }
            value
        } else {
            let mut access = SeqAcc {
                de: self,
                left: len,
                index: 0,
            };
            let value = visitor.visit_seq(&mut access)?;
            if access.left > 0 {
                return Err(Error::invalid_length(len as usize, &"fewer elements"));
            }
            value
        };
        self.depth -= 1;
        Ok(value)
    }

    /// A String / StringName as borrowed text, anything else through [`Self::visit_item`].
    #[inline]
    fn text<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        if let Some((text, at)) = self.quick_str() {
            return visitor
                .visit_borrowed_str::<Error>(text)
                .map_err(|e| e.at(at));
        }
        self.text_slow(visitor)
    }

    /// [`Self::text`] past its quick read, out of line so the quick read stays small enough
    /// to inline into the visitor.
    #[inline(never)]
    fn text_slow<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        if let Some((v, at)) = self.quick_head() {
            if let VariantRef::String(s) = v {
                if let Some(text) = s.as_str() {
                    return visitor
                        .visit_borrowed_str::<Error>(text)
                        .map_err(|e| e.at(at));
                }
            }
            return visit_leaf(v, Hint::Any, visitor).map_err(|e| e.at(at));
        }
        let (item, at) = self.head_slow()?;
        if let Item::Leaf(VariantRef::String(s) | VariantRef::StringName(s)) = item {
            if let Some(text) = s.as_str() {
                return visitor
                    .visit_borrowed_str::<Error>(text)
                    .map_err(|e| e.at(at));
            }
        }
        self.visit_item(item, at, Hint::Any, visitor)
    }

    /// [`Self::any_with`] for the calls that expect a container (structs, sequences, maps).
    #[inline]
    fn container_with<V: Visitor<'de>>(&mut self, hint: Hint, visitor: V) -> Result<V::Value> {
        if let Some((dict, values, at)) = self.quick_container() {
            let len = if dict { values / 2 } else { values };
            return self
                .visit_container(len, dict, false, visitor)
                .map_err(|e| e.at(at));
        }
        self.any_slow(hint, visitor)
    }

    /// An integer asked for: an Int straight to the visitor, anything else (and the range
    /// check of narrower types, in the visitor) as before.
    #[inline]
    fn int_with<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.quick(quick_int) {
            Some((i, at)) => visitor.visit_i64(i).map_err(|e: Error| e.at(at)),
            None => self.any_slow(Hint::Any, visitor),
        }
    }

    /// A float asked for (`hint` F32 or F64): a Float straight to the visitor; an Int (the
    /// int -> float policy) and anything else through the leaf dispatch.
    #[inline]
    fn float_with<V: Visitor<'de>>(&mut self, hint: Hint, visitor: V) -> Result<V::Value> {
        let visited = match self.quick(quick_float) {
            // An `f32` asked for and sent: as is, without the widening and the visitor's
            // narrowing back (the same value; NaNs keep the path below, which quiets them).
            Some((WireFloat::Single(x), at)) if hint == Hint::F32 && !x.is_nan() => {
                (visitor.visit_f32(x), at)
            }
            Some((f, at)) => (visitor.visit_f64(f.widened()), at),
            None => return self.any_slow(hint, visitor),
        };
        let (visited, at) = visited;
        visited.map_err(|e: Error| e.at(at))
    }

    /// [`Self::any_with`] out of line: the fallback of the typed quick reads, which stay
    /// small enough to inline into the visitor.
    #[inline(never)]
    fn any_slow<V: Visitor<'de>>(&mut self, hint: Hint, visitor: V) -> Result<V::Value> {
        self.any_with(hint, visitor)
    }

    #[inline]
    fn any_with<V: Visitor<'de>>(&mut self, hint: Hint, visitor: V) -> Result<V::Value> {
        if let Some((v, at)) = self.quick_head() {
            // The common scalars straight to the visitor; the rest through the leaf
            // dispatch (an Int asked for as a float goes there too, for the int -> float
            // policy).
            let visited = match v {
                VariantRef::Int(i) if !matches!(hint, Hint::F32 | Hint::F64) => {
                    visitor.visit_i64(i)
                }
                VariantRef::Float(f) => visitor.visit_f64(f),
                VariantRef::Bool(b) => visitor.visit_bool(b),
                _ => visit_leaf(v, hint, visitor),
            };
            return visited.map_err(|e: Error| e.at(at));
        }
        let (item, at) = self.head_slow()?;
        self.visit_item(item, at, hint, visitor)
    }
}

/// A key for an error's path: a message, not data, so text that is not UTF-8 may show
/// replacement characters there.
fn lossy(s: StrRef<'_>) -> String {
    String::from_utf8_lossy(s.bytes()).into_owned()
}

/// "invalid type: Godot X, expected …".
#[cold]
pub(crate) fn unexpected(v: &VariantRef<'_>, exp: &dyn de::Expected) -> Error {
    let name = alloc::format!("Godot {}", v.variant_type());
    Error::invalid_type(Unexpected::Other(&name), exp)
}

macro_rules! forward_to_any {
    ($($method:ident)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.any_with(Hint::Any, visitor)
        }
    )*};
}

macro_rules! forward_to_int {
    ($($method:ident)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.int_with(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    forward_to_any!(
        deserialize_any deserialize_char deserialize_string deserialize_i128 deserialize_u128
    );

    forward_to_int!(
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_u8
        deserialize_u16 deserialize_u32 deserialize_u64
    );

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.quick(quick_bool) {
            Some((b, at)) => visitor.visit_bool(b).map_err(|e: Error| e.at(at)),
            None => self.any_slow(Hint::Any, visitor),
        }
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.container_with(Hint::Any, visitor)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.text(visitor)
    }

    /// Struct fields and enum variants: the key's `&str` (proved UTF-8 by the walk) goes
    /// straight to the visitor, without the general leaf dispatch.
    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.text(visitor)
    }

    #[inline]
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.float_with(Hint::F32, visitor)
    }

    #[inline]
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.float_with(Hint::F64, visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.any_with(Hint::Any, visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.any_with(Hint::Any, visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.head()? {
            (Item::Leaf(VariantRef::Nil | VariantRef::Object(ObjectRef::Null)), _) => {
                visitor.visit_none()
            }
            head => {
                self.put_back(head);
                visitor.visit_some(self)
            }
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.any_with(Hint::Any, visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.any_with(Hint::Any, visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match marker(name) {
            Some(Marker::Variant) => self.variant_whole(visitor),
            Some(Marker::Precision(_)) => visitor.visit_newtype_struct(self),
            Some(Marker::Math(ty)) => match self.quick_math(ty) {
                // The common case: the wire components straight to the math visitor.
                Some((raw, at)) => visitor
                    .visit_newtype_struct(MathWire::new(raw))
                    .map_err(|e| e.at(at)),
                None => self.marked(Marker::Math(ty), visitor),
            },
            Some(m) => self.marked(m, visitor),
            None => visitor.visit_newtype_struct(self),
        }
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.container_with(Hint::Seq, visitor)
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.container_with(Hint::Seq, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.container_with(Hint::Seq, visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.container_with(Hint::Any, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        // Struct, tuple and newtype variants (a one-entry Dictionary) are the common case.
        let (item, at) = match self.quick_container() {
            Some((dict, values, at)) => (Item::Plain { dict, values }, at),
            None => self.head()?,
        };
        match item {
            Item::Leaf(v) => LeafDe::new(v)
                .deserialize_enum("", &[], visitor)
                .map_err(|e| e.at(at)),
            Item::Plain {
                dict: true,
                values: 2,
            }
            | Item::Nest {
                view: VariantRef::Dictionary(_),
                values: 2,
                ..
            } => {
                // The visitor's result is returned as it comes, written in place (a
                // result moved on through memory is read back wider than it was written,
                // a stall): the access restores the depth when dropped and locates errors.
                self.depth += 1;
                let key_at = self.base + self.pos;
                visitor.visit_enum(EnumAcc {
                    de: self,
                    key_at,
                    at,
                })
            }
            Item::Plain { dict, values } => {
                let view = self.plain_view(at, dict, values);
                Err(unexpected(&view, &ENUM_SHAPE).at(at))
            }
            Item::Nest { view, .. } => Err(unexpected(&view, &ENUM_SHAPE).at(at)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_value()?;
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

const ENUM_SHAPE: &str = "a String (unit variant) or a Dictionary with one entry";

struct SeqAcc<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    left: u32,
    index: usize,
}

impl<'de> SeqAccess<'de> for SeqAcc<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let index = self.index;
        self.index += 1;
        match seed.deserialize(&mut *self.de) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(e.in_index(index)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

struct MapAcc<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    left: u32,
    key_at: usize,
    props: bool,
}

impl<'de> MapAccess<'de> for MapAcc<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.key_at = self.de.base + self.de.pos;
        if self.props {
            let name = self.de.property_name()?;
            return seed
                .deserialize(LeafDe::new(VariantRef::String(name)))
                .map(Some);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        match seed.deserialize(&mut *self.de) {
            Ok(v) => Ok(v),
            Err(e) => Err(e.in_key(self.de.key_text(self.key_at, self.props))),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

/// `{"Variant": content}`: the single entry of a dictionary, read one level deeper than
/// the dictionary until the access is dropped.
struct EnumAcc<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    key_at: usize,
    /// Offset of the dictionary, for errors that have none yet.
    at: usize,
}

impl Drop for EnumAcc<'_, '_> {
    #[inline]
    fn drop(&mut self) {
        self.de.depth -= 1;
    }
}

impl<'de, 'a> EnumAccess<'de> for EnumAcc<'a, 'de> {
    type Error = Error;
    type Variant = Self;

    #[inline]
    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self)> {
        match seed.deserialize(&mut *self.de) {
            Ok(v) => Ok((v, self)),
            Err(e) => Err(e.at(self.at)),
        }
    }
}

impl<'de> EnumAcc<'_, 'de> {
    #[cold]
    fn in_variant(&self, e: Error) -> Error {
        e.in_key(self.de.key_text(self.key_at, false)).at(self.at)
    }
}

impl<'de> VariantAccess<'de> for EnumAcc<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        match de::Deserialize::deserialize(&mut *self.de) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.in_variant(e)),
        }
    }

    #[inline]
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        match seed.deserialize(&mut *self.de) {
            Ok(v) => Ok(v),
            Err(e) => Err(self.in_variant(e)),
        }
    }

    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        match de::Deserializer::deserialize_tuple(&mut *self.de, len, visitor) {
            Ok(v) => Ok(v),
            Err(e) => Err(self.in_variant(e)),
        }
    }

    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match de::Deserializer::deserialize_struct(&mut *self.de, "", fields, visitor) {
            Ok(v) => Ok(v),
            Err(e) => Err(self.in_variant(e)),
        }
    }
}

/// Iterator over the values of a [`Deserializer`]'s input as `T`; see
/// [`Deserializer::into_values`]. Ends after the first error.
///
/// ```
/// use gdwire::serde::{Deserializer, StreamIter};
/// use gdwire::Dialect;
///
/// // var_to_bytes(1) and var_to_bytes("a") from Godot 4.6, back to back.
/// let bytes = [2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0];
/// let de = Deserializer::from_bytes(Dialect::GODOT_4, &bytes);
/// let mut values: StreamIter<'_, i32> = de.into_values();
/// assert_eq!(values.next().transpose()?, Some(1));
/// assert!(values.next().unwrap().is_err()); // "a" is not an i32
/// assert!(values.next().is_none());
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
pub struct StreamIter<'de, T> {
    de: Deserializer<'de>,
    _t: PhantomData<fn() -> T>,
}

impl<'de, T> StreamIter<'de, T> {
    /// Offset (in the input) where the next value, or frame, starts.
    ///
    /// ```
    /// use gdwire::serde::Deserializer;
    /// use gdwire::Dialect;
    ///
    /// // var_to_bytes(1) and var_to_bytes(-1) from Godot 4.6, back to back.
    /// let bytes = [2,0,0,0, 1,0,0,0, 2,0,0,0, 0xff,0xff,0xff,0xff];
    /// let mut ints = Deserializer::from_bytes(Dialect::GODOT_4, &bytes).into_values::<i64>();
    /// ints.next();
    /// assert_eq!(ints.position(), 8);
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn position(&self) -> usize {
        self.de.position()
    }
}

impl<'de, T: de::Deserialize<'de>> Iterator for StreamIter<'de, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        self.de.next_value()
    }
}

/// Deserializes the value at the start of `bytes` (trailing bytes are ignored, as by the
/// engine's `bytes_to_var`; use [`Deserializer::end`] to refuse them). See the
/// [module docs](crate::serde) for the type mapping.
///
/// ```
/// use serde::Deserialize;
/// use gdwire::Dialect;
///
/// #[derive(Deserialize)]
/// struct Hp<'a> { name: &'a str, hp: f32 }
///
/// // var_to_bytes({"name": "Alice", "hp": 100}) in Godot 4: `hp` is an int.
/// let bytes = [
///     0x1b,0,0,0, 2,0,0,0,
///     4,0,0,0, 4,0,0,0, b'n',b'a',b'm',b'e', 4,0,0,0, 5,0,0,0, b'A',b'l',b'i',b'c',b'e',0,0,0,
///     4,0,0,0, 2,0,0,0, b'h',b'p',0,0, 2,0,0,0, 100,0,0,0,
/// ];
/// let hp: Hp = gdwire::serde::from_bytes(Dialect::GODOT_4, &bytes)?;
/// assert_eq!((hp.name, hp.hp), ("Alice", 100.0)); // `name` borrows from `bytes`
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
pub fn from_bytes<'de, T: de::Deserialize<'de>>(dialect: Dialect, bytes: &'de [u8]) -> Result<T> {
    from_bytes_with(Decoder::new(dialect), bytes)
}

/// Like [`from_bytes`] with the given [`Decoder`] options (objects, nesting limit, which is
/// capped at [`MAX_NESTING`]).
///
/// ```
/// use gdwire::serde::ErrorCode;
/// use gdwire::{Decoder, Dialect, ErrorKind};
///
/// // var_to_bytes([[[1]]]) from Godot 4.6: three arrays deep.
/// let bytes = [0x1c,0,0,0, 1,0,0,0, 0x1c,0,0,0, 1,0,0,0, 0x1c,0,0,0, 1,0,0,0, 2,0,0,0, 1,0,0,0];
/// let decoder = Decoder::new(Dialect::GODOT_4);
/// let deep: Vec<Vec<Vec<i32>>> = gdwire::serde::from_bytes_with(decoder, &bytes)?;
/// assert_eq!(deep, [[[1]]]);
/// // A server that accepts one level of nesting refuses it, where the third array starts.
/// let shallow = Decoder::new(Dialect::GODOT_4).with_max_depth(1);
/// let err = gdwire::serde::from_bytes_with::<Vec<Vec<Vec<i32>>>>(shallow, &bytes);
/// let err = err.unwrap_err();
/// assert!(matches!(err.code(), ErrorCode::Wire(ErrorKind::TooDeep { .. })));
/// assert_eq!(err.offset(), Some(16));
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
pub fn from_bytes_with<'de, T: de::Deserialize<'de>>(
    decoder: Decoder,
    bytes: &'de [u8],
) -> Result<T> {
    let mut de = Deserializer::new(decoder, bytes);
    // The one value starts at 0: set up here what `load` would (one call less per message).
    de.loaded = true;
    de.reopen();
    T::deserialize(&mut de)
}

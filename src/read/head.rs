//! Reading one value: its header and payload, with containers left lazy.
//!
//! This is the single place that knows each type's layout on the read side: [`Widths`] holds
//! every size that follows from a header (the writer's canonical check asks it too), and the
//! skip's extent ([`quick_next`]) and the general reader ([`read_head`], behind the cursor and
//! the views) take their sizes from it.

use crate::dialect::{payload_widths, Dialect, TextRules, SHAPE_OTHER, SHAPE_TEXT};
use crate::error::{Error, ErrorKind, Expected, Result};
use crate::float_width::widen;
use crate::header::{ContainerKind, Header, FLAG_64, FLAG_OBJECT_AS_ID};
use crate::math::{Color, Precision, Rect2i, Vector2i, Vector3i, Vector4i, WireReals};
use crate::read::array::ArrayRef;
use crate::read::canonical::{self, is_canonical};
use crate::read::container_type::{read_type_block, ContainerType};
use crate::read::decoder::Decoder;
use crate::read::dict::DictRef;
use crate::read::input::{need_u32, pad4, take, u32_at, u64_at};
use crate::read::items::Items;
use crate::read::math_ref::MathRef;
use crate::read::node_path::NodePathRef;
use crate::read::object::{FullObjectRef, ObjectRef, SignalRef};
use crate::read::packed::{PackedReals, PackedRef, PackedStrings};
use crate::read::str_ref::{string_block, string_block_trusted, StrRun};
#[cfg(feature = "serde")]
use crate::read::str_ref::{string_block_checked, StrRef};
use crate::read::value::VariantRef;
use crate::variant_type::VariantType;

/// Where the value ends, or what a container still holds after its head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    /// A complete value ending at this position.
    Leaf(usize),
    /// A container whose items start at `body`: `values` full values follow, or, for objects
    /// (`props`), `values` pairs of (name string block, full value).
    Nest {
        body: usize,
        values: u32,
        props: bool,
    },
}

const COUNT_MASK: u32 = 0x7FFF_FFFF;

/// The byte widths a value's header selects (the rule is `payload_widths` in `dialect.rs`),
/// and with them the sizes `VariantType` states: the payload of each fixed-size type and the
/// element of each fixed-size packed array. The general reader ([`read_head`]), the skip's
/// extent ([`quick_next`], through the dialect's table of sizes built from the same two
/// calls) and the writer's canonical check take their sizes from here ([`quick_leaf`] asks
/// `payload_widths` for the one width it needs), and a unit test holds it to [`read_head`].
#[derive(Clone, Copy)]
pub(crate) struct Widths {
    /// Int and Float: 8 with header bit 16, else 4.
    wide: usize,
    /// One real component of a math type: 8 only where the dialect lets bit 16 widen them.
    real: usize,
    /// A RID's payload: its 8-byte id, or nothing where the dialect sends none.
    rid: usize,
}

impl Widths {
    #[inline(always)]
    pub(crate) fn of(dialect: Dialect, header: Header) -> Widths {
        let (wide, real, rid) = payload_widths(
            header.flag_64(),
            dialect.math_follows_flag_64(),
            dialect.rid_has_payload(),
        );
        Widths { wide, real, rid }
    }

    /// The precision of the math types' components.
    #[inline(always)]
    fn precision(self) -> Precision {
        if self.real == 8 {
            Precision::Double
        } else {
            Precision::Single
        }
    }

    /// Payload bytes of a type whose payload size follows from the header alone (scalars,
    /// math types, integer vectors, Color, RID); `None` for the others.
    #[inline(always)]
    pub(crate) fn fixed(self, ty: VariantType) -> Option<usize> {
        ty.fixed_payload(self.wide, self.real, self.rid)
    }

    /// Element bytes of a packed array whose elements have a fixed size (every packed type
    /// but bytes and strings); `None` for the others.
    #[inline(always)]
    pub(crate) fn element(self, ty: VariantType) -> Option<usize> {
        ty.packed_element(self.real)
    }
}

#[inline]
fn truncated(what: Expected, pos: usize) -> Error {
    Error::new(ErrorKind::Truncated(what), pos)
}

#[inline]
fn fixed(data: &[u8], pos: usize, len: usize, ty: VariantType) -> Result<&[u8]> {
    take(data, pos, len).ok_or(truncated(Expected::Payload(ty), pos))
}

/// Reads a packed array of fixed-size elements; returns its element bytes and end.
#[inline]
fn packed_fixed(data: &[u8], pos: usize, size: usize, ty: VariantType) -> Result<(&[u8], usize)> {
    let count = need_u32(data, pos, Expected::Count)? as i32;
    if count < 0 {
        return Err(Error::new(ErrorKind::NegativeCount { count }, pos));
    }
    let total = count as u64 * size as u64;
    if total > i32::MAX as u64 {
        let kind = ErrorKind::SizeOverflow {
            count: count as u32,
            size: size as u32,
        };
        return Err(Error::new(kind, pos));
    }
    let start = pos + 4;
    let bytes = take(data, start, total as usize).ok_or(truncated(Expected::Elements(ty), pos))?;
    Ok((bytes, start + bytes.len()))
}

/// Where the value at `pos` ends (or what its container holds), for every type whose extent
/// follows from the header and at most one count or length word: the skip loop's fast path,
/// which builds no view. `None` for the other types (typed containers, objects, node paths,
/// signals, PackedStringArray) and whenever [`read_head`] would fail: the caller then asks
/// [`read_head`], which gives the answer or the exact error. When this answers, it agrees
/// with [`read_head`].
///
/// With `COPY` (the skip of a decode that notes canonical bytes), it also tells whether the
/// value's own bytes are canonical (what [`is_canonical`] says) when `note` says all before
/// it were; always `false` otherwise. Fixed-size values and strings, the common items, are
/// judged on the header and payload read here, without a second look: the dialect's table
/// of canonical shapes gives each fixed-size type's size and rule in one code, and each
/// common (size, rule) pair is an arm of the one jump on it, so the rule is known in its arm
/// (a second jump, on the rule, was 10–15 % of a relay's instructions on packets).
///
/// Without `COPY` and with `PREDICT_SIZES`, the common payload sizes are arms of the one
/// jump on the item's kind (below): the loop over a container's leaves (a packet, a flat
/// dictionary) asks for it; the general traversal's loop, which keeps the pending levels
/// too, measured no faster with it (docs/dev/performance-history.md, "Fifteenth round" and
/// "Sixteenth round").
#[inline(always)]
pub(crate) fn quick_next<const PREDICT_SIZES: bool, const COPY: bool>(
    dec: &Decoder,
    data: &[u8],
    pos: usize,
    validate: bool,
    note: bool,
) -> Option<(Next, bool)> {
    let dialect = dec.dialect();
    let header = Header(u32_at(data, pos)?);
    let p = pos + 4;
    let note = COPY && note;
    if COPY {
        'fixed: {
            // A header with bit 16 has the code `SHAPE_OTHER`; other bits above the type id
            // are not canonical. (`&`, not `&&`: the verdict so far is not branched on.)
            let plain = note & (header.0 <= 0xFF);
            // One arm per common code: the payload's size and rule are constants there.
            macro_rules! leaf {
                ($code:literal) => {{
                    const SIZE: usize = $code & !3;
                    let payload = data.get(p..p + SIZE)?;
                    (p + SIZE, canonical::fixed($code as u8, payload))
                }};
            }
            let (end, ok) = match dialect.canonical_shape_code(header.0) {
                SHAPE_TEXT => return text_next(dialect, header, data, p, validate, note),
                SHAPE_OTHER => break 'fixed,
                0 => (p, true),
                // Size plus rule: 4 Int, 5 Float, 6 Bool, 8 Vector2i and RID, 11 Vector2,
                // 12 Vector3i, 15 Vector3, 16 Color, Rect2i and Vector4i, 19 Rect2, Vector4,
                // Quaternion and Plane (single precision).
                4 => leaf!(4),
                5 => leaf!(5),
                6 => leaf!(6),
                8 => leaf!(8),
                11 => leaf!(11),
                12 => leaf!(12),
                15 => leaf!(15),
                16 => leaf!(16),
                19 => leaf!(19),
                // Larger math types: their rule out of line.
                code => {
                    let end = p + (code & !3) as usize;
                    (end, canonical::fixed_out_of_line(code, data.get(p..end)?))
                }
            };
            return Some((Next::Leaf(end), plain & ok));
        }
    } else {
        // The skip's loop is a chain: each item's header is read where the item before
        // ends. As `p + size`, that end waits for the load of the dialect's table entry; as
        // an arm of a predicted jump, it is known at once and the next header's load starts,
        // the table load only confirming the arm (game-state dictionaries and packets of one
        // kind repeat one sequence of types). Strings, other values and sizes are one jump,
        // not a branch for strings and then one on the size: where items come in no
        // predictable order, that is one mispredicted jump per item at most.
        // Two plain matches rather than one with a guard: rustc splits a guarded match into
        // two switches, and the general loop's then ran more instructions.
        let end = if PREDICT_SIZES {
            match dialect.shape_code(header.0) {
                SHAPE_TEXT => return text_next(dialect, header, data, p, validate, note),
                SHAPE_OTHER => None,
                0 => Some(p),
                4 => Some(p + 4),
                8 => Some(p + 8),
                12 => Some(p + 12),
                16 => Some(p + 16),
                size => Some(p + size as usize),
            }
        } else {
            match dialect.shape_code(header.0) {
                SHAPE_TEXT => return text_next(dialect, header, data, p, validate, note),
                SHAPE_OTHER => None,
                size => Some(p + size as usize),
            }
        };
        if let Some(end) = end {
            data.get(p..end)?;
            return Some((Next::Leaf(end), false));
        }
    }
    let next = quick_other(dialect, header, data, p, validate)?;
    let canonical = note
        && match next {
            Next::Leaf(end) => is_canonical(dialect, data, pos, end),
            // `quick_other` answers only untyped Arrays and Dictionaries: canonical with no
            // bits above the type id and none in the count's bit 31 (`is_canonical`'s verdict,
            // without its jump on the rule).
            Next::Nest { .. } => {
                header.0 <= 0xFF && u32_at(data, p).is_some_and(|n| n <= COUNT_MASK)
            }
        };
    Some((next, canonical))
}

/// [`quick_next`] of a string block whose length word is at `p`.
#[inline(always)]
fn text_next(
    dialect: Dialect,
    header: Header,
    data: &[u8],
    p: usize,
    validate: bool,
    note: bool,
) -> Option<(Next, bool)> {
    let (end, padded, len) = text_end(data, p, dialect, validate)?;
    let canonical = note && canonical::text(header.0, padded, len);
    Some((Next::Leaf(end), canonical))
}

/// [`quick_next`] of what the dialect's table of shapes leaves out: containers, packed
/// arrays, and headers with bit 16 set.
#[inline(always)]
fn quick_other(
    dialect: Dialect,
    header: Header,
    data: &[u8],
    p: usize,
    validate: bool,
) -> Option<Next> {
    let leaf = |size: usize| (p + size <= data.len()).then_some(Next::Leaf(p + size));
    let ty = dialect.type_of_listed(header.type_id())?;
    use VariantType as T;
    match ty {
        T::String | T::StringName => Some(Next::Leaf(text_end(data, p, dialect, validate)?.0)),
        T::Array if !dialect.has_typed_arrays() || header.array_kind() == ContainerKind::None => {
            let values = u32_at(data, p)? & COUNT_MASK;
            Some(Next::Nest {
                body: p + 4,
                values,
                props: false,
            })
        }
        T::Dictionary
            if !dialect.has_typed_dictionaries()
                || (header.dict_key_kind() == ContainerKind::None
                    && header.dict_value_kind() == ContainerKind::None) =>
        {
            let values = (u32_at(data, p)? & COUNT_MASK) * 2;
            Some(Next::Nest {
                body: p + 4,
                values,
                props: false,
            })
        }
        T::PackedByteArray => {
            let count = usize::try_from(u32_at(data, p)? as i32).ok()?;
            take(data, p + 4, count)?;
            // Unchecked padding, capped at the input's end, as in `read_head`.
            Some(Next::Leaf((p + 4 + count + pad4(count)).min(data.len())))
        }
        _ => {
            let widths = Widths::of(dialect, header);
            if ty.is_packed() {
                quick_packed(data, p, widths.element(ty)?)
            } else {
                leaf(widths.fixed(ty)?)
            }
        }
    }
}

/// Where the string block at `p` ends, its text with the padding and the text's length, for
/// [`quick_next`]; with `validate`, `None` when its text is not what the dialect accepts.
#[inline(always)]
fn text_end(
    data: &[u8],
    p: usize,
    dialect: Dialect,
    validate: bool,
) -> Option<(usize, &[u8], usize)> {
    let len = usize::try_from(u32_at(data, p)? as i32).ok()?;
    let padded = take(data, p + 4, len + pad4(len))?;
    // Short ASCII (most keys and names) passes in two word tests, without the call.
    let text = &padded[..len];
    if validate
        && !crate::read::utf8::short_ascii_padded(text, padded)
        && !crate::read::str_ref::is_valid(text, dialect.text_rules())
    {
        return None;
    }
    Some((p + 4 + padded.len(), padded, len))
}

/// The most common leaves (Nil, Bool, Int, Float, String, Vector2, Vector3, Transform3D)
/// read with a few stores instead of [`read_head`], which returns the view through memory;
/// with `validate`, string text is checked the way [`read_head`] checks it. `None` for
/// anything else or anything short: [`read_head`] then answers (or fails) exactly as before.
#[inline(always)]
pub(crate) fn quick_leaf<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    validate: bool,
) -> Option<(VariantRef<'a>, usize)> {
    let header = u32_at(data, pos)?;
    let wide = header & FLAG_64 != 0;
    let p = pos + 4;
    let dialect = dec.dialect();
    // Only the real width, from the flag already in hand (the walk's hottest path: all of
    // `Widths::of` here cost ~3 % of the `Walker`'s instructions).
    let (_, real, _) = payload_widths(wide, dialect.math_follows_flag_64(), false);
    macro_rules! math {
        ($variant:ident) => {{
            let len = <crate::math::$variant as WireReals>::COUNT * real;
            (
                VariantRef::$variant(MathRef::new(take(data, p, len)?)),
                p + len,
            )
        }};
    }
    Some(match dialect.type_of(header as u8)? {
        VariantType::Nil => (VariantRef::Nil, p),
        VariantType::Bool => bool_payload(data, p).map(|(b, end)| (VariantRef::Bool(b), end))?,
        VariantType::Vector2 => math!(Vector2),
        VariantType::Vector3 => math!(Vector3),
        VariantType::Transform3D => math!(Transform3D),
        VariantType::Int => {
            int_payload(header, data, p).map(|(i, end)| (VariantRef::Int(i), end))?
        }
        VariantType::Float => {
            float_payload(header, data, p).map(|(f, end)| (VariantRef::Float(f.widened()), end))?
        }
        VariantType::String => {
            let rules = dec.dialect().text_rules();
            let (s, end) = string_block_trusted(data, p, rules, !validate && dec.text_validated())?;
            let s = if validate { s.checked()? } else { s };
            (VariantRef::String(s), end)
        }
        _ => return None,
    })
}

/// A Bool's payload at `p` and where it ends (any non-zero word is true, as in the engine).
#[inline(always)]
fn bool_payload(data: &[u8], p: usize) -> Option<(bool, usize)> {
    Some((u32_at(data, p)? != 0, p + 4))
}

/// An Int's payload at `p` (64-bit when `header` has bit 16, else 32-bit) and where it ends.
#[inline(always)]
fn int_payload(header: u32, data: &[u8], p: usize) -> Option<(i64, usize)> {
    if header & FLAG_64 != 0 {
        Some((u64_at(data, p)? as i64, p + 8))
    } else {
        Some((u32_at(data, p)? as i32 as i64, p + 4))
    }
}

/// A Float's payload as sent: 32-bit (the engine's default) or 64-bit.
#[derive(Clone, Copy)]
pub(crate) enum WireFloat {
    Single(f32),
    Double(f64),
}

impl WireFloat {
    /// The value as [`quick_leaf`] gives it (a 32-bit float widened exactly).
    #[inline(always)]
    pub(crate) fn widened(self) -> f64 {
        match self {
            WireFloat::Single(x) => widen(x),
            WireFloat::Double(x) => x,
        }
    }
}

/// A Float's payload at `p` (64-bit when `header` has bit 16, else 32-bit) and where it
/// ends.
#[inline(always)]
fn float_payload(header: u32, data: &[u8], p: usize) -> Option<(WireFloat, usize)> {
    if header & FLAG_64 != 0 {
        Some((WireFloat::Double(f64::from_bits(u64_at(data, p)?)), p + 8))
    } else {
        Some((WireFloat::Single(f32::from_bits(u32_at(data, p)?)), p + 4))
    }
}

/// The header at `pos` and where its payload starts, when the value there is of type `ty`.
#[cfg(feature = "serde")]
#[inline(always)]
fn quick_typed(dec: &Decoder, data: &[u8], pos: usize, ty: VariantType) -> Option<(u32, usize)> {
    let header = u32_at(data, pos)?;
    (dec.dialect().type_of(header as u8)? == ty).then_some((header, pos + 4))
}

/// The Int at `pos` and where it ends, as [`quick_leaf`] reads it; `None` for anything
/// else or anything short. For the calls that ask for an integer: one type compare instead
/// of the leaf dispatch.
#[cfg(feature = "serde")]
#[inline(always)]
pub(crate) fn quick_int(dec: &Decoder, data: &[u8], pos: usize) -> Option<(i64, usize)> {
    let (header, p) = quick_typed(dec, data, pos, VariantType::Int)?;
    int_payload(header, data, p)
}

/// The Float at `pos` and where it ends, as sent; `None` for anything else or anything
/// short.
#[cfg(feature = "serde")]
#[inline(always)]
pub(crate) fn quick_float(dec: &Decoder, data: &[u8], pos: usize) -> Option<(WireFloat, usize)> {
    let (header, p) = quick_typed(dec, data, pos, VariantType::Float)?;
    float_payload(header, data, p)
}

/// The Bool at `pos` and where it ends, as [`quick_leaf`] reads it; `None` otherwise.
#[cfg(feature = "serde")]
#[inline(always)]
pub(crate) fn quick_bool(dec: &Decoder, data: &[u8], pos: usize) -> Option<(bool, usize)> {
    let (_, p) = quick_typed(dec, data, pos, VariantType::Bool)?;
    bool_payload(data, p)
}

/// The String at `pos` (text checked as [`quick_leaf`] checks it) and where it ends: a
/// struct field name or `&str` read with one type compare instead of the leaf dispatch.
/// `None` for any other value or anything short or refused; [`read_head`] then answers.
#[cfg(feature = "serde")]
#[inline(always)]
pub(crate) fn quick_string<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
) -> Option<(StrRef<'a>, usize)> {
    let header = u32_at(data, pos)?;
    let dialect = dec.dialect();
    if dialect.type_of(header as u8)? != VariantType::String {
        return None;
    }
    string_block_checked(data, pos + 4, dialect.text_rules())
}

/// The wire components of the real-valued math type `ty` at `pos` and where it ends, when the
/// value there is of that type: a marked math field read without building a view. `None` for
/// any other value, an integer math type, or anything short; [`read_head`] then answers, and
/// agrees when this does.
#[cfg(feature = "serde")]
#[inline(always)]
pub(crate) fn quick_math<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    ty: VariantType,
) -> Option<(&'a [u8], usize)> {
    // `ty` is a constant at every call site: its component count folds to a number.
    let count = ty.real_components()?;
    let header = u32_at(data, pos)?;
    let dialect = dec.dialect();
    if dialect.type_of(header as u8)? != ty {
        return None;
    }
    // Only the real width, from the flag in hand (as in `quick_leaf`).
    let flag_64 = header & FLAG_64 != 0;
    let (_, real, _) = payload_widths(flag_64, dialect.math_follows_flag_64(), false);
    let raw = take(data, pos + 4, count * real)?;
    Some((raw, pos + 4 + raw.len()))
}

/// The view and extent of an untyped Array or Dictionary at `pos` (nesting `depth`), built
/// straight from the header and count: the fast path for container starts. `None` for
/// anything else or anything short; [`read_head`] then answers, and agrees when this does.
#[inline(always)]
pub(crate) fn quick_container<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    depth: u32,
) -> Option<(VariantRef<'a>, Next)> {
    let (dict, values) = untyped_container(dec, data, pos)?;
    let nest = Next::Nest {
        body: pos + 8,
        values,
        props: false,
    };
    Some((
        untyped_view(dec, data, pos, depth, dict, values, false),
        nest,
    ))
}

/// Whether the value at `pos` is an untyped Array (`false`) or Dictionary (`true`), and how
/// many values follow its 8-byte head (a dictionary's keys and values). `None` for anything
/// else or anything short.
#[inline(always)]
pub(crate) fn untyped_container(dec: &Decoder, data: &[u8], pos: usize) -> Option<(bool, u32)> {
    let dialect = dec.dialect();
    let header = Header(u32_at(data, pos)?);
    match dialect.type_of(header.type_id())? {
        VariantType::Array if is_untyped_array(dialect, header) => {
            Some((false, u32_at(data, pos + 4)? & COUNT_MASK))
        }
        VariantType::Dictionary if is_untyped_dictionary(dialect, header) => {
            Some((true, (u32_at(data, pos + 4)? & COUNT_MASK) * 2))
        }
        _ => None,
    }
}

/// Whether the Array with `header` has no element type block: its count follows the header.
#[inline(always)]
fn is_untyped_array(dialect: Dialect, header: Header) -> bool {
    !dialect.has_typed_arrays() || header.array_kind() == ContainerKind::None
}

/// Whether the Dictionary with `header` has no key or value type block: its count follows the
/// header.
#[inline(always)]
fn is_untyped_dictionary(dialect: Dialect, header: Header) -> bool {
    !dialect.has_typed_dictionaries()
        || (header.dict_key_kind() == ContainerKind::None
            && header.dict_value_kind() == ContainerKind::None)
}

/// The view of the untyped container [`untyped_container`] found at `pos` (nesting `depth`).
/// `checked`: its items were validated with it (see `Items::checked`).
#[inline(always)]
pub(crate) fn untyped_view<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    depth: u32,
    dict: bool,
    values: u32,
    checked: bool,
) -> VariantRef<'a> {
    let items = Items::new(
        data,
        *dec,
        pos,
        pos + 8,
        values,
        depth.saturating_add(1),
        checked,
    );
    if dict {
        VariantRef::Dictionary(DictRef::new(items))
    } else {
        VariantRef::Array(ArrayRef::new(items))
    }
}

/// The view of the top-level value at `pos` of `data`, which [`skip_value`] has just
/// validated whole (it ends at `end`): untyped containers and common leaves straight from
/// their header, anything else through [`read_value`]. A value read this way is read a second
/// time after its validation, so the general reader's type-block and payload checks would be
/// pure cost on the commonest values. A leaf is read with `dec.for_items(true)`
/// ([`Decoder::for_items`]): in the strict-UTF-8 dialects its text keeps the validation's
/// verdict, so `as_str` does not check it again (a container's items get it from its run).
///
/// [`skip_value`]: crate::read::skip::skip_value
#[inline(always)]
pub(crate) fn validated_view<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    end: usize,
) -> Result<VariantRef<'a>> {
    if let Some((dict, values)) = untyped_container(dec, data, pos) {
        return Ok(untyped_view(dec, data, pos, 0, dict, values, true));
    }
    let dec = &dec.for_items(true);
    if let Some((value, _)) = quick_leaf(dec, data, pos, false) {
        return Ok(value);
    }
    let mut next = Next::Leaf(end);
    read_value(dec, data, pos, 0, false, &mut next)
}

/// [`packed_fixed`]'s extent, `None` where it fails.
#[inline(always)]
fn quick_packed(data: &[u8], p: usize, size: usize) -> Option<Next> {
    let count = u32_at(data, p)? as i32;
    let total = u64::try_from(count).ok()? * size as u64;
    if total > i32::MAX as u64 {
        return None;
    }
    let end = p + 4 + total as usize;
    (end <= data.len()).then_some(Next::Leaf(end))
}

/// Reads the value at `pos` (nesting depth `depth`). Containers are returned as lazy views
/// together with where their items start. With `validate`, string text is checked the way
/// the engine checks it; without, the input is trusted to have been validated before.
pub(crate) fn read_head<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    depth: u32,
    validate: bool,
) -> Result<(VariantRef<'a>, Next)> {
    let mut next = Next::Leaf(pos);
    read_value(dec, data, pos, depth, validate, &mut next).map(|value| (value, next))
}

/// [`read_head`] with the extent written to `next` (left alone on error), so the view, the
/// largest part of the answer, is built once in the caller's return slot instead of being
/// moved out of a tuple: the iterators' hot path.
#[inline]
pub(crate) fn read_value<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    depth: u32,
    validate: bool,
    next: &mut Next,
) -> Result<VariantRef<'a>> {
    let (value, n) = read_value_inner(dec, data, pos, depth, validate)?;
    *next = n;
    Ok(value)
}

#[inline(always)]
fn read_value_inner<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    depth: u32,
    validate: bool,
) -> Result<(VariantRef<'a>, Next)> {
    let dialect = dec.dialect();
    let header = Header(u32_at(data, pos).ok_or(truncated(Expected::Header, pos))?);
    let id = header.type_id();
    let ty = dialect.type_of(id).ok_or(Error::new(
        ErrorKind::UnknownType {
            id,
            max: dialect.variant_max(),
        },
        pos,
    ))?;
    let p = pos + 4;
    let rules = dialect.text_rules();
    // Text read without checking it here, from a validated container (see `note_validated`).
    let validated = !validate && dec.text_validated();
    let widths = Widths::of(dialect, header);
    if let Some(len) = widths.fixed(ty) {
        let raw = fixed(data, p, len, ty)?;
        return Ok((fixed_view(ty, raw), Next::Leaf(p + len)));
    }
    if let Some(size) = widths.element(ty) {
        let (bytes, end) = packed_fixed(data, p, size, ty)?;
        return Ok((packed_view(ty, bytes, widths.precision()), Next::Leaf(end)));
    }
    let elements_depth = depth.saturating_add(1);
    // Without `validate` the input was validated as a whole (the caller says whether a view
    // made from it is otherwise, see `Seq`); with it, only this head is checked here.
    let items = |body: usize, count: u32| {
        Items::new(data, *dec, pos, body, count, elements_depth, !validate)
    };

    use VariantType as T;
    Ok(match ty {
        T::String => {
            let (mut s, end) = string_block(data, p, rules, validate)?;
            s.note_validated(validated);
            (VariantRef::String(s), Next::Leaf(end))
        }
        T::StringName => {
            let (mut s, end) = string_block(data, p, rules, validate)?;
            s.note_validated(validated);
            (VariantRef::StringName(s), Next::Leaf(end))
        }
        T::NodePath => {
            let keep = dialect.keeps_empty_absolute_node_path();
            let (mut np, end) = NodePathRef::read(data, p, rules, validate, keep)?;
            np.note_validated(validated);
            (VariantRef::NodePath(np), Next::Leaf(end))
        }
        T::Object => {
            if header.0 & FLAG_OBJECT_AS_ID != 0 {
                let id = u64_at(data, p).ok_or(truncated(Expected::Payload(ty), p))?;
                (VariantRef::Object(ObjectRef::Id(id)), Next::Leaf(p + 8))
            } else {
                if !dec.allows_objects() {
                    return Err(Error::new(ErrorKind::ObjectsNotAllowed, pos));
                }
                let (class, q) = string_block(data, p, rules, validate)?;
                if class.bytes().is_empty() {
                    // Empty class name (as text: a block holding only NULs or a BOM counts):
                    // a null object, no property count follows.
                    (VariantRef::Object(ObjectRef::Null), Next::Leaf(q))
                } else {
                    let count = need_u32(data, q, Expected::PropertyCount)? as i32;
                    let count = count.max(0) as u32; // negative: no properties, as in the engine
                    let body = q + 4;
                    let obj = FullObjectRef::new(items(body, count));
                    let next = Next::Nest {
                        body,
                        values: count,
                        props: true,
                    };
                    (VariantRef::Object(ObjectRef::Full(obj)), next)
                }
            }
        }
        T::Signal => {
            let (name, q) = string_block(data, p, rules, validate)?;
            let id = u64_at(data, q).ok_or(truncated(Expected::Payload(ty), q))?;
            (
                VariantRef::Signal(SignalRef::new(name, id)),
                Next::Leaf(q + 8),
            )
        }
        T::Dictionary => {
            let head = dict_head(dec, data, pos, header, validate)?;
            let count = head.count * 2;
            let dict = DictRef::new(items(head.body, count));
            let next = Next::Nest {
                body: head.body,
                values: count,
                props: false,
            };
            (VariantRef::Dictionary(dict), next)
        }
        T::Array | T::TypedArray | T::PackedTypedArray => {
            let head = array_head(dec, data, pos, header, validate)?;
            let array = ArrayRef::new(items(head.body, head.count));
            let next = Next::Nest {
                body: head.body,
                values: head.count,
                props: false,
            };
            (VariantRef::Array(array), next)
        }
        T::PackedByteArray => {
            let count = need_u32(data, p, Expected::Count)? as i32;
            if count < 0 {
                return Err(Error::new(ErrorKind::NegativeCount { count }, p));
            }
            let count = count as usize;
            let bytes = take(data, p + 4, count).ok_or(truncated(Expected::Elements(ty), p))?;
            // The engine adds the padding to the consumed length without checking it is there,
            // so the end may pass the input's end and any read after it fails, as there. The
            // end is capped at the input's end: every such read fails there too, and an
            // error then names a byte of the input (offset <= length).
            let end = (p + 4 + count + pad4(count)).min(data.len());
            (
                VariantRef::PackedByteArray(PackedRef::new(bytes)),
                Next::Leaf(end),
            )
        }
        T::PackedStringArray => {
            let (mut strings, end) = packed_strings(data, p, rules, validate)?;
            strings.note_validated(validated);
            (VariantRef::PackedStringArray(strings), Next::Leaf(end))
        }
        // Every other type has a fixed size and was read above.
        _ => {
            let kind = ErrorKind::UnknownType {
                id,
                max: dialect.variant_max(),
            };
            return Err(Error::new(kind, pos));
        }
    })
}

/// A PackedStringArray's strings (count word at `p`) and where they end. Its own function so
/// that the per-string loop keeps the string block inlined.
fn packed_strings(
    data: &[u8],
    p: usize,
    rules: TextRules,
    validate: bool,
) -> Result<(PackedStrings<'_>, usize)> {
    // No count check in the engine: a negative count is an empty array.
    let count = (need_u32(data, p, Expected::Count)? as i32).max(0) as usize;
    let (run, end) = StrRun::read(data, p + 4, count, rules, validate)?;
    Ok((PackedStrings::new(run), end))
}

/// The view of a fixed-size value whose payload is `raw` ([`Widths::fixed`] bytes of type
/// `ty`; a math type's precision follows from its length).
#[inline(always)]
fn fixed_view(ty: VariantType, raw: &[u8]) -> VariantRef<'_> {
    use VariantType as T;
    let word = |i: usize| u32_at(raw, 4 * i).unwrap_or(0);
    let long = || u64_at(raw, 0).unwrap_or(0);
    let ints = |n: usize| {
        let mut out = [0i32; 4];
        for (i, slot) in out.iter_mut().take(n).enumerate() {
            *slot = word(i) as i32;
        }
        out
    };
    match ty {
        T::Bool => VariantRef::Bool(word(0) != 0),
        // The payload is 8 bytes exactly when header bit 16 asked for 64 bits.
        T::Int if raw.len() == 8 => VariantRef::Int(long() as i64),
        T::Int => VariantRef::Int(word(0) as i32 as i64),
        T::Float if raw.len() == 8 => VariantRef::Float(f64::from_bits(long())),
        T::Float => VariantRef::Float(widen(f32::from_bits(word(0)))),
        T::Vector2 => VariantRef::Vector2(MathRef::new(raw)),
        T::Rect2 => VariantRef::Rect2(MathRef::new(raw)),
        T::Vector3 => VariantRef::Vector3(MathRef::new(raw)),
        T::Transform2D => VariantRef::Transform2D(MathRef::new(raw)),
        T::Vector4 => VariantRef::Vector4(MathRef::new(raw)),
        T::Plane => VariantRef::Plane(MathRef::new(raw)),
        T::Quaternion => VariantRef::Quaternion(MathRef::new(raw)),
        T::Aabb => VariantRef::Aabb(MathRef::new(raw)),
        T::Basis => VariantRef::Basis(MathRef::new(raw)),
        T::Transform3D => VariantRef::Transform3D(MathRef::new(raw)),
        T::Projection => VariantRef::Projection(MathRef::new(raw)),
        T::Vector2i => {
            let [x, y, ..] = ints(2);
            VariantRef::Vector2i(Vector2i { x, y })
        }
        T::Vector3i => {
            let [x, y, z, _] = ints(3);
            VariantRef::Vector3i(Vector3i { x, y, z })
        }
        T::Vector4i => {
            let [x, y, z, w] = ints(4);
            VariantRef::Vector4i(Vector4i { x, y, z, w })
        }
        T::Rect2i => {
            let [x, y, w, h] = ints(4);
            VariantRef::Rect2i(Rect2i {
                position: Vector2i { x, y },
                size: Vector2i { x: w, y: h },
            })
        }
        T::Color => {
            let [r, g, b, a] = ints(4).map(|c| f32::from_bits(c as u32));
            VariantRef::Color(Color { r, g, b, a })
        }
        T::Rid if raw.is_empty() => VariantRef::Rid(None),
        T::Rid => VariantRef::Rid(Some(long())),
        T::Callable => VariantRef::Callable,
        _ => VariantRef::Nil,
    }
}

/// The view of a packed array of fixed-size elements whose element bytes are `bytes`.
#[inline(always)]
fn packed_view(ty: VariantType, bytes: &[u8], precision: Precision) -> VariantRef<'_> {
    use VariantType as T;
    match ty {
        T::PackedInt32Array => VariantRef::PackedInt32Array(PackedRef::new(bytes)),
        T::PackedInt64Array => VariantRef::PackedInt64Array(PackedRef::new(bytes)),
        T::PackedFloat32Array => VariantRef::PackedFloat32Array(PackedRef::new(bytes)),
        T::PackedFloat64Array => VariantRef::PackedFloat64Array(PackedRef::new(bytes)),
        T::PackedColorArray => VariantRef::PackedColorArray(PackedRef::new(bytes)),
        T::PackedVector2iArray => VariantRef::PackedVector2iArray(PackedRef::new(bytes)),
        T::PackedVector3iArray => VariantRef::PackedVector3iArray(PackedRef::new(bytes)),
        T::PackedVector4iArray => VariantRef::PackedVector4iArray(PackedRef::new(bytes)),
        T::PackedVector2Array => VariantRef::PackedVector2Array(PackedReals::new(bytes, precision)),
        T::PackedVector3Array => VariantRef::PackedVector3Array(PackedReals::new(bytes, precision)),
        T::PackedVector4Array => VariantRef::PackedVector4Array(PackedReals::new(bytes, precision)),
        // Only the types `Widths::element` sizes come here.
        _ => VariantRef::PackedByteArray(PackedRef::new(bytes)),
    }
}

/// An array's head, read from its header at `pos`.
pub(crate) struct ArrayHead<'a> {
    pub(crate) element_type: Option<ContainerType<'a>>,
    pub(crate) count: u32,
    pub(crate) body: usize,
}

/// Reads the head (type block and count) of the Array, TypedArray or PackedTypedArray whose
/// header `header` is at `pos`. Views call it again to re-read their element type.
pub(crate) fn array_head<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    header: Header,
    validate: bool,
) -> Result<ArrayHead<'a>> {
    use VariantType as T;
    let dialect = dec.dialect();
    let p = pos + 4;
    let ty = dialect.type_of(header.type_id());
    if ty == Some(T::Array) && is_untyped_array(dialect, header) {
        // The common case, without the type-block reader: the count follows the header.
        let count = need_u32(data, p, Expected::Count)? & COUNT_MASK;
        return Ok(ArrayHead {
            element_type: None,
            count,
            body: p + 4,
        });
    }
    let (element_type, q) = if ty == Some(T::Array) {
        let kind = if dialect.has_typed_arrays() {
            header.array_kind()
        } else {
            ContainerKind::None
        };
        read_type_block(dec, data, p, kind, validate)?
    } else {
        let raw_type = need_u32(data, p, Expected::ContainerType)? & COUNT_MASK;
        let element = u8::try_from(raw_type)
            .ok()
            .and_then(|id| dialect.type_of(id));
        let mut q = p + 4;
        let element_type = match element {
            Some(T::Object) if header.0 & FLAG_OBJECT_AS_ID == 0 => {
                // The class name is sent as a whole String/StringName value.
                let (name, end) = read_class_name_value(dec, data, q, validate)?;
                q = end;
                ContainerType::ClassName(name)
            }
            Some(ty) => ContainerType::Builtin(ty),
            None => ContainerType::UnknownBuiltin(raw_type),
        };
        (Some(element_type), q)
    };
    let count = need_u32(data, q, Expected::Count)? & COUNT_MASK;
    Ok(ArrayHead {
        element_type,
        count,
        body: q + 4,
    })
}

/// A dictionary's head, read from its header at `pos`.
pub(crate) struct DictHead<'a> {
    pub(crate) key_type: Option<ContainerType<'a>>,
    pub(crate) value_type: Option<ContainerType<'a>>,
    /// Entries (not values).
    pub(crate) count: u32,
    pub(crate) body: usize,
}

/// Reads the head (type blocks and count) of the Dictionary whose header `header` is at `pos`.
pub(crate) fn dict_head<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    header: Header,
    validate: bool,
) -> Result<DictHead<'a>> {
    if is_untyped_dictionary(dec.dialect(), header) {
        // The common case, without the type-block reader: the count follows the header.
        let count = need_u32(data, pos + 4, Expected::Count)? & COUNT_MASK;
        return Ok(DictHead {
            key_type: None,
            value_type: None,
            count,
            body: pos + 8,
        });
    }
    let (key_kind, value_kind) = if dec.dialect().has_typed_dictionaries() {
        (header.dict_key_kind(), header.dict_value_kind())
    } else {
        (ContainerKind::None, ContainerKind::None)
    };
    let (key_type, q) = read_type_block(dec, data, pos + 4, key_kind, validate)?;
    let (value_type, q) = read_type_block(dec, data, q, value_kind, validate)?;
    let count = need_u32(data, q, Expected::Count)? & COUNT_MASK;
    Ok(DictHead {
        key_type,
        value_type,
        count,
        body: q + 4,
    })
}

/// The header at `pos` (which a view's construction has already read successfully).
pub(crate) fn header_at(data: &[u8], pos: usize) -> Header {
    Header(u32_at(data, pos).unwrap_or(0))
}

/// Pandemonium 5 typed arrays of objects name their class with a full StringName value. The
/// engine decodes any value there and then refuses all but a StringName (engine-checked: a
/// String is refused too); this reads only the StringName, which also keeps this path free of
/// recursion.
fn read_class_name_value<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    validate: bool,
) -> Result<(crate::read::str_ref::StrRef<'a>, usize)> {
    let dialect = dec.dialect();
    let header = Header(u32_at(data, pos).ok_or(truncated(Expected::ClassName, pos))?);
    match dialect.type_of(header.type_id()) {
        Some(VariantType::StringName) => {
            string_block(data, pos + 4, dialect.text_rules(), validate)
        }
        // The engine reads the whole value before refusing it: a String's own errors first.
        Some(VariantType::String) => {
            string_block(data, pos + 4, dialect.text_rules(), validate)?;
            Err(Error::new(ErrorKind::InvalidClassName, pos))
        }
        _ => Err(Error::new(ErrorKind::InvalidClassName, pos)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;

    /// The fast paths (`quick_next`, and `quick_leaf` of the iterators and the walker) must
    /// agree with `read_head` whenever they answer, and must not answer where it fails, for every dialect, header and (short, often truncated,
    /// often malformed) payload.
    #[test]
    fn quick_next_agrees_with_read_head() {
        let mut seed = 0x5EED_u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        let mut answered = 0;
        let mut leaves = 0;
        let mut canonical = 0;
        for dialect in Dialect::ALL {
            for allow in [false, true] {
                let dec = Decoder::new(dialect).with_allow_objects(allow);
                for id in 0..=255u32 {
                    // Miri interprets: a sample there, the full sweep natively.
                    for round in 0..if cfg!(miri) { 2 } else { 64 } {
                        let flags = match round % 4 {
                            0 => 0,
                            1 => 1 << 16,
                            _ => next() & 0xFFFF_0000,
                        };
                        let len = (next() % 48) as usize;
                        let mut data = vec![0u8; 4 + len];
                        data[..4].copy_from_slice(&(id | flags).to_le_bytes());
                        for b in &mut data[4..] {
                            *b = match next() % 4 {
                                0 => 0,
                                1 => next() as u8,
                                _ => b"abc\xC3\xA9"[(next() % 5) as usize],
                            };
                        }
                        if len >= 8 && round % 3 == 0 {
                            // A small count or length word, so payloads fit.
                            data[4..8].copy_from_slice(&(next() % 12).to_le_bytes());
                        }
                        for validate in [false, true] {
                            if let Some((v, end)) = quick_leaf(&dec, &data, 0, validate) {
                                let (w, next) = read_head(&dec, &data, 0, 0, validate).unwrap();
                                // Debug text, and float bits: NaN is unequal to itself.
                                let bits = |v: &VariantRef<'_>| v.as_float().map(f64::to_bits);
                                assert_eq!(
                                    (format!("{v:?}"), bits(&v), Next::Leaf(end)),
                                    (format!("{w:?}"), bits(&w), next),
                                    "{dialect:?} {data:02x?}"
                                );
                                leaves += 1;
                            }
                            if let Some((v, n)) = quick_container(&dec, &data, 0, 0) {
                                let (w, m) = read_head(&dec, &data, 0, 0, validate).unwrap();
                                assert_eq!((v.variant_type(), n), (w.variant_type(), m));
                                leaves += 1;
                            }
                            let full = read_head(&dec, &data, 0, 0, validate).map(|r| r.1);
                            let noting = quick_next::<true, true>(&dec, &data, 0, validate, true);
                            assert_eq!(
                                noting,
                                quick_next::<false, true>(&dec, &data, 0, validate, true)
                            );
                            if let Some((n, noted)) = noting {
                                assert_eq!(full, Ok(n), "{dialect:?} {data:02x?}");
                                // The canonical note made in place is the general rule's.
                                let end = match n {
                                    Next::Leaf(end) | Next::Nest { body: end, .. } => end,
                                };
                                let general = is_canonical(dialect, &data, 0, end);
                                assert_eq!(noted, general, "{dialect:?} {data:02x?}");
                                canonical += noted as usize;
                                // With the sizes as arms or without, and without noting
                                // (or noting after a value that was not canonical), the same
                                // extent and no note.
                                for plain in [
                                    quick_next::<true, true>(&dec, &data, 0, validate, false),
                                    quick_next::<false, true>(&dec, &data, 0, validate, false),
                                    quick_next::<true, false>(&dec, &data, 0, validate, true),
                                    quick_next::<false, false>(&dec, &data, 0, validate, true),
                                ] {
                                    assert_eq!(plain, Some((n, false)));
                                }
                                answered += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(
            answered > if cfg!(miri) { 300 } else { 10_000 },
            "the fast path answered only {answered} times"
        );
        assert!(
            leaves > if cfg!(miri) { 30 } else { 2_000 },
            "the leaf fast path answered only {leaves} times"
        );
        // Both verdicts are common, so the comparison above is not one-sided.
        assert!(
            canonical > answered / 20 && canonical < answered * 19 / 20,
            "{canonical} of {answered} canonical"
        );
    }
}

//! Re-encoding a validated container into its own dialect by copying its bytes, when they are
//! already exactly what [`Writer::value`](crate::Writer::value) would write ("canonical"):
//! the usual case for engine output and for this crate's own.
//!
//! The check is one linear pass over the headers and length words, with a single count of
//! values still owed (the nesting needs no stack: a container adds its items to the count).
//! Anything it does not know as canonical (typed containers, objects, node paths, a
//! signalling NaN that the writer would quiet, a needlessly wide int or float, non-zero
//! padding, ...) answers `None`, and the caller re-encodes item by item instead. The unit
//! test below and `tests/write_roundtrip.rs` check that both paths write the same bytes.
//!
//! A decode with [`Decoder::with_canonical_check`](crate::Decoder::with_canonical_check)
//! judges each value by the same rules as it validates (`read/canonical.rs`, given each
//! value's end by the skip), and its views are copied without this pass. The rules are
//! stated in both places on purpose: each loop is fastest with its own dispatch (this one
//! sizes and judges a value at once; built on the other's rule function it ran 4–18 % slower
//! on the benchmark datasets, and the other built on this one 10–33 % slower). The unit test
//! below holds them together: on every engine fixture and thousands of mutations both give
//! the same verdict, and both copies equal the writer's own output.

use crate::header::{Header, FLAG_64};
use crate::read::canonical::zero_above;
use crate::read::head::Widths;
use crate::read::input::{pad4, take, u32_at, u64_at};
use crate::read::items::Items;
use crate::variant_type::VariantType;

/// Where the container whose `items` these are ends, when its bytes (header to end) are
/// what the writer writes for it in the container's own dialect; `None` otherwise.
pub(super) fn canonical_end(items: &Items<'_>) -> Option<usize> {
    let dialect = items.dec.dialect();
    let data = items.data;
    let flag64_math = dialect.math_follows_flag_64();
    let mut pos = items.header;
    let mut left: u64 = 1;
    // The commonest headers (flags clear) compared whole first, before the general
    // dispatch through the dialect's tables.
    let id = |ty| dialect.wire_id(ty).map_or(u32::MAX, u32::from);
    let (int, string, array, dict) = (
        id(VariantType::Int),
        id(VariantType::String),
        id(VariantType::Array),
        id(VariantType::Dictionary),
    );
    while left > 0 {
        left -= 1;
        let word = u32_at(data, pos)?;
        if word == int {
            pos += 8;
            continue;
        }
        if word == string {
            pos = string_end(data, pos + 4, false)?;
            continue;
        }
        if word == dict || word == array {
            let count = u32_at(data, pos + 4)?;
            if count > i32::MAX as u32 {
                return None; // the shared bit, which the writer does not write
            }
            left += u64::from(count) << u32::from(word == dict);
            pos += 8;
            continue;
        }
        let header = Header(word);
        let ty = dialect.type_of(header.type_id())?;
        if dialect.wire_id(ty)? != header.type_id() {
            return None;
        }
        let flags = header.0 & !0xFF;
        let p = pos + 4;
        use VariantType as T;
        // Sizes come from the reader's table; the rules here are the writer's.
        let widths = Widths::of(dialect, header);
        // Math types: FLAG_64 only as the precision flag (where the dialect has one).
        let reals = || {
            let wide = flag64_math && flags == FLAG_64;
            if flags != 0 && !wide {
                return None;
            }
            let bytes = take(data, p, widths.fixed(ty)?)?;
            // The writer quiets a signalling NaN (as the engine does when widening).
            if !wide && bytes.chunks_exact(4).any(is_signalling_nan) {
                return None;
            }
            Some(p + bytes.len())
        };
        pos = match ty {
            T::Nil | T::Callable if flags == 0 => p,
            T::Bool if flags == 0 => match u32_at(data, p)? {
                0 | 1 => p + 4,
                _ => return None,
            },
            T::Int => match flags {
                0 => p + 4,
                FLAG_64 if i32::try_from(u64_at(data, p)? as i64).is_err() => p + 8,
                _ => return None,
            },
            T::Float => match flags {
                0 if !f32::from_bits(u32_at(data, p)?).is_nan() => p + 4,
                FLAG_64 => {
                    let v = f64::from_bits(u64_at(data, p)?);
                    #[allow(clippy::float_cmp)] // the writer's exact rule
                    if (v as f32) as f64 == v {
                        return None;
                    }
                    p + 8
                }
                _ => return None,
            },
            T::String | T::StringName if flags == 0 => string_end(data, p, false)?,
            T::Vector2
            | T::Vector3
            | T::Rect2
            | T::Vector4
            | T::Plane
            | T::Quaternion
            | T::Transform2D
            | T::Aabb
            | T::Basis
            | T::Transform3D
            | T::Projection => reals()?,
            T::Vector2i | T::Vector3i | T::Vector4i | T::Rect2i | T::Color | T::Rid
                if flags == 0 =>
            {
                p + widths.fixed(ty)?
            }
            T::Array | T::Dictionary if flags == 0 => {
                let count = u32_at(data, p)?;
                if count > i32::MAX as u32 {
                    return None; // the shared bit, which the writer does not write
                }
                let per = if ty == T::Dictionary { 2 } else { 1 };
                left += u64::from(count) * per;
                p + 4
            }
            T::PackedByteArray if flags == 0 => {
                let n = u32_at(data, p)? as usize;
                let end = p + 4 + n;
                let pad = take(data, end, pad4(n))?;
                if pad.iter().any(|&b| b != 0) {
                    return None;
                }
                end + pad.len()
            }
            T::PackedVector2Array | T::PackedVector3Array | T::PackedVector4Array => {
                let wide = flag64_math && flags == FLAG_64;
                if flags != 0 && !wide {
                    return None;
                }
                packed(data, p, widths.element(ty)?)?
            }
            T::PackedInt32Array
            | T::PackedFloat32Array
            | T::PackedInt64Array
            | T::PackedFloat64Array
            | T::PackedVector2iArray
            | T::PackedVector3iArray
            | T::PackedVector4iArray
            | T::PackedColorArray
                if flags == 0 =>
            {
                packed(data, p, widths.element(ty)?)?
            }
            T::PackedStringArray if flags == 0 => {
                let n = u32_at(data, p)?;
                let mut q = p + 4;
                for _ in 0..n {
                    q = string_end(data, q, true)?;
                }
                q
            }
            _ => return None,
        };
        if pos > data.len() {
            return None;
        }
    }
    // An int's payload is not read above: its end is checked here.
    (pos <= data.len()).then_some(pos)
}

fn is_signalling_nan(bytes: &[u8]) -> bool {
    let b = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    b & 0x7F80_0000 == 0x7F80_0000 && b & 0x007F_FFFF != 0 && b & 0x0040_0000 == 0
}

/// The end of a string block whose padding is zeros (and, for PackedStringArray elements,
/// whose text carries its NUL, which the writer adds where missing).
fn string_end(data: &[u8], p: usize, nul: bool) -> Option<usize> {
    let len = u32_at(data, p)? as usize;
    let block = take(data, p + 4, len + pad4(len))?;
    // With `nul`, the text's last byte is a NUL: zero like the padding after it.
    let zeros = match (nul, len) {
        (true, 0) => false,
        (true, _) => zero_above(block, len - 1),
        (false, _) => len % 4 == 0 || zero_above(block, len),
    };
    if !zeros {
        return None;
    }
    Some(p + 4 + block.len())
}

/// The end of a packed array of `size`-byte elements (count word, elements, no padding).
fn packed(data: &[u8], p: usize, size: usize) -> Option<usize> {
    let n = u32_at(data, p)? as usize;
    let end = p + 4 + n.checked_mul(size)?;
    (end <= data.len()).then_some(end)
}

#[cfg(test)]
std::thread_local! {
    /// Unit tests turn the copy off to compare it with the item-by-item path.
    pub(super) static STREAMING_ONLY: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

impl<S: crate::write::Sink> crate::Writer<S> {
    /// True when the copy must not be used (only ever in this crate's unit tests).
    #[inline(always)]
    pub(super) fn force_streaming(&self) -> bool {
        #[cfg(test)]
        return STREAMING_ONLY.with(|s| s.get());
        #[cfg(not(test))]
        false
    }
}

#[cfg(test)]
mod tests {
    use super::STREAMING_ONLY;
    use crate::{from_bytes, to_vec, Decoder, Dialect};

    /// Both paths of `to_vec` on `bytes` (one value, in `dialect`): (copy allowed, streaming).
    /// The copy is tried twice, after a decode that noted canonical bytes as it validated
    /// (`with_canonical_check`) and after a plain one (checked by `canonical_end` instead);
    /// both must agree with the streaming writer, and the two checks with each other.
    fn both(dialect: Dialect, bytes: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
        let dec = Decoder::new(dialect).with_allow_objects(true);
        let v = dec.decode(bytes).ok()?;
        let noted = dec.with_canonical_check(true).decode(bytes).unwrap();
        let fast = to_vec(dialect, &v);
        assert_eq!(to_vec(dialect, &noted), fast, "{bytes:02x?}");
        if let Some(items) = v.items() {
            let noted = noted.items().unwrap();
            let end = super::canonical_end(items);
            assert_eq!(end.is_some(), noted.canonical, "{bytes:02x?}");
            if noted.canonical {
                assert_eq!(end, Some(noted.data.len()), "{bytes:02x?}");
            }
        }
        STREAMING_ONLY.with(|s| s.set(true));
        let slow = to_vec(dialect, &v);
        STREAMING_ONLY.with(|s| s.set(false));
        match (fast, slow) {
            (Ok(a), Ok(b)) => Some((a, b)),
            (Err(a), Err(b)) => {
                assert_eq!(a, b, "{bytes:02x?}");
                None
            }
            (a, b) => panic!("{bytes:02x?}: {a:?} vs {b:?}"),
        }
    }

    /// Fixed-size values whose payload words sit on the edges of the canonical rules (NaNs
    /// quiet and signalling, infinity, Bool words other than 0 and 1) and whose headers carry
    /// bits above the type id, each inside an array, in every dialect: the relay decoder's
    /// note, made in the skip's quick path from the dialect's table of sizes and rules, is
    /// what the streaming writer says (the bytes are canonical exactly when it writes them
    /// back unchanged).
    #[test]
    fn canonical_note_on_payload_edges_is_the_writers() {
        use crate::dialect::payload_widths;
        use crate::VariantType;
        let edges: [u32; 11] = [
            0,
            1,
            2,
            0x3F80_0000, // 1.0
            0x7F80_0000, // infinity
            0x7F80_0001, // the smallest signalling NaN
            0x7FBF_FFFF, // the largest signalling NaN
            0x7FC0_0000, // the quiet NaN
            0xFF80_0001, // a negative signalling NaN
            0xFFC0_0001, // a negative quiet NaN
            0x4049_0FDB, // pi
        ];
        let (mut noted, mut not_noted) = (0, 0);
        // Miri (an interpreter) takes a sample: Godot 4, two headers, the first and last
        // component.
        let sample = cfg!(miri);
        let dialects: &[Dialect] = if sample {
            &[Dialect::GODOT_4]
        } else {
            &Dialect::ALL
        };
        let highs: &[u32] = if sample {
            &[0, 1 << 8]
        } else {
            &[0, 1 << 8, 1 << 20]
        };
        for &dialect in dialects {
            let (int, real, rid) = payload_widths(
                false,
                dialect.math_follows_flag_64(),
                dialect.rid_has_payload(),
            );
            for ty in VariantType::ALL {
                let (Some(id), Some(size)) =
                    (dialect.wire_id(ty), ty.fixed_payload(int, real, rid))
                else {
                    continue;
                };
                let words = size / 4;
                let array = dialect.wire_id(VariantType::Array).unwrap();
                for &high in highs {
                    for &edge in &edges {
                        // The edge in each component in turn, the others 2.0.
                        for at in 0..words.max(1) {
                            if sample && at != 0 && at + 1 != words {
                                continue;
                            }
                            let mut bytes = vec![array, 0, 0, 0, 1, 0, 0, 0];
                            bytes.extend_from_slice(&(u32::from(id) | high).to_le_bytes());
                            for i in 0..words {
                                let w = if i == at { edge } else { 0x4000_0000 };
                                bytes.extend_from_slice(&w.to_le_bytes());
                            }
                            let Some((copied, written)) = both(dialect, &bytes) else {
                                continue;
                            };
                            assert_eq!(copied, written, "{dialect:?} {bytes:02x?}");
                            let dec = Decoder::new(dialect).with_allow_objects(true);
                            let v = dec.with_canonical_check(true).decode(&bytes).unwrap();
                            let canonical = v.items().unwrap().canonical;
                            assert_eq!(canonical, written == bytes, "{dialect:?} {bytes:02x?}");
                            if canonical {
                                noted += 1;
                            } else {
                                not_noted += 1;
                            }
                        }
                    }
                }
            }
        }
        // Both verdicts are common, so the comparison is not one-sided.
        let least = if sample { 50 } else { 500 };
        assert!(noted > least && not_noted > least, "{noted} / {not_noted}");
    }

    /// Every engine-made value of the Godot 3.2.3 and 4.6 fixtures, and random mutations of
    /// each, re-encode to the same bytes whether copied or written item by item (and, in the
    /// engine's own dialect, to exactly the engine's bytes).
    #[test]
    fn copy_agrees_with_item_by_item() {
        // Godot 3.2.3's values in both dialects; Godot 4.6's, single and double precision
        // (every Godot 4 type), in the Godot 4 dialect.
        let (g3, g4) = (
            &[Dialect::GODOT_3, Dialect::GODOT_4][..],
            &[Dialect::GODOT_4][..],
        );
        let fixtures = [
            (include_str!("../../tests/fixtures/godot3/values.jsonl"), g3),
            (include_str!("../../tests/fixtures/godot4/values.jsonl"), g4),
            (
                include_str!("../../tests/fixtures/godot4_double/values.jsonl"),
                g4,
            ),
        ];
        let mut rand = crate::test_rand::xorshift(0x1234_5678_9abc_def0u64);
        let (mut copied, mut total) = (0, 0);
        // Under Miri (an interpreter) every tenth value, without mutations.
        let step = if cfg!(miri) { 10 } else { 1 };
        let lines = fixtures
            .iter()
            .flat_map(|(f, dialects)| f.lines().map(move |l| (l, *dialects)))
            .step_by(step);
        for (line, dialects) in lines {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let hex = v["hex"].as_str().unwrap();
            let value: Vec<u8> = (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
                .collect();
            for &dialect in dialects {
                // Inside a one-item array, so that the copy path is the one taken.
                let array = dialect.wire_id(crate::VariantType::Array).unwrap();
                let mut bytes = vec![array, 0, 0, 0, 1, 0, 0, 0];
                bytes.extend_from_slice(&value);
                if let Some((a, b)) = both(dialect, &bytes) {
                    assert_eq!(a, b, "{hex}");
                    total += 1;
                    copied += usize::from(a == bytes);
                    // In its own dialect, what the engine wrote is written back unchanged.
                    if dialect == dialects[0] {
                        assert_eq!(a, bytes, "{hex}");
                    }
                }
                for _ in 0..if cfg!(miri) { 0 } else { 40 } {
                    let mut m = bytes.clone();
                    let i = rand() as usize % m.len().max(1);
                    if let Some(b) = m.get_mut(i) {
                        *b = rand() as u8;
                    }
                    if let Some((a, b)) = both(dialect, &m) {
                        assert_eq!(a, b, "{m:02x?}");
                    }
                }
            }
        }
        assert!(
            total * step > 700 && copied * step > 600,
            "{copied} of {total}"
        );
        // A top-level leaf has no container to copy; a nested one is checked above.
        assert!(from_bytes(Dialect::GODOT_4, &[2, 0, 0, 0, 1, 0, 0, 0]).is_ok());
    }
}

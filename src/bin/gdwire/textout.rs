//! The text form as bytes, with Godot 3 text that is not valid Unicode written as the engine
//! writes it.
//!
//! Godot 3 strings may hold surrogate code points and code points above U+10FFFF (its UTF-8
//! decoder accepts them). Its `var2str` keeps them, and storing that text writes each one in
//! the generalised UTF-8 form (a lone U+D800 becomes `ED A0 80`; checked against the engine,
//! `tests/fixtures/godot3/cli.jsonl`). `gdwire::text` writes into a `fmt::Write`, which cannot
//! hold them (U+FFFD stands in). So for such a value the CLI swaps each of those code points
//! for a private-use character of the same UTF-8 length in a copy of the bytes (lengths and
//! key order are kept: surrogates U+D800–DFFF map in order onto U+E000–E7FF, code points
//! U+110000–12FFFF onto U+F0000–10FFFF), writes the text of the copy, and swaps them back to
//! the engine's bytes in the output. A value that already holds private-use characters of
//! those ranges, or such code points in overlong or 5/6-byte forms, keeps U+FFFD.

use anyhow::Result;
use gdwire::read::Event;
use gdwire::{Decoder, ObjectRef, StrRef, VariantRef};

/// Appends the dialect's text form of `value` to `out`. `payload` holds `value`'s bytes
/// (exactly), `decoder` read them.
pub fn write(
    out: &mut Vec<u8>,
    decoder: &Decoder,
    payload: &[u8],
    value: &VariantRef<'_>,
) -> Result<()> {
    let dialect = decoder.dialect();
    if let Some(text) = engine_text(decoder, payload) {
        out.extend_from_slice(&text);
        return Ok(());
    }
    let mut s = String::new();
    gdwire::text::write_text(&mut s, dialect, value)?;
    out.extend_from_slice(s.as_bytes());
    Ok(())
}

const SURROGATE_SHIFT: u32 = 0xE000 - 0xD800;
const HIGH_BASE: u32 = 0x11_0000;
const HIGH_MARK: u32 = 0xF_0000;
const HIGH_SPAN: u32 = 0x2_0000;

fn is_marker(c: u32) -> bool {
    (0xE000..0xE800).contains(&c) || (HIGH_MARK..HIGH_MARK + HIGH_SPAN).contains(&c)
}

/// The text with the engine's bytes for code points `char` cannot hold, or `None` when the
/// value has none (or they cannot be swapped; see the module doc).
fn engine_text(decoder: &Decoder, payload: &[u8]) -> Option<Vec<u8>> {
    let mut strings = Vec::new();
    collect_strings(decoder, payload, &mut strings);
    if strings.iter().all(|s| s.as_str().is_some()) {
        return None;
    }
    // Private-use characters already present would be swapped back wrongly.
    if strings.iter().any(|s| s.code_points().any(is_marker)) {
        return None;
    }
    let base = payload.as_ptr() as usize;
    let mut copy = payload.to_vec();
    let mut swapped = false;
    for s in strings.iter().filter(|s| s.as_str().is_none()) {
        let bytes = s.bytes();
        let mut at = bytes.as_ptr() as usize - base;
        for c in s.code_points() {
            let len = sequence_len(payload[at]);
            let marker = match (len, c) {
                (3, 0xD800..=0xDFFF) => Some(c + SURROGATE_SHIFT),
                (4, _) if (HIGH_BASE..HIGH_BASE + HIGH_SPAN).contains(&c) => {
                    Some(c - HIGH_BASE + HIGH_MARK)
                }
                _ => None,
            };
            if let Some(m) = marker.and_then(char::from_u32) {
                let mut buf = [0u8; 4];
                let enc = m.encode_utf8(&mut buf).as_bytes();
                debug_assert_eq!(enc.len(), len);
                copy[at..at + len].copy_from_slice(enc);
                swapped = true;
            }
            at += len;
        }
    }
    if !swapped {
        return None;
    }
    let value = decoder.decode_exact(&copy).ok()?;
    let text = gdwire::text::to_text(decoder.dialect(), &value).ok()?;
    let mut out = Vec::with_capacity(text.len());
    for ch in text.chars() {
        let c = ch as u32;
        if (0xE000..0xE800).contains(&c) {
            push_generalised_utf8(&mut out, c - SURROGATE_SHIFT);
        } else if (HIGH_MARK..HIGH_MARK + HIGH_SPAN).contains(&c) {
            push_generalised_utf8(&mut out, c - HIGH_MARK + HIGH_BASE);
        } else {
            let mut buf = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        }
    }
    Some(out)
}

/// Godot 3's UTF-8 decoder takes the sequence length from the lead byte alone.
fn sequence_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        0xF8..=0xFB => 5,
        _ => 6,
    }
}

/// Godot 3's `String::utf8`: the UTF-8 bit layout for any code point, surrogates included.
fn push_generalised_utf8(out: &mut Vec<u8>, c: u32) {
    if c < 0x80 {
        out.push(c as u8);
    } else if c < 0x800 {
        out.extend_from_slice(&[0xC0 | (c >> 6) as u8, 0x80 | (c & 0x3F) as u8]);
    } else if c < 0x1_0000 {
        out.extend_from_slice(&[
            0xE0 | (c >> 12) as u8,
            0x80 | ((c >> 6) & 0x3F) as u8,
            0x80 | (c & 0x3F) as u8,
        ]);
    } else {
        out.extend_from_slice(&[
            0xF0 | ((c >> 18) & 0x07) as u8,
            0x80 | ((c >> 12) & 0x3F) as u8,
            0x80 | ((c >> 6) & 0x3F) as u8,
            0x80 | (c & 0x3F) as u8,
        ]);
    }
}

/// Every string block of the value: strings and string names (keys too), property and class
/// names, node path parts, packed string elements.
fn collect_strings<'a>(decoder: &Decoder, payload: &'a [u8], out: &mut Vec<StrRef<'a>>) {
    for event in decoder.walk(payload) {
        let v = match event {
            Ok(Event::Value(v)) | Ok(Event::Begin(v)) => v,
            Ok(Event::Property(name)) => {
                out.push(name);
                continue;
            }
            Ok(_) => continue,
            Err(_) => return,
        };
        match v {
            VariantRef::String(s) | VariantRef::StringName(s) => out.push(s),
            VariantRef::NodePath(p) => out.extend(p.names().chain(p.subnames())),
            VariantRef::PackedStringArray(a) => out.extend(a.iter()),
            VariantRef::Object(ObjectRef::Full(o)) => out.push(o.class()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn generalised_utf8_matches_std_for_chars() {
        for c in [0x41, 0x7FF, 0x800, 0xFFFD, 0x1_0000, 0x10_FFFF] {
            let mut out = Vec::new();
            super::push_generalised_utf8(&mut out, c);
            assert_eq!(out, char::from_u32(c).unwrap().to_string().into_bytes());
        }
    }
}

//! Standard base64 (RFC 4648 alphabet, `=` padding), as the engines' `CryptoCore` writes and
//! reads it: Pandemonium's text form of a PoolByteArray, and Godot 4's parser.

use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::dialect::Family;
use crate::Dialect;

/// Whether the dialect's text writer prints a byte array as one base64 string: Pandemonium
/// since 4.3 (engine-checked in 4.9 and 5.3; the 3.8 – 4.9 dialect follows its newest
/// engines). Godot 4 reads base64 but prints the numbers.
pub(crate) fn written_by(dialect: Dialect) -> bool {
    dialect.family() == Family::Pandemonium && dialect != Dialect::PANDEMONIUM_3_5
}

/// Whether the dialect's text parser reads `PoolByteArray("…")` / `PackedByteArray("…")` as
/// base64: Godot 4.3 and newer (a 4.2 engine refuses it), and Pandemonium since 4.3 (a 3.7
/// engine refuses it), engine-checked.
pub(crate) fn read_by(dialect: Dialect) -> bool {
    dialect.godot4_minor().is_some_and(|minor| minor >= 3) || written_by(dialect)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Writes `bytes` in base64 with `=` padding, as `CryptoCore::b64_encode_str`.
pub(crate) fn encode<W: Write>(out: &mut W, bytes: &[u8]) -> fmt::Result {
    let digit = |v: u32| char::from(ALPHABET[(v & 63) as usize]);
    for chunk in bytes.chunks(3) {
        let b = |i: usize| chunk.get(i).map_or(0, |&x| u32::from(x));
        let word = (b(0) << 16) | (b(1) << 8) | b(2);
        out.write_char(digit(word >> 18))?;
        out.write_char(digit(word >> 12))?;
        match chunk.len() {
            1 => out.write_str("==")?,
            2 => {
                out.write_char(digit(word >> 6))?;
                out.write_char('=')?;
            }
            _ => {
                out.write_char(digit(word >> 6))?;
                out.write_char(digit(word))?;
            }
        }
    }
    Ok(())
}

/// Standard base64 (with optional `=` padding), as `CryptoCore::b64_decode`.
pub(crate) fn decode(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut acc = 0u32;
    let mut bits = 0;
    let mut pad = 0;
    for &c in text {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                pad += 1;
                continue;
            }
            _ => return None,
        };
        if pad > 0 {
            return None;
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    /// RFC 4648 section 10.
    const VECTORS: [(&str, &str); 7] = [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ];

    #[test]
    fn rfc_4648_vectors() {
        for (plain, coded) in VECTORS {
            let mut out = String::new();
            encode(&mut out, plain.as_bytes()).unwrap();
            assert_eq!(out, coded);
            assert_eq!(decode(coded.as_bytes()).as_deref(), Some(plain.as_bytes()));
        }
    }

    #[test]
    fn every_byte_round_trips() {
        let bytes: Vec<u8> = (0..=255).collect();
        for n in 0..bytes.len() {
            let mut out = String::new();
            encode(&mut out, &bytes[..n]).unwrap();
            assert_eq!(out.len() % 4, 0);
            assert_eq!(decode(out.as_bytes()).as_deref(), Some(&bytes[..n]));
        }
    }
}

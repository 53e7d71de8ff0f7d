//! Tokens of the engine's text form, as `VariantParser::get_token` reads them.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::dialect::Family;
use crate::text::parse::number::{to_double, to_int};
use crate::text::parse::Syntax;

/// One token. String contents are in [`Lexer::text`] (bytes as the dialect's `utf8()` would
/// write them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Tok<'t> {
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    LParen,
    RParen,
    Colon,
    Comma,
    Period,
    Equal,
    Ident(&'t str),
    /// `"..."`; contents in `Lexer::text`.
    Str,
    /// `&"..."` (Godot 4) or `@"..."` (Godot 4 compatibility, Pandemonium).
    StrName,
    Int(i64),
    Float(f64),
    /// `#rrggbb`-style colour literal (`Color::html`).
    Color([f32; 4]),
    Eof,
}

impl Tok<'_> {
    /// How an error message names it.
    pub(super) fn describe(&self) -> String {
        match self {
            Tok::LBrace => "'{'".into(),
            Tok::RBrace => "'}'".into(),
            Tok::LBracket => "'['".into(),
            Tok::RBracket => "']'".into(),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::Colon => "':'".into(),
            Tok::Comma => "','".into(),
            Tok::Period => "'.'".into(),
            Tok::Equal => "'='".into(),
            Tok::Ident(id) => alloc::format!("identifier '{id}'"),
            Tok::Str => "a string".into(),
            Tok::StrName => "a StringName".into(),
            Tok::Int(i) => alloc::format!("number {i}"),
            Tok::Float(_) => "a number".into(),
            Tok::Color(_) => "a colour".into(),
            Tok::Eof => "the end of the text".into(),
        }
    }
}

pub(super) struct Lexer<'t> {
    src: &'t str,
    pos: usize,
    family: Family,
    /// `E` exponents: Godot 4.4+ (4.0–4.3 read numbers as Godot 3 does).
    upper_e: bool,
    /// `-` before a name (`-inf`, `-nan`): Godot 4.5+ (before, a `-` without a digit after
    /// it is the number 0). Both engine-checked with 4.2, 4.3, 4.4 and 4.6.
    minus_names: bool,
    /// Where the last token started.
    pub(super) start: usize,
    /// The last string token's contents.
    pub(super) text: Vec<u8>,
}

fn err<T>(at: usize, message: impl ToString) -> Result<T, Syntax> {
    Err(Syntax {
        at,
        message: message.to_string(),
    })
}

fn hex(c: u8) -> Option<u32> {
    (c as char).to_digit(16)
}

impl<'t> Lexer<'t> {
    pub(super) fn new(src: &'t str, dialect: crate::Dialect) -> Lexer<'t> {
        let family = dialect.family();
        Lexer {
            src,
            pos: 0,
            family,
            upper_e: dialect.godot4_minor().is_some_and(|minor| minor >= 4),
            minus_names: dialect.prints_shortest_floats(),
            start: 0,
            text: Vec::new(),
        }
    }

    pub(super) fn offset(&self) -> usize {
        self.pos
    }

    /// Continues reading at byte `at` (a position this lexer reached before).
    pub(super) fn seek(&mut self, at: usize) {
        self.pos = at.min(self.src.len());
    }

    pub(super) fn peek_byte(&self) -> Option<u8> {
        self.peek()
    }

    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    /// Skips whitespace (every character up to U+0020, as the engine) and `;` comments; true
    /// if text remains.
    pub(super) fn skip_blank(&mut self) -> bool {
        while let Some(c) = self.peek() {
            if c <= b' ' && c != 0 {
                self.pos += 1;
            } else if c == b';' {
                match self.src[self.pos..].find('\n') {
                    Some(i) => self.pos += i + 1,
                    None => self.pos = self.src.len(),
                }
            } else {
                return true;
            }
        }
        false
    }

    pub(super) fn next(&mut self) -> Result<Tok<'t>, Syntax> {
        if !self.skip_blank() {
            self.start = self.pos;
            return Ok(Tok::Eof);
        }
        self.start = self.pos;
        let bytes = self.src.as_bytes();
        let c = bytes[self.pos];
        self.pos += 1;
        Ok(match c {
            b'{' => Tok::LBrace,
            b'}' => Tok::RBrace,
            b'[' => Tok::LBracket,
            b']' => Tok::RBracket,
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b':' => Tok::Colon,
            b',' => Tok::Comma,
            b'.' => Tok::Period,
            b'=' => Tok::Equal,
            b'#' => self.color()?,
            b'"' => {
                self.string()?;
                Tok::Str
            }
            b'&' | b'@' if self.family != Family::Godot3 => {
                if self.peek() != Some(b'"') {
                    return err(
                        self.pos,
                        alloc::format!("expected '\"' after '{}'", c as char),
                    );
                }
                self.pos += 1;
                self.string()?;
                Tok::StrName
            }
            b'-' if self.minus_names => match self.peek() {
                Some(d) if d.is_ascii_digit() => self.number()?,
                Some(a) if a.is_ascii_alphabetic() || a == b'_' => self.ident(),
                _ => return err(self.start, "unexpected character '-'"),
            },
            b'-' => match self.peek() {
                Some(d) if d.is_ascii_digit() || d == b'.' => self.number()?,
                // The engine reads a lone '-' as the number 0 and stops there (so Godot 3's
                // `-inf.0` reads back as 0); refused here.
                _ => return err(self.pos, "expected a digit after '-'"),
            },
            b'0'..=b'9' => self.number()?,
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.ident(),
            _ => {
                let ch = self.src[self.start..].chars().next().unwrap_or('?');
                return err(self.start, alloc::format!("unexpected character {ch:?}"));
            }
        })
    }

    /// `#` and hex digits: `Color::html` of them. Like the engine, a literal that runs to the
    /// end of the text is the end of the text (an error), and a length other than 3, 4, 6
    /// or 8 digits is the default colour (0, 0, 0, 1). 8 (and 4) digits are ARGB in
    /// Godot 3 and Pandemonium, RGBA in Godot 4.
    fn color(&mut self) -> Result<Tok<'t>, Syntax> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
            self.pos += 1;
        }
        if self.pos == self.src.len() {
            return err(self.start, "expected a character after the colour literal (the engine reads one that ends the text as the end of the text)");
        }
        let digits = &self.src.as_bytes()[start..self.pos];
        Ok(Tok::Color(html(digits, self.family)))
    }

    fn ident(&mut self) -> Tok<'t> {
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.pos += 1;
        }
        Tok::Ident(&self.src[self.start..self.pos])
    }

    /// `-?[0-9]+(\.[0-9]*)?(e[+-]?[0-9]*)?` (`E` too in Godot 4.4+); a `.` or an exponent
    /// makes it a float, as the engine's reading states decide.
    fn number(&mut self) -> Result<Tok<'t>, Syntax> {
        let upper_e = self.upper_e;
        let is_e = |c: u8| c == b'e' || (upper_e && c == b'E');
        let mut float = false;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.peek() == Some(b'.') {
            float = true;
            self.pos += 1;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        if self.peek().is_some_and(is_e) {
            float = true;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        let text = &self.src[self.start..self.pos];
        Ok(if float {
            Tok::Float(to_double(text))
        } else {
            Tok::Int(to_int(text))
        })
    }

    /// A string after its opening quote, into `self.text`.
    fn string(&mut self) -> Result<(), Syntax> {
        self.text.clear();
        let godot4 = self.family == Family::Godot4;
        let quote = self.start;
        // A UTF-16 lead surrogate waiting for its trail (Godot 4).
        let mut lead: Option<u32> = None;
        let unpaired = |at| {
            err(
                at,
                "invalid UTF-16 sequence in string: unpaired lead surrogate",
            )
        };
        loop {
            let rest = &self.src[self.pos..];
            // Copy the run of plain characters at once.
            let run = rest
                .bytes()
                .position(|b| b == b'"' || b == b'\\' || b == 0)
                .unwrap_or(rest.len());
            if run > 0 {
                if lead.is_some() {
                    return unpaired(self.pos);
                }
                self.text.extend_from_slice(&rest.as_bytes()[..run]);
                self.pos += run;
            }
            // The engine's reader takes a NUL for the end of the text.
            let Some(c) = self.peek().filter(|&c| c != 0) else {
                return err(quote, "unterminated string");
            };
            self.pos += 1;
            if c == b'"' {
                if lead.is_some() {
                    return unpaired(self.pos);
                }
                return Ok(());
            }
            // A backslash.
            let at = self.pos - 1;
            let Some(next) = self.src[self.pos..].chars().next() else {
                return err(quote, "unterminated string");
            };
            self.pos += next.len_utf8();
            let mut cp = match next {
                'b' => 8,
                't' => 9,
                'n' => 10,
                'f' => 12,
                'r' => 13,
                'u' => self.hex_digits(4)?,
                'U' if godot4 => self.hex_digits(6)?,
                other => other as u32,
            };
            if godot4 {
                if cp & 0xffff_fc00 == 0xd800 {
                    if lead.is_some() {
                        return unpaired(at);
                    }
                    lead = Some(cp);
                    continue;
                } else if cp & 0xffff_fc00 == 0xdc00 {
                    let Some(hi) = lead.take() else {
                        return err(
                            at,
                            "invalid UTF-16 sequence in string: unpaired trail surrogate",
                        );
                    };
                    cp = (hi << 10) + cp - ((0xd800 << 10) + 0xdc00 - 0x10000);
                }
                if lead.is_some() {
                    return unpaired(at);
                }
                // Godot 4's String replaces what is not a character with U+FFFD.
                let ch = char::from_u32(cp).unwrap_or('\u{fffd}');
                let mut buf = [0u8; 4];
                self.text
                    .extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            } else {
                push_godot3(&mut self.text, cp);
            }
        }
    }

    fn hex_digits(&mut self, n: usize) -> Result<u32, Syntax> {
        let mut v = 0u32;
        for _ in 0..n {
            let Some(c) = self.peek() else {
                return err(self.pos, "unterminated string");
            };
            let Some(d) = hex(c) else {
                return err(self.pos, "malformed hex constant in string");
            };
            v = (v << 4) | d;
            self.pos += 1;
        }
        Ok(v)
    }
}

/// A code point as Godot 3's `utf8()` writes it: surrogates too (3 bytes each), which its
/// UTF-8 reader accepts back.
fn push_godot3(out: &mut Vec<u8>, cp: u32) {
    if let Some(ch) = char::from_u32(cp) {
        let mut buf = [0u8; 4];
        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    } else {
        // A surrogate (escapes reach at most U+FFFF).
        out.extend_from_slice(&[
            0xe0 | (cp >> 12) as u8,
            0x80 | ((cp >> 6) & 0x3f) as u8,
            0x80 | (cp & 0x3f) as u8,
        ]);
    }
}

/// `Color::html` of the hex digits after `#`.
fn html(digits: &[u8], family: Family) -> [f32; 4] {
    let d = |i: usize| digits.get(i).and_then(|&c| hex(c)).unwrap_or(0);
    let default = [0.0, 0.0, 0.0, 1.0];
    if family == Family::Godot4 {
        let (short, alpha) = match digits.len() {
            8 => (false, true),
            6 => (false, false),
            4 => (true, true),
            3 => (true, false),
            _ => return default,
        };
        let ch = |i: usize| -> f32 {
            if short {
                d(i) as f32 / 15.0
            } else {
                (d(2 * i) * 16 + d(2 * i + 1)) as f32 / 255.0
            }
        };
        return [ch(0), ch(1), ch(2), if alpha { ch(3) } else { 1.0 }];
    }
    // Godot 3: short forms doubled, then [AA]RRGGBB, each channel `x / 255.0` in double.
    let mut full = [0u32; 8];
    let n = match digits.len() {
        3 | 4 => {
            for i in 0..digits.len() {
                full[2 * i] = d(i);
                full[2 * i + 1] = d(i);
            }
            digits.len() * 2
        }
        6 | 8 => {
            for (i, f) in full.iter_mut().enumerate().take(digits.len()) {
                *f = d(i);
            }
            digits.len()
        }
        _ => return default,
    };
    let byte = |i: usize| f64::from(full[i] * 16 + full[i + 1]);
    let from = if n == 8 { 2 } else { 0 };
    let a = if n == 8 { byte(0) } else { 255.0 };
    [
        (byte(from) / 255.0) as f32,
        (byte(from + 2) / 255.0) as f32,
        (byte(from + 4) / 255.0) as f32,
        (a / 255.0) as f32,
    ]
}

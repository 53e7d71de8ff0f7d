//! JSON text → `serde_json::Value` with the parser's own stack.
//!
//! serde_json's parser recurses once per nesting level and stops at 128 levels, so values
//! nested deeper than about 63 dictionaries, which gdwire dumps fine, could not be read back.
//! This parser keeps its open containers in a `Vec`: nesting costs heap, not call stack, up to
//! [`MAX_JSON_DEPTH`]. `Value`'s own `Drop` recurses as well, so a tree deeper than
//! serde_json's 128 levels is taken apart by [`dismantle`] ([`Parser::discard`]) instead of
//! being dropped whole.
//!
//! Strict ([`Options::STRICT`]), it accepts exactly RFC 8259 JSON, and builds the same
//! `Value`s as `serde_json::from_str` with `float_roundtrip` (integers as `u64` / `i64` where
//! they fit, `-0` as the float `-0.0`, other numbers as the nearest `f64`, out-of-range numbers
//! rejected, lone surrogate escapes rejected). Two differences, both deliberate: a key repeated
//! in one object is an error (serde_json keeps the last one, which would drop data silently),
//! and the depth limit. `parse/tests.rs` and the `json` fuzz target check the agreement against
//! serde_json itself. With [`Options::ENGINE`] it also takes what Godot's `JSON.stringify`
//! writes: numbers past the `f64` range become the strings `"inf"` / `"-inf"` (gdwire's token
//! for a non-finite float, as a JSON `Value` cannot hold one), and raw U+0001-U+001F in strings
//! are kept; on strict JSON both modes give the same `Value`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

use crate::json::{JsonError, Options};
use crate::lines::line_of;
use crate::read::MAX_DEPTH;

/// Deepest JSON nesting read. The deepest value the writer accepts (1024 containers,
/// [`MAX_DEPTH`]) needs two JSON levels per container (`{"args":[…]}`) and two for its leaf.
///
/// ```
/// use gdwire::json::{self, MAX_JSON_DEPTH};
/// use gdwire::Dialect;
/// let deep = "[".repeat(MAX_JSON_DEPTH + 1) + &"]".repeat(MAX_JSON_DEPTH + 1);
/// assert!(json::from_json_str(Dialect::GODOT_4, &deep).is_err());
/// ```
pub const MAX_JSON_DEPTH: usize = 4 * MAX_DEPTH as usize;

/// Takes a tree apart without recursion (`Value`'s `Drop` recurses once per level).
pub(crate) fn dismantle(value: Value) {
    dismantle_all([value]);
}

fn dismantle_all(values: impl IntoIterator<Item = Value>) {
    let mut pending: Vec<Value> = Vec::new();
    let push = |pending: &mut Vec<Value>, v: Value| {
        if matches!(&v, Value::Array(a) if !a.is_empty())
            || matches!(&v, Value::Object(m) if !m.is_empty())
        {
            pending.push(v);
        }
    };
    for v in values {
        push(&mut pending, v);
    }
    while let Some(v) = pending.pop() {
        match v {
            Value::Array(items) => items.into_iter().for_each(|v| push(&mut pending, v)),
            Value::Object(map) => map.into_iter().for_each(|(_, v)| push(&mut pending, v)),
            _ => {}
        }
    }
}

/// A container whose closing bracket is still to come.
enum Open {
    Array(Vec<Value>),
    /// The entries so far, and the key (with its offset) whose value is being parsed.
    Object(Map<String, Value>, String, usize),
}

/// Trees at most this deep are dropped the ordinary way, whose recursion is then bounded:
/// serde_json's own parser limit, measured at about 500 bytes of stack per level unoptimised
/// and 200 optimised. Taking a tree apart by hand costs time (about 20 % of the whole JSON
/// input on `benches/json.rs` `e_deep`).
const SHALLOW: usize = 128;

/// The open containers, and the deepest nesting seen; emptied after every document, error
/// or not (kept by the parser so its capacity serves the next document).
#[derive(Default)]
struct OpenStack {
    open: Vec<Open>,
    deepest: usize,
}

impl OpenStack {
    fn push(&mut self, open: Open) {
        self.open.push(open);
        self.deepest = self.deepest.max(self.open.len());
    }

    /// Drops what is left (after an error), taking deep trees apart by hand.
    fn clear(&mut self) {
        if self.deepest <= SHALLOW {
            self.open.clear();
        }
        for open in self.open.drain(..) {
            match open {
                Open::Array(items) => dismantle_all(items),
                Open::Object(map, _, _) => dismantle_all(map.into_iter().map(|(_, v)| v)),
            }
        }
        self.deepest = 0;
    }
}

impl Drop for OpenStack {
    fn drop(&mut self) {
        self.clear();
    }
}

/// A cursor over JSON text: [`Parser::document`] reads one value after optional whitespace.
pub(crate) struct Parser<'t> {
    text: &'t str,
    pos: usize,
    /// Also read what Godot's `JSON.stringify` writes beyond RFC 8259 (see [`Options`]):
    /// numbers past the `f64` range as the strings `"inf"` / `"-inf"`, raw U+0001-U+001F in
    /// strings.
    engine: bool,
    /// Deepest nesting of the last document.
    deepest: usize,
    open: OpenStack,
}

impl<'t> Parser<'t> {
    #[cfg(test)]
    pub(crate) fn new(text: &'t str) -> Parser<'t> {
        Parser::with_options(text, Options::STRICT)
    }

    pub(crate) fn with_options(text: &'t str, options: Options) -> Parser<'t> {
        Parser {
            text,
            pos: 0,
            engine: options.engine_compatible,
            deepest: 0,
            open: OpenStack::default(),
        }
    }

    /// Byte offset of the next unread byte.
    pub(crate) fn offset(&self) -> usize {
        self.pos
    }

    /// The whole text being read.
    pub(crate) fn text(&self) -> &'t str {
        self.text
    }

    /// Skips whitespace; `true` if anything follows.
    pub(crate) fn more(&mut self) -> bool {
        self.skip_ws();
        self.pos < self.text.len()
    }

    /// Drops a tree this parser returned: taken apart by hand if it is deep.
    pub(crate) fn discard(&self, value: Value) {
        if self.deepest > SHALLOW {
            dismantle(value);
        }
    }

    /// Reads one value (after optional whitespace). Hand the tree back to
    /// [`Parser::discard`]: `Value`'s own `Drop` recurses per level.
    pub(crate) fn document(&mut self) -> Result<Value, JsonError> {
        let mut open = core::mem::take(&mut self.open);
        let result = self.document_into(&mut open);
        self.deepest = open.deepest;
        open.clear();
        self.open = open;
        result
    }

    fn document_into(&mut self, open: &mut OpenStack) -> Result<Value, JsonError> {
        'value: loop {
            self.skip_ws();
            let start = self.pos;
            let mut done = match self.peek() {
                Some(b'[') => {
                    self.pos += 1;
                    self.skip_ws();
                    if self.eat(b']') {
                        Value::Array(Vec::new())
                    } else {
                        self.check_depth(open, start)?;
                        open.push(Open::Array(Vec::new()));
                        continue 'value;
                    }
                }
                Some(b'{') => {
                    self.pos += 1;
                    self.skip_ws();
                    if self.eat(b'}') {
                        Value::Object(Map::new())
                    } else {
                        self.check_depth(open, start)?;
                        let (key, at) = self.key()?;
                        open.push(Open::Object(Map::new(), key, at));
                        continue 'value;
                    }
                }
                Some(b'"') => Value::String(self.string()?),
                Some(b't') => self.literal("true", Value::Bool(true))?,
                Some(b'f') => self.literal("false", Value::Bool(false))?,
                Some(b'n') => self.literal("null", Value::Null)?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(_) => return Err(self.error("expected value")),
                None => return Err(self.error("EOF while parsing a value")),
            };
            // Hand the value to the innermost container, closing containers as their
            // brackets come, until a comma asks for the next value.
            loop {
                let Some(top) = open.open.last_mut() else {
                    return Ok(done);
                };
                let array = match top {
                    Open::Array(items) => {
                        items.push(done);
                        true
                    }
                    Open::Object(map, key, at) => match map.entry(core::mem::take(key)) {
                        Entry::Vacant(slot) => {
                            slot.insert(done);
                            false
                        }
                        Entry::Occupied(slot) => {
                            dismantle(done);
                            let message = format!("duplicate key {:?}", slot.key());
                            return Err(self.error_at(*at, message));
                        }
                    },
                };
                self.skip_ws();
                match (self.peek(), array) {
                    (Some(b','), true) => {
                        self.pos += 1;
                        continue 'value;
                    }
                    (Some(b','), false) => {
                        self.pos += 1;
                        self.skip_ws();
                        let (key, at) = self.key()?;
                        if let Some(Open::Object(_, k, a)) = open.open.last_mut() {
                            (*k, *a) = (key, at);
                        }
                        continue 'value;
                    }
                    (Some(b']'), true) | (Some(b'}'), false) => {
                        self.pos += 1;
                        done = match open.open.pop() {
                            Some(Open::Array(items)) => Value::Array(items),
                            Some(Open::Object(map, _, _)) => Value::Object(map),
                            None => unreachable!("a container was open"),
                        };
                    }
                    (None, true) => return Err(self.error("EOF while parsing a list")),
                    (None, false) => return Err(self.error("EOF while parsing an object")),
                    (_, true) => return Err(self.error("expected `,` or `]`")),
                    (_, false) => return Err(self.error("expected `,` or `}`")),
                }
            }
        }
    }

    fn check_depth(&self, open: &OpenStack, start: usize) -> Result<(), JsonError> {
        if open.open.len() < MAX_JSON_DEPTH {
            return Ok(());
        }
        let message = format!("nested deeper than {MAX_JSON_DEPTH} levels");
        Err(self.error_at(start, message))
    }

    /// An object key and the `:` after it; returns the key and where it starts.
    fn key(&mut self) -> Result<(String, usize), JsonError> {
        let at = self.pos;
        match self.peek() {
            Some(b'"') => {}
            Some(_) => return Err(self.error("key must be a string")),
            None => return Err(self.error("EOF while parsing an object")),
        }
        let key = self.string()?;
        self.skip_ws();
        match self.peek() {
            Some(b':') => self.pos += 1,
            Some(_) => return Err(self.error("expected `:`")),
            None => return Err(self.error("EOF while parsing an object")),
        }
        Ok((key, at))
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, JsonError> {
        let rest = &self.text.as_bytes()[self.pos..];
        // Point at the first byte that differs, like serde_json.
        let same = rest
            .iter()
            .zip(word.as_bytes())
            .take_while(|(a, b)| a == b)
            .count();
        self.pos += same;
        if same == word.len() {
            Ok(value)
        } else if same == rest.len() {
            Err(self.error("EOF while parsing a value"))
        } else {
            Err(self.error("expected ident"))
        }
    }

    /// RFC 8259 number; the same `Value` as serde_json gives.
    fn number(&mut self) -> Result<Value, JsonError> {
        let b = self.text.as_bytes();
        let start = self.pos;
        let negative = b[start] == b'-';
        let mut i = start + usize::from(negative);
        let digits = |mut i: usize| {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        // The magnitude, while it fits a u64.
        let mut magnitude = Some(0u64);
        match b.get(i) {
            Some(b'0') => {
                i += 1;
                if b.get(i).is_some_and(u8::is_ascii_digit) {
                    return Err(self.error_at(i, "invalid number"));
                }
            }
            Some(b'1'..=b'9') => {
                while let Some(d) = b.get(i).filter(|c| c.is_ascii_digit()) {
                    magnitude = magnitude
                        .and_then(|m| m.checked_mul(10))
                        .and_then(|m| m.checked_add(u64::from(d - b'0')));
                    i += 1;
                }
            }
            Some(_) => return Err(self.error_at(i, "invalid number")),
            None => return Err(self.error_at(i, "EOF while parsing a value")),
        }
        let int_end = i;
        if b.get(i) == Some(&b'.') {
            let j = digits(i + 1);
            if j == i + 1 {
                return Err(self.fail_digit(j));
            }
            i = j;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let j = digits(i);
            if j == i {
                return Err(self.fail_digit(j));
            }
            i = j;
        }
        self.pos = i;
        if i == int_end {
            if let Some(m) = magnitude {
                if !negative {
                    return Ok(Value::from(m));
                }
                // serde_json's rule: `-0` and magnitudes past i64 become floats.
                let n = (m as i64).wrapping_neg();
                if n < 0 {
                    return Ok(Value::from(n));
                }
                return Ok(float(-(m as f64)));
            }
        }
        // The grammar above is a subset of what `f64::from_str` takes; it rounds correctly,
        // as serde_json does with `float_roundtrip`.
        match self.text[start..i].parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(float(x)),
            // The engine's `String::to_float` overflows to ±inf, and `JSON.stringify` writes
            // ±inf as `1e99999` / `-1e99999`; gdwire's token for a non-finite float slot.
            Ok(x) if self.engine && x.is_infinite() => {
                Ok(Value::String(String::from(if negative {
                    "-inf"
                } else {
                    "inf"
                })))
            }
            _ => Err(self.error_at(start, "number out of range")),
        }
    }

    fn fail_digit(&self, at: usize) -> JsonError {
        match self.text.as_bytes().get(at) {
            Some(_) => self.error_at(at, "invalid number"),
            None => self.error_at(at, "EOF while parsing a value"),
        }
    }

    /// A string literal starting at its `"`.
    fn string(&mut self) -> Result<String, JsonError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let rest = &self.text.as_bytes()[self.pos..];
            let end = memchr::memchr2(b'"', b'\\', rest);
            let plain = &rest[..end.unwrap_or(rest.len())];
            // No early exit: this form vectorises; the position is looked for on error only.
            // The engine takes raw control characters, except NUL, which ends its text.
            let low = if self.engine { 0x01 } else { 0x20 };
            if plain.iter().fold(false, |any, &b| any | (b < low)) {
                let c = plain.iter().position(|&b| b < low).unwrap_or(0);
                let message = if self.engine {
                    "NUL found while parsing a string"
                } else {
                    "control character (\\u0000-\\u001F) found while parsing a string"
                };
                return Err(self.error_at(self.pos + c, message));
            }
            // `"` and `\` are ASCII, so both ends of `plain` are char boundaries.
            let text = &self.text[self.pos..self.pos + plain.len()];
            self.pos += plain.len();
            match end.map(|n| rest[n]) {
                None => return Err(self.error("EOF while parsing a string")),
                Some(b'"') if out.is_empty() => {
                    self.pos += 1;
                    return Ok(String::from(text));
                }
                Some(b'"') => {
                    self.pos += 1;
                    out.push_str(text);
                    return Ok(out);
                }
                _ => {
                    self.pos += 1;
                    out.push_str(text);
                    out.push(self.escape()?);
                }
            }
        }
    }

    /// The escape after a `\`.
    fn escape(&mut self) -> Result<char, JsonError> {
        let Some(c) = self.peek() else {
            return Err(self.error("EOF while parsing a string"));
        };
        self.pos += 1;
        Ok(match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(),
            _ => return Err(self.error_at(self.pos - 1, "invalid escape")),
        })
    }

    /// `\uXXXX`, or a surrogate pair of two; lone surrogates are errors (a Rust `String`
    /// cannot hold them).
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let first = self.hex4()?;
        let code = match first {
            0xd800..=0xdbff => {
                let b = self.text.as_bytes();
                if b.get(self.pos) != Some(&b'\\') || b.get(self.pos + 1) != Some(&b'u') {
                    return Err(self.error("lone leading surrogate in hex escape"));
                }
                self.pos += 2;
                let second = self.hex4()?;
                if !(0xdc00..=0xdfff).contains(&second) {
                    return Err(self.error("lone leading surrogate in hex escape"));
                }
                0x10000 + ((u32::from(first) - 0xd800) << 10) + (u32::from(second) - 0xdc00)
            }
            0xdc00..=0xdfff => return Err(self.error("lone trailing surrogate in hex escape")),
            _ => u32::from(first),
        };
        char::from_u32(code).ok_or_else(|| self.error("invalid unicode code point"))
    }

    fn hex4(&mut self) -> Result<u16, JsonError> {
        let mut v = 0u16;
        for _ in 0..4 {
            let digit = match self.peek() {
                None => return Err(self.error("EOF while parsing a string")),
                Some(c) => (c as char).to_digit(16),
            };
            let Some(d) = digit else {
                return Err(self.error("invalid escape"));
            };
            v = v << 4 | d as u16;
            self.pos += 1;
        }
        Ok(v)
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        self.pos += usize::from(hit);
        hit
    }

    fn skip_ws(&mut self) {
        let rest = &self.text.as_bytes()[self.pos..];
        self.pos += rest
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .count();
    }

    pub(crate) fn error(&self, message: impl Into<String>) -> JsonError {
        self.error_at(self.pos, message)
    }

    /// A syntax error at byte `at`, located by 1-based line and column (in bytes).
    fn error_at(&self, at: usize, message: impl Into<String>) -> JsonError {
        let at = at.min(self.text.len());
        let (line, line_start) = line_of(self.text.as_bytes(), at);
        JsonError::Syntax {
            message: message.into(),
            line,
            column: at - line_start + 1,
        }
    }
}

fn float(x: f64) -> Value {
    // Finite by construction.
    Number::from_f64(x).map_or(Value::Null, Value::Number)
}

#[cfg(test)]
mod tests;

//! `--dialect auto` / `--framing auto`: there is no version marker on the wire, so every
//! dialect and framing is tried on the whole input; the readings that decode it cleanly are
//! ranked by evidence and the choice is explained on stderr, with every other reading that
//! also decodes it (an input is never read silently one way when it also reads another).
//!
//! Evidence against a reading, per value (the walk visits every nested value once):
//! - text that is not valid Unicode (Godot 3 accepts surrogates and code points above
//!   U+10FFFF; the other dialects reject them, so such text suggests a misreading);
//! - a `Plane` whose normal is not unit length, a `Quaternion` that is not unit length (the
//!   engine normalises both; a Godot 3 `Color` read as a Godot 4 `Plane` is the usual case);
//! - 64-bit math (header bit 16) in a Godot 4 reading: only double-precision builds send it;
//! - records that need trailing bytes ignored (accepted by the engine, never by a clean
//!   reading).
//!
//! Ties go to the more common engine line: godot4 (newest 4.x), godot3, older 4.x, then the
//! Pandemonium numberings; readings that decode every value identically are grouped.
//!
//! When no reading decodes the whole input, a stream reading is used whose only failures are
//! values that do not decode inside intact frames (the frames after them are read on, as the
//! engine's `get_var` reads on) and the input ending inside its last frame (a capture cut
//! short), if it decodes more frames than it fails and shows no sign of a misreading: the one
//! with the most values. Its values are read and each failure is reported as the error it is.

use std::collections::hash_map::DefaultHasher;
use std::fmt::Write as _;
use std::hash::Hasher;

use gdwire::frame::Split;
use gdwire::read::Event;
use gdwire::{Decoder, Dialect, Family, Precision, VariantRef};

use crate::common::{DialectChoice, FramingArg, WireArgs};

/// What one dialect and framing make of the input.
#[derive(Clone, Debug)]
pub struct Reading {
    pub dialect: Dialect,
    pub framing: FramingArg,
    /// Values decoded (with stream framing, in every frame: a value that fails leaves the
    /// frames after it intact).
    pub values: usize,
    /// Frames whose value does not decode, and the first of them.
    pub bad_frames: usize,
    pub first_bad_frame: Option<usize>,
    /// Records whose value ended before the record did, and their extra bytes.
    pub trailing_records: usize,
    pub trailing_bytes: usize,
    /// The first failure: (absolute offset, message).
    pub error: Option<(usize, String)>,
    /// The input ends inside a frame.
    pub cut: Option<Cut>,
    /// A framing error other than a cut (a length above `--max-frame`): what follows is lost.
    framing_broken: bool,
    pub evidence: Evidence,
    /// Hash of every decoded value (to group readings that agree), clean readings only.
    fingerprint: u64,
    /// Other dialects (same framing) that decode every value identically.
    pub same: Vec<Dialect>,
}

/// Where the input ends inside a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The frame's index and the offset of its length prefix.
    pub frame: usize,
    pub offset: usize,
    /// Bytes missing before the frame (`in_prefix`: its length prefix) is complete.
    pub missing: usize,
    pub in_prefix: bool,
}

/// Signs that a reading is a misreading, counted over every nested value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Evidence {
    pub invalid_text: usize,
    pub odd_planes: usize,
    pub odd_quaternions: usize,
    pub double_math: usize,
}

impl Cut {
    /// "N bytes short of the end of frame K (at byte X)", or of its length prefix.
    fn describe(&self) -> String {
        format!(
            "{} byte{} short of the end of frame {}{} (at byte {})",
            self.missing,
            if self.missing == 1 { "" } else { "s" },
            self.frame,
            if self.in_prefix {
                "'s length prefix"
            } else {
                ""
            },
            self.offset
        )
    }
}

impl Evidence {
    fn total(&self) -> usize {
        self.invalid_text + self.odd_planes + self.odd_quaternions + self.double_math
    }

    fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut say = |n: usize, one: &str, many: &str| {
            if n > 0 {
                out.push(format!("{n} {}", if n == 1 { one } else { many }));
            }
        };
        say(
            self.invalid_text,
            "string that is not valid Unicode",
            "strings that are not valid Unicode",
        );
        say(
            self.odd_planes,
            "Plane whose normal is not unit length",
            "Planes whose normals are not unit length",
        );
        say(
            self.odd_quaternions,
            "Quaternion that is not unit length",
            "Quaternions that are not unit length",
        );
        say(
            self.double_math,
            "64-bit math value (only double-precision builds send them)",
            "64-bit math values (only double-precision builds send them)",
        );
        out
    }
}

impl Reading {
    /// Notes a failure; the first is the reading's error.
    fn fail(&mut self, at: usize, message: String) {
        self.error.get_or_insert((at, message));
    }

    /// Values decoded before the first failure: every frame before the first that does not
    /// decode (a cut can only come last).
    fn decoded_before_error(&self) -> usize {
        self.first_bad_frame.unwrap_or(self.values)
    }

    /// What fails in a reading that [`Report::partly`] may choose: "frame 3 does not decode",
    /// "N frames do not decode (the first is frame K)", "the input ends M bytes short of …",
    /// or one of the first two and the last.
    fn failures(&self) -> String {
        let mut parts = Vec::new();
        if let Some(first) = self.first_bad_frame {
            parts.push(match self.bad_frames {
                1 => format!("frame {first} does not decode"),
                n => format!("{n} frames do not decode (the first is frame {first})"),
            });
        }
        if let Some(cut) = self.cut {
            parts.push(format!("the input ends {}", cut.describe()));
        }
        parts.join(", and ")
    }

    pub fn is_clean(&self) -> bool {
        self.error.is_none() && self.trailing_records == 0
    }

    fn decodes(&self) -> bool {
        self.error.is_none()
    }

    /// `--dialect X --framing F`.
    pub fn options(&self) -> String {
        format!(
            "--dialect {} --framing {}",
            self.dialect,
            self.framing.name()
        )
    }

    fn summary(&self) -> String {
        let mut s = format!(
            "{} ({} value{}",
            self.options(),
            self.values,
            if self.values == 1 { "" } else { "s" }
        );
        if self.trailing_records > 0 {
            let _ = write!(
                s,
                "; {} trailing byte{} ignored in {} record{}, as the engine does",
                self.trailing_bytes,
                if self.trailing_bytes == 1 { "" } else { "s" },
                self.trailing_records,
                if self.trailing_records == 1 { "" } else { "s" }
            );
        }
        for e in self.evidence.describe() {
            let _ = write!(s, "; {e}");
        }
        s.push(')');
        if !self.same.is_empty() {
            let names: Vec<String> = self.same.iter().map(|d| d.to_string()).collect();
            let _ = write!(s, " [{} read it the same]", names.join(", "));
        }
        s
    }

    fn rank(&self) -> (bool, bool, usize, usize, usize) {
        (
            !self.decodes(),
            self.trailing_records > 0,
            self.evidence.total(),
            dialect_prior(self.dialect),
            framing_prior(self.framing),
        )
    }
}

/// Ties go to the more common engine line.
fn dialect_prior(d: Dialect) -> usize {
    const ORDER: [Dialect; 11] = [
        Dialect::GODOT_4,
        Dialect::GODOT_4_5,
        Dialect::GODOT_4_4,
        Dialect::GODOT_3,
        Dialect::GODOT_4_3,
        Dialect::GODOT_4_2,
        Dialect::GODOT_4_1,
        Dialect::GODOT_4_0,
        Dialect::PANDEMONIUM_3_8,
        Dialect::PANDEMONIUM_3_5,
        Dialect::PANDEMONIUM_5,
    ];
    ORDER.iter().position(|x| *x == d).unwrap_or(ORDER.len())
}

fn framing_prior(f: FramingArg) -> usize {
    match f {
        FramingArg::None | FramingArg::Auto => 0,
        FramingArg::Stream => 1,
        FramingArg::StreamBe => 2,
        FramingArg::Multiplayer | FramingArg::MultiplayerCapture => 3,
    }
}

/// Every reading tried, best first.
pub struct Report {
    readings: Vec<Reading>,
    lenient: bool,
}

/// Tries every dialect and framing `wire` leaves open.
pub fn detect(
    data: &[u8],
    wire: &WireArgs,
    decoder: &dyn Fn(Dialect) -> Decoder,
    lenient: bool,
) -> Report {
    let dialects: Vec<Dialect> = match wire.dialect {
        DialectChoice::Auto => Dialect::ALL.to_vec(),
        DialectChoice::One(d) => vec![d],
    };
    let framings: Vec<FramingArg> = match wire.framing {
        FramingArg::Auto => vec![FramingArg::None, FramingArg::Stream, FramingArg::StreamBe],
        f => vec![f],
    };
    let mut readings: Vec<Reading> = Vec::new();
    for &framing in &framings {
        for &dialect in &dialects {
            // A dialect with another's wire format (Godot 4.0–4.2, 4.4–4.6) reads the same.
            let twin = readings
                .iter()
                .find(|r| r.framing == framing && r.dialect.same_wire_format(dialect));
            let reading = match twin {
                Some(twin) => Reading {
                    dialect,
                    ..twin.clone()
                },
                None => evaluate(
                    data,
                    dialect,
                    framing,
                    wire.max_frame,
                    &decoder(dialect),
                    false,
                ),
            };
            readings.push(reading);
        }
    }
    // Only when nothing decodes are the stream readings read on past their failing frames
    // (for `Report::partly`): on a clean input that would double the time of the readings
    // that fail.
    if !readings.iter().any(Reading::decodes) {
        for r in &mut readings {
            if r.first_bad_frame.is_some() {
                *r = evaluate(
                    data,
                    r.dialect,
                    r.framing,
                    wire.max_frame,
                    &decoder(r.dialect),
                    true,
                );
            }
        }
    }
    readings.sort_by_key(Reading::rank);
    // Group readings that decode every value identically (e.g. godot4.0 … godot4.5 on data
    // without the newer types): the best of each group stands for it.
    let mut grouped: Vec<Reading> = Vec::new();
    for r in readings {
        if r.decodes() {
            if let Some(g) = grouped.iter_mut().find(|g| {
                g.decodes()
                    && g.framing == r.framing
                    && g.fingerprint == r.fingerprint
                    && g.values == r.values
                    && g.trailing_bytes == r.trailing_bytes
            }) {
                g.same.push(r.dialect);
                continue;
            }
        }
        grouped.push(r);
    }
    Report {
        readings: grouped,
        lenient,
    }
}

/// For a dialect and framing given on the command line: when the values show signs of a
/// misreading (see the module doc) and another reading decodes the input cleanly without
/// any, a warning that says so. `None` when nothing looks wrong.
pub fn second_look(
    data: &[u8],
    wire: &WireArgs,
    dialect: Dialect,
    framing: FramingArg,
    decoder: &dyn Fn(Dialect) -> Decoder,
) -> Option<String> {
    let mine = evaluate(
        data,
        dialect,
        framing,
        wire.max_frame,
        &decoder(dialect),
        false,
    );
    if !mine.is_clean() || mine.evidence.total() == 0 {
        return None;
    }
    let all = WireArgs {
        dialect: DialectChoice::Auto,
        framing: FramingArg::Auto,
        max_frame: wire.max_frame,
    };
    let report = detect(data, &all, decoder, false);
    let better = report
        .decoding()
        .find(|r| r.evidence.total() == 0 && !(r.dialect == dialect && r.framing == framing))?;
    Some(format!(
        "warning: as {} this input has {}; it also decodes as {} with no such sign (--dialect \
         auto compares every reading)",
        mine.options(),
        mine.evidence.describe().join(", "),
        better.summary()
    ))
}

fn evaluate(
    data: &[u8],
    dialect: Dialect,
    framing: FramingArg,
    max_frame: usize,
    dec: &Decoder,
    read_on: bool,
) -> Reading {
    let mut r = Reading {
        dialect,
        framing,
        values: 0,
        bad_frames: 0,
        first_bad_frame: None,
        trailing_records: 0,
        trailing_bytes: 0,
        error: None,
        cut: None,
        framing_broken: false,
        evidence: Evidence::default(),
        fingerprint: 0,
        same: Vec::new(),
    };
    let mut hasher = DefaultHasher::new();
    let mut record = |base: usize, payload: &[u8], r: &mut Reading| -> bool {
        // One walk validates the value, gathers the evidence and the fingerprint.
        match look_at(dec, payload, &mut r.evidence, &mut hasher) {
            Ok(used) => {
                if used < payload.len() {
                    r.trailing_records += 1;
                    r.trailing_bytes += payload.len() - used;
                }
                r.values += 1;
                true
            }
            Err(e) => {
                r.fail(base + e.offset(), e.kind().to_string());
                false
            }
        }
    };
    match framing.framing(max_frame) {
        None => {
            record(0, data, &mut r);
        }
        Some(f) => {
            for (index, frame) in f.frames(data).enumerate() {
                match frame {
                    Ok(frame) => {
                        // A value that fails leaves the next frame's prefix where it was.
                        if !record(frame.payload_offset(), frame.payload, &mut r) {
                            r.bad_frames += 1;
                            r.first_bad_frame.get_or_insert(index);
                            // Read on only when asked, and not once the reading fails more
                            // frames than it decodes (most wrong dialects fail the first two).
                            if !read_on || r.bad_frames > r.values.max(1) {
                                break;
                            }
                        }
                    }
                    Err(e) => {
                        let rest = data.get(e.offset()..).unwrap_or_default();
                        match f.split(rest) {
                            Ok(Split::Partial { needed }) => {
                                r.cut = Some(Cut {
                                    frame: index,
                                    offset: e.offset(),
                                    missing: needed,
                                    in_prefix: rest.len() < gdwire::frame::PREFIX_LEN,
                                })
                            }
                            _ => r.framing_broken = true,
                        }
                        r.fail(e.offset(), e.kind().to_string());
                    }
                }
            }
            if data.is_empty() {
                r.fail(0, "empty input".into());
            }
        }
    }
    r.fingerprint = hasher.finish();
    r
}

/// Walks the value at the start of `bytes` once: validates it (returns where it ends), counts
/// the evidence against this reading and feeds what the value is (types, scalars, text, math
/// components) to `hash`, so that readings that see the same values can be grouped.
fn look_at(
    dec: &Decoder,
    bytes: &[u8],
    ev: &mut Evidence,
    hash: &mut DefaultHasher,
) -> gdwire::Result<usize> {
    let godot4 = dec.dialect().family() == Family::Godot4;
    let mut walker = dec.walk(bytes);
    for event in walker.by_ref() {
        let value = match event? {
            Event::Value(v) | Event::Begin(v) => v,
            Event::Property(name) => {
                ev.invalid_text += usize::from(name.as_str().is_none());
                hash.write(name.raw());
                continue;
            }
            _ => {
                hash.write_u8(0xff);
                continue;
            }
        };
        hash.write_u8(value.variant_type() as u8);
        match value {
            VariantRef::Bool(b) => hash.write_u8(b.into()),
            VariantRef::Int(i) => hash.write_i64(i),
            VariantRef::Float(f) => hash.write_u64(f.to_bits()),
            VariantRef::String(s) | VariantRef::StringName(s) => {
                ev.invalid_text += usize::from(s.as_str().is_none());
                hash.write(s.raw());
            }
            VariantRef::Plane(p) => {
                let normal: f64 = p.components().take(3).map(|x| x * x).sum();
                ev.odd_planes += usize::from(!unit(normal));
                p.components().for_each(|c| hash.write_u64(c.to_bits()));
            }
            VariantRef::Quaternion(q) => {
                ev.odd_quaternions += usize::from(!unit(q.components().map(|x| x * x).sum()));
                q.components().for_each(|c| hash.write_u64(c.to_bits()));
            }
            VariantRef::Color(c) => {
                [c.r, c.g, c.b, c.a]
                    .iter()
                    .for_each(|x| hash.write_u32(x.to_bits()));
            }
            _ => {}
        }
        if godot4 && value.precision() == Some(Precision::Double) {
            ev.double_math += 1;
        }
    }
    // An unpadded PackedByteArray at the very end "uses" its missing padding.
    Ok(walker.offset().min(bytes.len()))
}

/// A squared length of 1 give or take float32 rounding (and an all-zero default value,
/// which the engine writes for a default-constructed Plane / Quaternion).
fn unit(len2: f64) -> bool {
    (len2 - 1.0).abs() < 1e-3 || len2 == 0.0
}

impl Report {
    /// The reading to use: the best clean one, else (lenient) the best that decodes with
    /// trailing bytes ignored, else, when none decodes, the one [`Report::partly`] finds.
    pub fn best(&self) -> Option<&Reading> {
        let first = self.readings.first()?;
        if first.is_clean() || (self.lenient && first.decodes()) {
            return Some(first);
        }
        if first.decodes() {
            return None;
        }
        self.partly()
    }

    /// A stream reading whose only failures are values that do not decode in intact frames
    /// and the input ending inside its last frame, which decodes more frames than it fails
    /// and shows no sign of a misreading (see the module doc): the one that decodes the most
    /// values.
    fn partly(&self) -> Option<&Reading> {
        self.readings
            .iter()
            .filter(|r| {
                r.error.is_some()
                    && r.framing != FramingArg::None
                    && !r.framing_broken
                    && r.values > r.bad_frames
                    // Signs of a misreading (a Godot 3 capture read as Godot 4 decodes most
                    // frames, with trailing bytes in them).
                    && r.trailing_records == 0
                    && r.evidence.total() == 0
            })
            .min_by_key(|r| (std::cmp::Reverse(r.values), r.rank()))
    }

    fn decoding(&self) -> impl Iterator<Item = &Reading> {
        self.readings
            .iter()
            .filter(move |r| r.is_clean() || (self.lenient && r.decodes()))
    }

    /// Lines for stderr: the choice and why, then the alternatives.
    pub fn explain(&self) -> Vec<String> {
        let Some(best) = self.best() else {
            return Vec::new();
        };
        if best.error.is_some() {
            return vec![format!(
                "auto: read as {}: no reading decodes the whole input; in this one {}",
                best.summary(),
                best.failures()
            )];
        }
        let others: Vec<&Reading> = self.decoding().skip(1).collect();
        let mut lines = Vec::new();
        match others.first() {
            None if best.same.is_empty() => lines.push(format!(
                "auto: read as {}: the only reading that decodes the whole input",
                best.summary()
            )),
            None => lines.push(format!(
                "auto: read as {}: every reading that decodes the input reads the same values",
                best.summary()
            )),
            Some(next) => {
                let why = if next.trailing_records > best.trailing_records {
                    format!(
                        "{} ignores trailing bytes, this reading does not",
                        next.options()
                    )
                } else if next.evidence.total() > best.evidence.total() {
                    format!(
                        "as {} there would be {}",
                        next.options(),
                        next.evidence.describe().join(", ")
                    )
                } else {
                    "nothing in the data tells them apart; this is the more common engine line \
                     (check what wrote it)"
                        .to_string()
                };
                lines.push(format!(
                    "auto: read as {}, the most likely of {} readings that decode the input: {why}",
                    best.summary(),
                    others.len() + 1
                ));
                let alts: Vec<String> = others.iter().map(|r| r.summary()).collect();
                lines.push(format!("auto: also decodes as {}", alts.join("; ")));
            }
        }
        lines
    }

    /// The furthest failing reading, for messages when none decodes.
    fn furthest(&self) -> Option<&Reading> {
        self.readings
            .iter()
            .filter(|r| r.error.is_some())
            .max_by_key(|r| {
                (
                    r.error.as_ref().map_or(0, |e| e.0),
                    std::cmp::Reverse(r.rank()),
                )
            })
    }

    /// The error message when no reading decodes the input.
    pub fn nothing_decodes(&self, wire: &WireArgs) -> String {
        let tried = match (wire.dialect, wire.framing) {
            (DialectChoice::Auto, FramingArg::Auto) => "no dialect and framing decodes it",
            (DialectChoice::Auto, _) => "no dialect decodes it with this framing",
            _ => "no framing decodes it with this dialect",
        };
        match self.furthest() {
            Some(r) => {
                let (at, msg) = r.error.clone().unwrap_or_default();
                format!(
                    "{tried} (the furthest reading, {}, decodes {} value{} then: {msg} at byte {at})",
                    r.options(),
                    r.decoded_before_error(),
                    if r.decoded_before_error() == 1 { "" } else { "s" }
                )
            }
            None => tried.to_string(),
        }
    }

    /// A second line for a failure with a fixed dialect and framing.
    pub fn hint(&self) -> String {
        let clean: Vec<String> = self.decoding().map(|r| r.summary()).collect();
        if let (true, Some(r)) = (clean.is_empty(), self.partly()) {
            let decode = match r.values {
                1 => "1 value decodes".to_string(),
                n => format!("{n} values decode"),
            };
            let question = if r.bad_frames == 0 {
                ": was it cut short?"
            } else {
                ""
            };
            return format!(
                "hint: as {} {decode}; {}{question}",
                r.options(),
                r.failures()
            );
        }
        match clean.len() {
            0 => {
                let furthest = match self.furthest() {
                    Some(r) => format!(
                        " (the furthest, {}, decodes {} value{} before failing)",
                        r.options(),
                        r.decoded_before_error(),
                        if r.decoded_before_error() == 1 {
                            ""
                        } else {
                            "s"
                        }
                    ),
                    None => String::new(),
                };
                format!(
                    "hint: no dialect and framing decodes this input cleanly{furthest}; is it \
                     Variant binary data?"
                )
            }
            1 => format!(
                "hint: it decodes cleanly as {} (or let --dialect auto choose)",
                clean[0]
            ),
            n => format!(
                "hint: {n} readings decode it cleanly, most likely {}; also {} (--dialect auto \
                 explains the choice)",
                clean[0],
                clean[1..].join("; ")
            ),
        }
    }
}

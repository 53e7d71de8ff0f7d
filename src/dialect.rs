//! Dialects: which wire id means which type, and the rules that differ between engine lines.
//!
//! There is no version marker on the wire, so the caller chooses the dialect. Reader and writer
//! never match on raw ids: they ask the dialect (`type_of` / `wire_id`) and its rule flags.

use core::fmt;

use crate::header::FLAG_64;
use crate::variant_type::{PayloadRule, VariantType};

/// How the text of string blocks is checked, as the engine's UTF-8 parser of that line does.
///
/// ```
/// use gdwire::{from_bytes, Dialect};
/// // A lone surrogate (ED A0 80): Godot 3 accepts it, Godot 4 does not.
/// let s = [4, 0, 0, 0, 3, 0, 0, 0, 0xED, 0xA0, 0x80, 0];
/// assert!(from_bytes(Dialect::GODOT_3, &s).is_ok());
/// assert!(from_bytes(Dialect::GODOT_4, &s).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextRules {
    /// Godot 4 and Pandemonium `parse_utf8`: strict UTF-8 (no surrogates, nothing above
    /// U+10FFFF, no overlong forms).
    Strict,
    /// Godot 3 `String::parse_utf8`: rejects bad lead and continuation bytes, truncated
    /// sequences and some overlong forms, but accepts UTF-8-encoded surrogates, code points
    /// above U+10FFFF and 5/6-byte sequences.
    Godot3,
}

/// The engine line a dialect belongs to.
///
/// ```
/// use gdwire::{Dialect, Family};
/// let godot4 = Dialect::ALL.iter().filter(|d| d.family() == Family::Godot4).count();
/// assert_eq!(godot4, 7);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Godot 3.x.
    Godot3,
    /// Godot 4.x.
    Godot4,
    /// The Pandemonium fork of Godot 3.
    Pandemonium,
}

struct DialectInfo {
    name: &'static str,
    family: Family,
    /// Index = wire id; length = the engine's `VARIANT_MAX`.
    wire: &'static [VariantType],
    /// Index = `VariantType as usize`; `NO_ID` when the dialect lacks the type.
    from_logical: [u8; VariantType::COUNT],
    rid_payload: bool,
    math_flag_64: bool,
    typed_arrays: bool,
    typed_dictionaries: bool,
    text: TextRules,
    /// The Godot 4 minor version (`NOT_GODOT4` for the other families): the rules that
    /// changed between 4.x releases without a new wire id are read off it.
    godot4_minor: u8,
    /// What a header with bit 16 clear starts, by type byte, for the skip's hottest lookup
    /// (one load instead of a branch per type): the payload bytes of a fixed-size type,
    /// `SHAPE_TEXT` for String and StringName, `SHAPE_OTHER` for the rest and for unknown
    /// ids.
    shapes: [u8; 256],
    /// `shapes` with the rule the canonical form asks of a fixed-size payload in the size's
    /// two low bits (`PayloadRule::fixed_code`; sizes are whole words), for the skip of a
    /// decode that notes canonical bytes as it goes: one jump gives the size and the rule.
    canonical_shapes: [u8; 256],
    /// What the canonical form asks of the payload, by type byte (bits 8–31 clear).
    payload_rules: [PayloadRule; 256],
    /// `wire` by type byte, `None` past its end: the readers' hottest lookup in one load,
    /// with no length to compare.
    types: [Option<VariantType>; 256],
}

const NO_ID: u8 = 0xFF;
/// `DialectInfo::godot4_minor` of the Godot 3 and Pandemonium dialects.
const NOT_GODOT4: u8 = 0xFF;
/// [`Dialect::shape_code`] of a String or StringName block.
pub(crate) const SHAPE_TEXT: u8 = 0xFE;
/// [`Dialect::shape_code`] of anything that is neither a fixed-size value nor a string
/// block, of an unknown id, and of a header with bit 16 set.
pub(crate) const SHAPE_OTHER: u8 = 0xFF;

/// The payload widths header bit 16 selects: (Int and Float, one math component, a RID).
pub(crate) const fn payload_widths(
    flag_64: bool,
    math_flag_64: bool,
    rid_payload: bool,
) -> (usize, usize, usize) {
    let int = if flag_64 { 8 } else { 4 };
    let real = if flag_64 && math_flag_64 { 8 } else { 4 };
    (int, real, if rid_payload { 8 } else { 0 })
}

const fn shapes(wire: &[VariantType], rid_payload: bool, math_flag_64: bool) -> [u8; 256] {
    let mut out = [SHAPE_OTHER; 256];
    let (int, real, rid) = payload_widths(false, math_flag_64, rid_payload);
    let mut id = 0;
    while id < wire.len() {
        out[id] = match wire[id] {
            VariantType::String | VariantType::StringName => SHAPE_TEXT,
            ty => match ty.fixed_payload(int, real, rid) {
                Some(size) => {
                    // Sizes must stay clear of the two codes (the largest is 64).
                    assert!(size < SHAPE_TEXT as usize);
                    size as u8
                }
                None => SHAPE_OTHER,
            },
        };
        id += 1;
    }
    out
}

/// [`shapes`] with each fixed-size payload's canonical rule in its size's two low bits.
const fn canonical_shapes(wire: &[VariantType], shapes: [u8; 256]) -> [u8; 256] {
    let mut out = shapes;
    let mut id = 0;
    while id < wire.len() {
        let size = shapes[id];
        if size != SHAPE_TEXT && size != SHAPE_OTHER {
            assert!(size % 4 == 0);
            out[id] = match wire[id].payload_rule().fixed_code() {
                Some(code) => size | code,
                // Not a rule of fixed-size payloads: the general path and check.
                None => SHAPE_OTHER,
            };
        }
        id += 1;
    }
    out
}

const fn types(wire: &[VariantType]) -> [Option<VariantType>; 256] {
    let mut out = [None; 256];
    let mut id = 0;
    while id < wire.len() {
        out[id] = Some(wire[id]);
        id += 1;
    }
    out
}

const fn payload_rules(wire: &[VariantType]) -> [PayloadRule; 256] {
    let mut out = [PayloadRule::Rebuilt; 256];
    let mut id = 0;
    while id < wire.len() {
        out[id] = wire[id].payload_rule();
        id += 1;
    }
    out
}

const fn invert(wire: &[VariantType]) -> [u8; VariantType::COUNT] {
    let mut out = [NO_ID; VariantType::COUNT];
    let mut id = 0;
    while id < wire.len() {
        // One id per type: a type read from a header is written back with the same id
        // (`read/canonical.rs` relies on it).
        assert!(out[wire[id] as usize] == NO_ID, "a type with two wire ids");
        out[wire[id] as usize] = id as u8;
        id += 1;
    }
    out
}

use VariantType as T;

/// Godot 3.x `Variant::Type` (docs/wire-format.md §2); also Pandemonium before its first tag.
const GODOT3_IDS: [VariantType; 27] = [
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Vector2,
    T::Rect2,
    T::Vector3,
    T::Transform2D,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Color,
    T::NodePath,
    T::Rid,
    T::Object,
    T::Dictionary,
    T::Array,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedFloat32Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector3Array,
    T::PackedColorArray,
];

/// Godot 4.x `Variant::Type` (docs/wire-format.md §2); 4.0–4.2 stop before `PackedVector4Array`.
const GODOT4_IDS: [VariantType; 39] = [
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Vector2,
    T::Vector2i,
    T::Rect2,
    T::Rect2i,
    T::Vector3,
    T::Vector3i,
    T::Transform2D,
    T::Vector4,
    T::Vector4i,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Projection,
    T::Color,
    T::StringName,
    T::NodePath,
    T::Rid,
    T::Object,
    T::Callable,
    T::Signal,
    T::Dictionary,
    T::Array,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedInt64Array,
    T::PackedFloat32Array,
    T::PackedFloat64Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector3Array,
    T::PackedColorArray,
    T::PackedVector4Array,
];

/// Pandemonium v3.5.0 … v3.7.x (docs/wire-format.md §2, Pandemonium 3.5–3.7).
const PANDEMONIUM_A_IDS: [VariantType; 33] = [
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Vector2,
    T::Vector2i,
    T::Rect2,
    T::Rect2i,
    T::Vector3,
    T::Vector3i,
    T::Transform2D,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Color,
    T::NodePath,
    T::Rid,
    T::Object,
    T::StringName,
    T::Dictionary,
    T::Array,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedFloat32Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector2iArray,
    T::PackedVector3Array,
    T::PackedVector3iArray,
    T::PackedColorArray,
];

/// Pandemonium v3.8.0 … v4.9.x (docs/wire-format.md §2, Pandemonium 3.8–4.9).
const PANDEMONIUM_B_IDS: [VariantType; 38] = [
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Rect2,
    T::Rect2i,
    T::Vector2,
    T::Vector2i,
    T::Vector3,
    T::Vector3i,
    T::Vector4,
    T::Vector4i,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Transform2D,
    T::Projection,
    T::Color,
    T::NodePath,
    T::Rid,
    T::Object,
    T::StringName,
    T::Dictionary,
    T::Array,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedFloat32Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector2iArray,
    T::PackedVector3Array,
    T::PackedVector3iArray,
    T::PackedVector4Array,
    T::PackedVector4iArray,
    T::PackedColorArray,
];

/// Pandemonium v5.0.0 … (docs/wire-format.md §2, Pandemonium 5): the 3.8 table with `TypedArray` / `PackedTypedArray` inserted.
const PANDEMONIUM_C_IDS: [VariantType; 40] = [
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Rect2,
    T::Rect2i,
    T::Vector2,
    T::Vector2i,
    T::Vector3,
    T::Vector3i,
    T::Vector4,
    T::Vector4i,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Transform2D,
    T::Projection,
    T::Color,
    T::NodePath,
    T::Rid,
    T::Object,
    T::StringName,
    T::Dictionary,
    T::Array,
    T::TypedArray,
    T::PackedTypedArray,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedFloat32Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector2iArray,
    T::PackedVector3Array,
    T::PackedVector3iArray,
    T::PackedVector4Array,
    T::PackedVector4iArray,
    T::PackedColorArray,
];

macro_rules! info {
    ($name:literal, $family:ident, $ids:expr, rid: $rid:literal, flag64: $f64:literal,
     typed_arrays: $ta:literal, typed_dicts: $td:literal, text: $text:ident) => {
        info!($name, $family, $ids, rid: $rid, flag64: $f64, typed_arrays: $ta,
              typed_dicts: $td, text: $text, godot4_minor: NOT_GODOT4)
    };
    ($name:literal, $family:ident, $ids:expr, rid: $rid:literal, flag64: $f64:literal,
     typed_arrays: $ta:literal, typed_dicts: $td:literal, text: $text:ident,
     godot4_minor: $minor:expr) => {
        DialectInfo {
            name: $name,
            family: Family::$family,
            wire: $ids,
            from_logical: invert($ids),
            rid_payload: $rid,
            math_flag_64: $f64,
            typed_arrays: $ta,
            typed_dictionaries: $td,
            text: TextRules::$text,
            godot4_minor: $minor,
            shapes: shapes($ids, $rid, $f64),
            canonical_shapes: canonical_shapes($ids, shapes($ids, $rid, $f64)),
            payload_rules: payload_rules($ids),
            types: types($ids),
        }
    };
}

static GODOT3: DialectInfo = info!("godot3", Godot3, &GODOT3_IDS,
    rid: false, flag64: false, typed_arrays: false, typed_dicts: false, text: Godot3);
// 4.0, 4.1 and 4.2 are engine-checked and agree on the wire (docs/engine-parity.md).
static GODOT4_0: DialectInfo = info!("godot4.0", Godot4, GODOT4_IDS.split_at(38).0,
    rid: true, flag64: true, typed_arrays: false, typed_dicts: false, text: Strict,
    godot4_minor: 0);
static GODOT4_1: DialectInfo = info!("godot4.1", Godot4, GODOT4_IDS.split_at(38).0,
    rid: true, flag64: true, typed_arrays: false, typed_dicts: false, text: Strict,
    godot4_minor: 1);
static GODOT4_2: DialectInfo = info!("godot4.2", Godot4, GODOT4_IDS.split_at(38).0,
    rid: true, flag64: true, typed_arrays: false, typed_dicts: false, text: Strict,
    godot4_minor: 2);
static GODOT4_3: DialectInfo = info!("godot4.3", Godot4, &GODOT4_IDS,
    rid: true, flag64: true, typed_arrays: true, typed_dicts: false, text: Strict,
    godot4_minor: 3);
static GODOT4_4: DialectInfo = info!("godot4.4", Godot4, &GODOT4_IDS,
    rid: true, flag64: true, typed_arrays: true, typed_dicts: true, text: Strict,
    godot4_minor: 4);
// The wire format of 4.4; the text form's floats changed (engine-checked with 4.4.1 and 4.6).
static GODOT4_5: DialectInfo = info!("godot4.5", Godot4, &GODOT4_IDS,
    rid: true, flag64: true, typed_arrays: true, typed_dicts: true, text: Strict,
    godot4_minor: 5);
// The wire format of 4.4; the text form of a NodePath's subnames changed (engine-checked).
static GODOT4_6: DialectInfo = info!("godot4.6", Godot4, &GODOT4_IDS,
    rid: true, flag64: true, typed_arrays: true, typed_dicts: true, text: Strict,
    godot4_minor: 6);
static PANDEMONIUM_A: DialectInfo = info!("pandemonium3.5", Pandemonium, &PANDEMONIUM_A_IDS,
    rid: false, flag64: false, typed_arrays: false, typed_dicts: false, text: Strict);
static PANDEMONIUM_B: DialectInfo = info!("pandemonium3.8", Pandemonium, &PANDEMONIUM_B_IDS,
    rid: false, flag64: false, typed_arrays: false, typed_dicts: false, text: Strict);
static PANDEMONIUM_C: DialectInfo = info!("pandemonium5", Pandemonium, &PANDEMONIUM_C_IDS,
    rid: false, flag64: false, typed_arrays: false, typed_dicts: false, text: Strict);

/// A wire dialect: the id table and rules of one engine line.
///
/// `Dialect` is one pointer wide and `Copy`. Pick it from the constants; there is no way to
/// detect it from the bytes.
///
/// ```
/// use gdwire::{Dialect, VariantType};
/// assert_eq!(Dialect::GODOT_4.type_of(28), Some(VariantType::Array));
/// assert_eq!(Dialect::GODOT_3.type_of(19), Some(VariantType::Array));
/// assert_eq!(Dialect::GODOT_3.wire_id(VariantType::Vector2i), None);
/// assert_eq!(Dialect::from_name("godot4.2"), Some(Dialect::GODOT_4_2));
/// ```
#[derive(Clone, Copy)]
pub struct Dialect(&'static DialectInfo);

impl Dialect {
    /// Godot 3.1 – 3.6 (3.0 output also reads: the decoder follows the 64-bit flag).
    ///
    /// ```
    /// use gdwire::{Dialect, Family};
    /// assert_eq!(Dialect::GODOT_3.family(), Family::Godot3);
    /// assert_eq!(Dialect::GODOT_3.variant_max(), 27);
    /// ```
    pub const GODOT_3: Dialect = Dialect(&GODOT3);
    /// Godot 4.0 (the wire rules of 4.2; its text form prints RIDs, Callables and Signals as
    /// nothing).
    ///
    /// ```
    /// use gdwire::{Dialect, VariantType};
    /// assert_eq!(Dialect::GODOT_4_0.wire_id(VariantType::Array), Dialect::GODOT_4_2.wire_id(VariantType::Array));
    /// assert!(!Dialect::GODOT_4_0.has_typed_arrays());
    /// ```
    pub const GODOT_4_0: Dialect = Dialect(&GODOT4_0);
    /// Godot 4.1 (the wire rules of 4.2).
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert_eq!(Dialect::GODOT_4_1.variant_max(), Dialect::GODOT_4_2.variant_max());
    /// ```
    pub const GODOT_4_1: Dialect = Dialect(&GODOT4_1);
    /// Godot 4.2: 38 types, RID payload, 64-bit math flag, no typed containers.
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert_eq!(Dialect::GODOT_4_2.variant_max(), 38);
    /// assert!(Dialect::GODOT_4_2.rid_has_payload());
    /// ```
    pub const GODOT_4_2: Dialect = Dialect(&GODOT4_2);
    /// Godot 4.3: adds typed arrays and `PackedVector4Array`.
    ///
    /// ```
    /// use gdwire::{Dialect, VariantType};
    /// assert!(Dialect::GODOT_4_3.has_typed_arrays());
    /// assert!(Dialect::GODOT_4_3.supports(VariantType::PackedVector4Array));
    /// ```
    pub const GODOT_4_3: Dialect = Dialect(&GODOT4_3);
    /// Godot 4.4: adds typed dictionaries.
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert!(Dialect::GODOT_4_4.has_typed_dictionaries());
    /// ```
    pub const GODOT_4_4: Dialect = Dialect(&GODOT4_4);
    /// Godot 4.5: the wire format of 4.4; the text form prints floats as their shortest
    /// round-trip digits (`0.3333333333333333` where 4.4 prints `0.333333`).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, to_vec, Dialect, VariantRef};
    /// let third = VariantRef::Float(1.0 / 3.0);
    /// let bytes = to_vec(Dialect::GODOT_4_5, &third)?;
    /// assert_eq!(bytes, to_vec(Dialect::GODOT_4_4, &third)?); // the same wire format
    /// let print = |d| text::to_text(d, &from_bytes(d, &bytes).unwrap()).unwrap();
    /// assert_eq!(print(Dialect::GODOT_4_5), "0.3333333333333333");
    /// assert_eq!(print(Dialect::GODOT_4_4), "0.333333");
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub const GODOT_4_5: Dialect = Dialect(&GODOT4_5);
    /// Godot 4.6 and newer: the wire format of 4.4 and the text form of 4.5, but for a
    /// NodePath whose one subname is empty, which prints without its `:` (4.6 writes the
    /// subnames as their cached join).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, to_vec, Dialect};
    /// use gdwire::owned::{NodePath, Variant};
    /// let path = Variant::NodePath(NodePath::new(["a"], [""], false));
    /// let bytes = path.to_vec(Dialect::GODOT_4_6)?;
    /// assert_eq!(bytes, path.to_vec(Dialect::GODOT_4_5)?); // the same wire format
    /// let print = |d| text::to_text(d, &from_bytes(d, &bytes).unwrap()).unwrap();
    /// assert_eq!(print(Dialect::GODOT_4_6), "NodePath(\"a\")");
    /// assert_eq!(print(Dialect::GODOT_4_5), "NodePath(\"a:\")");
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub const GODOT_4_6: Dialect = Dialect(&GODOT4_6);
    /// The newest Godot 4 rules (currently [`Dialect::GODOT_4_6`]).
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert_eq!(Dialect::GODOT_4, Dialect::GODOT_4_6);
    /// assert_eq!(Dialect::from_name("godot4"), Some(Dialect::GODOT_4));
    /// ```
    pub const GODOT_4: Dialect = Dialect::GODOT_4_6;
    /// Pandemonium v3.5 – v3.7 (adds Vector2i, Rect2i, Vector3i, StringName; renumbered).
    ///
    /// ```
    /// use gdwire::{Dialect, Family, VariantType};
    /// assert_eq!(Dialect::PANDEMONIUM_3_5.family(), Family::Pandemonium);
    /// assert!(Dialect::PANDEMONIUM_3_5.supports(VariantType::Vector2i));
    /// ```
    pub const PANDEMONIUM_3_5: Dialect = Dialect(&PANDEMONIUM_A);
    /// Pandemonium v3.8 – v4.9 (adds Vector4(i), Projection, PoolVector4(i)Array; renumbered).
    ///
    /// ```
    /// use gdwire::{Dialect, VariantType};
    /// assert!(Dialect::PANDEMONIUM_3_8.supports(VariantType::Projection));
    /// assert!(!Dialect::PANDEMONIUM_3_5.supports(VariantType::Projection));
    /// ```
    pub const PANDEMONIUM_3_8: Dialect = Dialect(&PANDEMONIUM_B);
    /// Pandemonium v5.0 and newer (adds TypedArray, PackedTypedArray; renumbered).
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert_eq!(Dialect::from_name("pandemonium5"), Some(Dialect::PANDEMONIUM_5));
    /// ```
    pub const PANDEMONIUM_5: Dialect = Dialect(&PANDEMONIUM_C);

    /// Every distinct dialect, oldest first within each family.
    ///
    /// ```
    /// use gdwire::Dialect;
    /// let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
    /// assert_eq!(names[0], "godot3");
    /// assert!(names.contains(&"pandemonium3.8"));
    /// ```
    pub const ALL: [Dialect; 11] = [
        Dialect::GODOT_3,
        Dialect::GODOT_4_0,
        Dialect::GODOT_4_1,
        Dialect::GODOT_4_2,
        Dialect::GODOT_4_3,
        Dialect::GODOT_4_4,
        Dialect::GODOT_4_5,
        Dialect::GODOT_4_6,
        Dialect::PANDEMONIUM_3_5,
        Dialect::PANDEMONIUM_3_8,
        Dialect::PANDEMONIUM_5,
    ];

    /// Looks a dialect up by its name: `godot3`, `godot4.0` … `godot4.6`, newer `godot4.N`
    /// (aliases of the newest rules), `godot4`, `pandemonium3.5`, `pandemonium3.8`,
    /// `pandemonium5`.
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert_eq!(Dialect::from_name("godot4.3"), Some(Dialect::GODOT_4_3));
    /// assert_eq!(Dialect::from_name("godot4.7"), Some(Dialect::GODOT_4)); // newest rules
    /// assert_eq!(Dialect::from_name("godot5"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Dialect> {
        if name == "godot4" {
            return Some(Dialect::GODOT_4);
        }
        if let Some(found) = Dialect::ALL.iter().find(|d| d.name() == name) {
            return Some(*found);
        }
        // Newer 4.x minors carry the newest known rules.
        let minor = name.strip_prefix("godot4.")?;
        let minor: u32 = minor.parse().ok()?;
        (minor > 6).then_some(Dialect::GODOT_4)
    }

    /// The dialect's name, as accepted by [`Dialect::from_name`].
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert_eq!(Dialect::GODOT_4_2.name(), "godot4.2");
    /// assert_eq!(Dialect::GODOT_4.to_string(), "godot4.6");
    /// ```
    pub const fn name(self) -> &'static str {
        self.0.name
    }

    /// The engine line.
    ///
    /// ```
    /// use gdwire::{Dialect, Family};
    /// assert_eq!(Dialect::GODOT_4_0.family(), Family::Godot4);
    /// ```
    pub const fn family(self) -> Family {
        self.0.family
    }

    /// The engine's `VARIANT_MAX`: wire ids at or above it are rejected.
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert_eq!(Dialect::GODOT_3.variant_max(), 27);
    /// assert_eq!(Dialect::GODOT_4_4.variant_max(), 39);
    /// ```
    pub const fn variant_max(self) -> u8 {
        self.0.wire.len() as u8
    }

    /// The logical type for a wire id (the low byte of a header).
    ///
    /// ```
    /// use gdwire::{Dialect, VariantType};
    /// assert_eq!(Dialect::GODOT_3.type_of(14), Some(VariantType::Color));
    /// assert_eq!(Dialect::GODOT_4.type_of(14), Some(VariantType::Plane));
    /// assert_eq!(Dialect::GODOT_3.type_of(27), None);
    /// ```
    #[inline(always)]
    pub fn type_of(self, wire_id: u8) -> Option<VariantType> {
        self.0.types[wire_id as usize]
    }

    /// [`Dialect::type_of`] read from the list of wire ids (a length compare and a load)
    /// instead of the table: the same answer. The validating skip's loop (`quick_other`)
    /// compiles to 1–2 % fewer instructions with it (register allocation; measured in
    /// docs/dev/performance-history.md, "Twelfth round"), so it keeps this form.
    #[inline(always)]
    pub(crate) fn type_of_listed(self, wire_id: u8) -> Option<VariantType> {
        self.0.wire.get(wire_id as usize).copied()
    }

    /// The wire id of a logical type, `None` when the dialect lacks it.
    ///
    /// ```
    /// use gdwire::{Dialect, VariantType};
    /// assert_eq!(Dialect::GODOT_4.wire_id(VariantType::Dictionary), Some(27));
    /// assert_eq!(Dialect::GODOT_3.wire_id(VariantType::Dictionary), Some(18));
    /// ```
    #[inline]
    pub const fn wire_id(self, ty: VariantType) -> Option<u8> {
        match self.0.from_logical[ty as usize] {
            NO_ID => None,
            id => Some(id),
        }
    }

    /// True when the dialect has the type.
    ///
    /// ```
    /// use gdwire::{Dialect, VariantType};
    /// assert!(Dialect::GODOT_4.supports(VariantType::Callable));
    /// assert!(!Dialect::GODOT_3.supports(VariantType::Callable));
    /// ```
    pub const fn supports(self, ty: VariantType) -> bool {
        self.wire_id(ty).is_some()
    }

    /// RID carries a `u64` id (Godot 4); otherwise it is a bare header.
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert!(Dialect::GODOT_4.rid_has_payload());
    /// assert!(!Dialect::GODOT_3.rid_has_payload());
    /// ```
    pub const fn rid_has_payload(self) -> bool {
        self.0.rid_payload
    }

    /// Header bit 16 selects `f64` components for math types and packed vector arrays
    /// (Godot 4, written by double-precision builds). Int and Float follow bit 16 in every
    /// dialect regardless.
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert!(Dialect::GODOT_4.math_follows_flag_64());
    /// assert!(!Dialect::GODOT_3.math_follows_flag_64());
    /// ```
    pub const fn math_follows_flag_64(self) -> bool {
        self.0.math_flag_64
    }

    /// What a header starts, as far as the skip's quick path needs to know: the payload size
    /// of a fixed-size value, [`SHAPE_TEXT`] or [`SHAPE_OTHER`]. Headers with bit 16 set
    /// (64-bit ints and floats, double-precision math) are `SHAPE_OTHER`: keeping that bit
    /// out of the table index keeps the lookup one load after the header's.
    #[inline(always)]
    pub(crate) fn shape_code(self, header: u32) -> u8 {
        if header & FLAG_64 != 0 {
            return SHAPE_OTHER;
        }
        self.0.shapes[(header & 0xFF) as usize]
    }

    /// [`Dialect::shape_code`], with a fixed-size payload's canonical rule in the two low bits
    /// (`PayloadRule::fixed_code`; the size is the code with them cleared). A type whose
    /// payload rule is of another kind is `SHAPE_OTHER` here.
    #[inline(always)]
    pub(crate) fn canonical_shape_code(self, header: u32) -> u8 {
        if header & FLAG_64 != 0 {
            return SHAPE_OTHER;
        }
        self.0.canonical_shapes[(header & 0xFF) as usize]
    }

    /// What the canonical form asks of the payload of a value whose header (bits 8–31
    /// clear) is `type_byte` (`read/canonical.rs`).
    #[inline(always)]
    pub(crate) fn payload_rule(self, type_byte: u8) -> PayloadRule {
        self.0.payload_rules[type_byte as usize]
    }

    /// Arrays carry a container-type block selected by header bits 16–17 (Godot 4.3+).
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert!(Dialect::GODOT_4_3.has_typed_arrays());
    /// assert!(!Dialect::GODOT_4_2.has_typed_arrays());
    /// ```
    pub const fn has_typed_arrays(self) -> bool {
        self.0.typed_arrays
    }

    /// Dictionaries carry key/value container-type blocks (Godot 4.4+).
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert!(Dialect::GODOT_4_4.has_typed_dictionaries());
    /// assert!(!Dialect::GODOT_4_3.has_typed_dictionaries());
    /// ```
    pub const fn has_typed_dictionaries(self) -> bool {
        self.0.typed_dictionaries
    }

    /// A full object's `script` property must be nil or a `res://` path String, and the
    /// engine writes a scripted object's script as that path: Godot 4.3 and newer (the same
    /// release as typed arrays, whose script element types are paths too). Godot 4.0–4.2
    /// accept any value there, and write the script as a full `GDScript` object.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, ErrorKind};
    /// // Object(RefCounted, "script": 5), as full objects.
    /// let mut bytes = vec![24, 0, 0, 0, 10, 0, 0, 0];
    /// bytes.extend(b"RefCounted\0\0");
    /// bytes.extend([1, 0, 0, 0, 6, 0, 0, 0]);
    /// bytes.extend(b"script\0\0");
    /// bytes.extend([2, 0, 0, 0, 5, 0, 0, 0]);
    /// let decode = |d| Decoder::new(d).with_allow_objects(true).decode(&bytes).map(|_| ());
    /// assert!(Dialect::GODOT_4_3.checks_script_property());
    /// assert_eq!(decode(Dialect::GODOT_4_3).unwrap_err().kind(), ErrorKind::InvalidScriptProperty);
    /// assert!(decode(Dialect::GODOT_4_2).is_ok());
    /// ```
    pub const fn checks_script_property(self) -> bool {
        self.godot4_since(3)
    }

    /// A NodePath with no names and no subnames keeps its absolute bit (`NodePath("/")`):
    /// Godot 4.3 and newer. Godot 3, Godot 4.0–4.2 and Pandemonium build the empty, relative
    /// path from those bytes (their NodePath constructor drops the bit when there are no
    /// components; fixed in the same release as typed arrays).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // NodePath("/"): no names, no subnames, the absolute bit.
    /// let bytes = [22, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 1, 0, 0, 0];
    /// assert!(Dialect::GODOT_4_3.keeps_empty_absolute_node_path());
    /// assert!(from_bytes(Dialect::GODOT_4_3, &bytes)?.as_node_path().unwrap().is_absolute());
    /// assert!(!from_bytes(Dialect::GODOT_4_2, &bytes)?.as_node_path().unwrap().is_absolute());
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub const fn keeps_empty_absolute_node_path(self) -> bool {
        self.godot4_since(3)
    }

    /// The text form ([`crate::text`]) prints floats as their shortest round-trip digits
    /// (Grisu2, Godot 4.5 and newer); older engines print six significant digits (`%g`).
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert!(Dialect::GODOT_4.prints_shortest_floats());
    /// assert!(!Dialect::GODOT_4_4.prints_shortest_floats());
    /// ```
    pub const fn prints_shortest_floats(self) -> bool {
        self.godot4_since(5)
    }

    /// Whether the text form writes a NodePath's subnames as their join (Godot 4.6+): a path
    /// whose one subname is empty then prints no `:`.
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert!(Dialect::GODOT_4.joins_node_path_subnames());
    /// assert!(!Dialect::GODOT_4_5.joins_node_path_subnames());
    /// ```
    pub const fn joins_node_path_subnames(self) -> bool {
        self.godot4_since(6)
    }

    /// Whether `self` and `other` read and write bytes the same way: the same type ids and
    /// every rule of the wire (they may differ in the text form only, as Godot 4.0, 4.1 and
    /// 4.2 do, and 4.4, 4.5 and 4.6). Decoding, validating and encoding in one give what they
    /// give in the other.
    ///
    /// ```
    /// use gdwire::Dialect;
    /// assert!(Dialect::GODOT_4_6.same_wire_format(Dialect::GODOT_4_4));
    /// assert!(Dialect::GODOT_4_0.same_wire_format(Dialect::GODOT_4_2));
    /// assert!(!Dialect::GODOT_4_4.same_wire_format(Dialect::GODOT_4_3)); // typed dictionaries
    /// assert!(!Dialect::GODOT_4_3.same_wire_format(Dialect::GODOT_4_2)); // the script check
    /// ```
    pub fn same_wire_format(self, other: Dialect) -> bool {
        let (a, b) = (self.0, other.0);
        // Every rule the reader and writer consult (the minor version counts only through
        // the two rules below; the rest of it is the text form's).
        a.family == b.family
            && a.wire == b.wire
            && a.rid_payload == b.rid_payload
            && a.math_flag_64 == b.math_flag_64
            && a.typed_arrays == b.typed_arrays
            && a.typed_dictionaries == b.typed_dictionaries
            && a.text == b.text
            && self.checks_script_property() == other.checks_script_property()
            && self.keeps_empty_absolute_node_path() == other.keeps_empty_absolute_node_path()
    }

    /// The Godot 4 minor version whose rules this dialect follows (`GODOT_4_6`: 6, and newer
    /// engines); `None` for Godot 3 and Pandemonium. For the rules that changed between 4.x
    /// releases without a new wire id (text form quirks of 4.0 and 4.1, ...).
    pub(crate) const fn godot4_minor(self) -> Option<u8> {
        match self.0.godot4_minor {
            NOT_GODOT4 => None,
            minor => Some(minor),
        }
    }

    /// A Godot 4 dialect of minor `minor` or newer.
    const fn godot4_since(self, minor: u8) -> bool {
        match self.godot4_minor() {
            Some(m) => m >= minor,
            None => false,
        }
    }

    /// How string text is validated.
    ///
    /// ```
    /// use gdwire::{Dialect, TextRules};
    /// assert_eq!(Dialect::GODOT_3.text_rules(), TextRules::Godot3);
    /// assert_eq!(Dialect::GODOT_4.text_rules(), TextRules::Strict);
    /// ```
    pub const fn text_rules(self) -> TextRules {
        self.0.text
    }

    /// The type's name as this engine line spells it (`PoolIntArray` in Godot 3 and
    /// Pandemonium, `Quat` in Godot 3 and Pandemonium 3.5 – 3.7, the Godot 4 name otherwise).
    ///
    /// ```
    /// use gdwire::{Dialect, VariantType};
    /// assert_eq!(Dialect::GODOT_3.type_name(VariantType::PackedInt32Array), "PoolIntArray");
    /// assert_eq!(Dialect::GODOT_4.type_name(VariantType::PackedInt32Array), "PackedInt32Array");
    /// ```
    pub const fn type_name(self, ty: VariantType) -> &'static str {
        match self.0.family {
            Family::Godot4 => ty.name(),
            Family::Godot3 | Family::Pandemonium => match ty {
                T::Float => "float",
                // Pandemonium renamed it in 3.8, with its Vector4 types (engine-checked).
                T::Quaternion
                    if matches!(self.0.family, Family::Godot3) || !self.supports(T::Vector4) =>
                {
                    "Quat"
                }
                T::Transform3D => "Transform",
                T::PackedByteArray => "PoolByteArray",
                T::PackedInt32Array => "PoolIntArray",
                T::PackedFloat32Array => "PoolRealArray",
                T::PackedStringArray => "PoolStringArray",
                T::PackedVector2Array => "PoolVector2Array",
                T::PackedVector2iArray => "PoolVector2iArray",
                T::PackedVector3Array => "PoolVector3Array",
                T::PackedVector3iArray => "PoolVector3iArray",
                T::PackedVector4Array => "PoolVector4Array",
                T::PackedVector4iArray => "PoolVector4iArray",
                T::PackedColorArray => "PoolColorArray",
                other => other.name(),
            },
        }
    }
}

impl Default for Dialect {
    /// The newest Godot 4 rules.
    fn default() -> Self {
        Dialect::GODOT_4
    }
}

impl PartialEq for Dialect {
    fn eq(&self, other: &Self) -> bool {
        core::ptr::eq(self.0, other.0)
    }
}
impl Eq for Dialect {}

impl fmt::Debug for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Dialect({})", self.0.name)
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_round_trip_and_are_injective() {
        for d in Dialect::ALL {
            for id in 0..d.variant_max() {
                let ty = d.type_of(id).unwrap();
                assert_eq!(d.wire_id(ty), Some(id), "{d} id {id}");
            }
            assert_eq!(d.type_of(d.variant_max()), None);
        }
    }

    /// The table of types by byte says what the list of wire ids says (`type_of_listed`'s
    /// answer), for every byte.
    #[test]
    fn type_table_agrees_with_the_list() {
        for d in Dialect::ALL {
            for id in 0..=u8::MAX {
                let listed = d.0.wire.get(usize::from(id)).copied();
                assert_eq!(d.type_of(id), listed, "{d} id {id}");
            }
        }
    }

    #[test]
    fn variant_max_matches_spec() {
        let expect = [27, 38, 38, 38, 39, 39, 39, 39, 33, 38, 40];
        for (d, max) in Dialect::ALL.iter().zip(expect) {
            assert_eq!(d.variant_max(), max, "{d}");
        }
    }

    #[test]
    fn names_resolve() {
        for d in Dialect::ALL {
            assert_eq!(Dialect::from_name(d.name()), Some(d));
        }
        assert_eq!(Dialect::from_name("godot4.7"), Some(Dialect::GODOT_4));
        assert_eq!(Dialect::from_name("godot4"), Some(Dialect::GODOT_4_6));
        assert_eq!(Dialect::from_name("godot4.4"), Some(Dialect::GODOT_4_4));
        assert_eq!(Dialect::from_name("godot5"), None);
    }
}

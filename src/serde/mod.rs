//! serde support (feature `serde`): `#[derive(Serialize, Deserialize)]` types to and from
//! Godot's binary Variant format, in every dialect.
//!
//! - [`from_bytes`] / [`from_bytes_with`] deserialize one value; [`from_variant_ref`] takes
//!   an already decoded view; a [`Deserializer`] reads values back to back (a [`Cursor`]'s,
//!   or `store_var` frames with [`Deserializer::framed`]).
//! - [`to_vec`] / [`to_slice`] serialize one value; a [`Serializer`] writes into any
//!   [`Sink`] through the crate's [`Writer`], so the bytes are the engine's own for the same
//!   value (int and float widths, padding, the dialect's type ids).
//!
//! Deserializing borrows: `&'de str`, `&'de [u8]` and [`PackedRef`] fields point into the
//! input, and a struct made only of such fields and scalars deserializes without allocating.
//! Each value is read in one pass, validated as it goes.
//!
//! # Guide
//!
//! ## Decoding a Godot packet into a struct
//!
//! GDScript on the other end: `peer.put_var({"name": "Alice", "hp": 100, "pos":
//! Vector3(1, 2, 3), "inv": PackedInt32Array([7, 7, 9])})`.
//!
//! ```
//! use serde::Deserialize;
//! use gdwire::math::Vector3;
//! use gdwire::{Dialect, PackedRef};
//!
//! #[derive(Deserialize)]
//! struct State<'a> {
//!     name: &'a str,          // borrowed from the packet
//!     hp: f32,                // GDScript sent the int 100: exact, so accepted
//!     pos: Vector3,           // must be a Vector3 on the wire
//!     #[serde(borrow)]
//!     inv: PackedRef<'a, i32>, // the packed array in place, no copy
//! }
//! # let packet = gdwire::serde::to_vec(Dialect::GODOT_4, &serde_json::json!({
//! #     "name": "Alice", "hp": 100, "pos": [1.0, 2.0, 3.0], "inv": [7, 7, 9]}))?;
//! # let packet = { // the same value as the engine writes it
//! #     let mut out = Vec::new();
//! #     let mut w = gdwire::Writer::new(&mut out, Dialect::GODOT_4);
//! #     w.begin_dictionary(4)?;
//! #     w.string("name")?; w.string("Alice")?;
//! #     w.string("hp")?; w.int(100)?;
//! #     w.string("pos")?; w.vector3(Vector3 { x: 1.0, y: 2.0, z: 3.0 })?;
//! #     w.string("inv")?; w.packed_i32([7, 7, 9])?;
//! #     w.finish()?;
//! #     let _ = packet;
//! #     out
//! # };
//!
//! let state: State = gdwire::serde::from_bytes(Dialect::GODOT_4, &packet)?;
//! assert_eq!((state.name, state.hp), ("Alice", 100.0));
//! assert_eq!(state.pos, Vector3 { x: 1.0, y: 2.0, z: 3.0 });
//! assert_eq!(state.inv.iter().sum::<i32>(), 23);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A field the packet lacks fails with its name; a value of the wrong type fails with its
//! path and byte offset (see [`Error`]).
//!
//! ## Replying with a struct
//!
//! ```
//! use serde::Serialize;
//! use gdwire::math::Vector3;
//! use gdwire::Dialect;
//!
//! #[derive(Serialize)]
//! #[serde(tag = "op")] // {"op": "Spawn", "at": Vector3, "hp": 100}
//! enum Reply<'a> {
//!     Spawn { at: Vector3, hp: i32 },
//!     Chat { text: &'a str },
//! }
//!
//! let bytes = gdwire::serde::to_vec(
//!     Dialect::GODOT_4,
//!     &Reply::Spawn { at: Vector3 { x: 0.0, y: 1.0, z: 0.0 }, hp: 100 },
//! )?;
//! // GDScript: `var reply = peer.get_var()` gives a Dictionary; `reply.at` is a Vector3.
//! let dict = gdwire::from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
//! assert_eq!(dict.get_str("op")?.and_then(|v| v.as_str()), Some("Spawn"));
//! assert!(matches!(dict.get_str("at")?, Some(gdwire::VariantRef::Vector3(_))));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! For a `store_var` file or a `StreamPeer` stream, give a [`Writer`] with a length prefix
//! ([`Writer::with_length_prefix`]) to [`Serializer::from_writer`], and read it back with
//! [`Deserializer::framed`].
//!
//! ## Dynamic parts: `Variant` fields
//!
//! Where the shape is not fixed, a field of the owned [`Variant`](crate::owned::Variant)
//! takes any value, as `serde_json::Value` does for JSON. Through this crate's format it is
//! kept exactly (every type of every dialect, precision, typed containers), so the bytes
//! written are the engine's; other formats see plain data (`docs/serde.md`, section Owned
//! Variant).
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use std::collections::HashMap;
//! use gdwire::math::{Precision, Vector3};
//! use gdwire::owned::Variant;
//! use gdwire::Dialect;
//!
//! #[derive(Serialize, Deserialize)]
//! struct Rpc {
//!     method: String,
//!     args: Vec<Variant>,
//!     meta: HashMap<String, Variant>,
//! }
//!
//! let at = Variant::Vector3(Vector3 { x: 1.0, y: 0.0, z: -2.0 }, Precision::Single);
//! let rpc = Rpc { method: "spawn".into(), args: vec![at.clone(), 3.into()], meta: HashMap::new() };
//! let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &rpc)?;
//! // GDScript: `peer.get_var().args[0]` is a Vector3.
//! let back: Rpc = gdwire::serde::from_bytes(Dialect::GODOT_4, &bytes)?;
//! assert_eq!(back.args, [at, Variant::Int(3)]);
//! // serde_json: plain data.
//! assert_eq!(serde_json::to_string(&back.args)?, "[[1.0,0.0,-2.0],3]");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Views, the walker or serde?
//!
//! - **serde** when the shape is known and you want Rust types: the shortest code, checked
//!   field by field. It runs on the walker, at a few times the walker's cost
//!   (`docs/performance.md`, section serde).
//! - **views** ([`crate::from_bytes`] → [`VariantRef`]) when the shape is not known in
//!   advance, to look at a few fields of a large value (nothing else is decoded), or to pass
//!   values through unchanged ([`Writer::value`]). [`from_variant_ref`] hands any part of a
//!   view to serde.
//! - **the walker** ([`crate::read::Walker`]) for one pass over everything without building
//!   anything: statistics, converters, validation with a custom policy.
//!
//! ```
//! use serde::Deserialize;
//! use gdwire::{from_bytes, Dialect};
//!
//! // A packet whose first element says what the rest is: peek with a view, then let serde
//! // take the part you want.
//! #[derive(Deserialize)]
//! struct Move { x: f64, y: f64 }
//! # let bytes = gdwire::serde::to_vec(Dialect::GODOT_4,
//! #     &("move", std::collections::BTreeMap::from([("x", 1.5), ("y", -2.0)])))?;
//! let packet = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
//! let mut items = packet.iter();
//! if items.next().unwrap().as_str() == Some("move") {
//!     let m: Move = gdwire::serde::from_variant_ref(items.next().unwrap())?;
//!     assert_eq!((m.x, m.y), (1.5, -2.0));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Type mapping
//!
//! | Rust (serde data model) | written as | read from |
//! |---|---|---|
//! | `bool` | bool | bool |
//! | `i8`…`i64`, `u8`…`u32` | int (32-bit on the wire when it fits, else 64-bit, like the engine) | int, range-checked |
//! | `u64`, `i128`, `u128` | int when it fits in `i64`, else an error | int |
//! | `f32`, `f64` | float (32-bit when exact, else 64-bit, like the engine) | float; **int when exact** (below) |
//! | `char`, `&str`, `String` | String | String or StringName (Godot 3 text that is not UTF-8: an error naming the reason) |
//! | `&[u8]`, `Vec<u8>` with `serde_bytes`, `serialize_bytes` | PackedByteArray | PackedByteArray (borrowed as `&[u8]`) |
//! | `Option<T>` | Nil for `None`, else `T` | Nil (or a null Object) is `None` |
//! | `()`, unit struct | Nil | Nil |
//! | newtype struct | its content | its content |
//! | `Vec<T>`, slices, sets, tuples, arrays `[T; N]`, tuple structs | Array | Array (typed too), or any packed array (elements as below) or math type (components) |
//! | `Vec<T>` with [`packed`](mod@packed) | the packed array of `T` | packed array or Array |
//! | [`PackedRef<T>`] | that packed array, bytes as they are | that packed array, borrowed ([`PackedView`]) |
//! | maps | Dictionary, keys of any type | Dictionary (typed too) |
//! | structs | Dictionary with String keys (field names) | Dictionary with String or StringName keys, or an Array of the fields in order; full Objects (property names as keys) |
//! | enums | externally tagged like `serde_json`: a unit variant is its name as a String; others `{"Variant": content}`; `#[serde(tag = …)]` / `untagged` work as in `serde_json` | the same |
//! | [`gdwire::math`](crate::math) types | the exact Godot type (Vector3, Transform3D, Color, …), in the serializer's [`Precision`] | only that type; any precision |
//! | [`GString`](crate::owned::GString) | String, its bytes exactly (Godot 3 text that is not UTF-8 too) | String or StringName |
//! | [`StringName<S>`] | StringName | only StringName |
//! | [`NodePath`](crate::owned::NodePath) | NodePath | only NodePath |
//! | [`Rid`] | RID (Godot 3: the header alone) | only RID (Godot 3: `Rid(0)`) |
//! | [`ObjectId`], `Option<ObjectId>` | Object by instance id; `None` is Nil | only an Object id |
//! | [`Object<P, C>`](Object) (class `String`, or `&str` borrowed) | full Object (with [`Serializer::with_full_objects`]) | only a full Object (allowed by the [`Decoder`]) |
//! | [`Callable`] | Callable | only Callable |
//! | [`Signal`](crate::owned::Signal) | Signal | only Signal |
//! | [`TypedArray<T>`] | Array with its element type (`Builtin(Nil)`: untyped), or Pandemonium 5's TypedArray / PackedTypedArray by its `kind` | any Array, kind and element type kept |
//! | [`TypedDictionary<M>`] | Dictionary with its key and value types | any Dictionary, types kept |
//! | [`Variant`](crate::owned::Variant), [`owned::Array`](crate::owned::Array), [`owned::Dictionary`](crate::owned::Dictionary) | the value as it is: its type, precision, element types, kind | any value (an Array / a Dictionary for those), whole |
//! | — | — | plain fields: NodePath as its text, RID and Object ids as `u64`, Callable as unit, Signal as `(name, id)` |
//!
//! Packed array elements read as: PackedByteArray / Int32 / Int64 → integers, Float32 /
//! Float64 → floats, PackedStringArray → strings, PackedVector2/3/4Array → the math type
//! (or any sequence of 2/3/4 floats), PackedColorArray → [`Color`](crate::math::Color) (or
//! 4 floats), PackedVector2i/3i/4iArray → the integer vectors.
//!
//! **Math types versus arrays.** A [`Vector3`](crate::math::Vector3) field is written as a
//! Vector3 and must be read from one; a `[f32; 3]` field is written as an Array of three
//! floats (and reads from an Array, a Vector3 or any other sequence of three numbers). This
//! is what lets a struct with math fields round-trip byte for byte. Other serde formats see
//! a math type as the tuple of its components in wire order (`[x, y, z]`; Basis row by row).
//!
//! **Int → float policy.** GDScript writes `hp = 100` as an int even where the receiver
//! means a float. A `f64` field accepts an int when the `f64` holds it exactly (every
//! `|i| ≤ 2^53`, and larger ones that happen to be exact); a `f32` field when the `f32` holds
//! it exactly (every `|i| ≤ 2^24`, …). Anything else is an error naming the value, never a
//! silent rounding. A float is never accepted where an integer is expected (like
//! `serde_json`). A 64-bit float read into `f32` rounds to nearest, like `serde_json`.
//!
//! **serde attributes** behave as with `serde_json`: `deny_unknown_fields` refuses unknown
//! keys, `default` fills missing fields, `Option` fields may be missing or Nil,
//! `skip_serializing_if` leaves the key out, `flatten` merges fields (written by counting
//! the entries first, since the wire format announces counts), `borrow` borrows.
//!
//! **Godot types without a serde form** (StringName, NodePath, RID, Object, Callable, Signal,
//! typed containers) go through the wrapper types above, newtype structs with a private name
//! as the math types are, so a struct with such fields round-trips byte for byte. Other
//! formats see text (StringName, NodePath, element types such as `"int"`, `"Node"`,
//! `"res://item.gd"`, `"Variant"` for untyped), numbers (ids) or tuples
//! (`[element, [items…], kind]`).
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use gdwire::serde::{StringName, TypedArray};
//! use gdwire::{Dialect, VariantType};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Team<'a> {
//!     #[serde(borrow)]
//!     name: StringName<&'a str>, // &"red"
//!     members: TypedArray<i64>,  // Array[int]
//! }
//!
//! let team = Team { name: StringName("red"), members: TypedArray::new(VariantType::Int, vec![1, 3]) };
//! let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &team)?;
//! assert_eq!(gdwire::text::to_text(Dialect::GODOT_4, &gdwire::from_bytes(Dialect::GODOT_4, &bytes)?)?,
//!            "{\n\"members\": Array[int]([1, 3]),\n\"name\": &\"red\"\n}"); // keys sorted
//! assert_eq!(gdwire::serde::from_bytes::<Team>(Dialect::GODOT_4, &bytes)?, team);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Text that is not UTF-8** (Godot 3 Strings, NodePath, property and class names): the
//! types that hold bytes keep it byte for byte ([`GString`](crate::owned::GString),
//! [`NodePath`](crate::owned::NodePath), [`Signal`](crate::owned::Signal),
//! [`ElementType`](crate::owned::ElementType), `serde_bytes::ByteBuf`); a `String` or `&str`
//! refuses it with an error saying so, never with replacement characters.
//!
//! **Limits.** Nesting is limited to [`MAX_NESTING`] levels (serde visitors recurse). Full
//! objects are read only with [`Decoder::with_allow_objects`] and written only with
//! [`Serializer::with_full_objects`], as in the engine.
//!
//! [`Cursor`]: crate::Cursor
//! [`Sink`]: crate::Sink
//! [`Writer`]: crate::Writer
//! [`Writer::value`]: crate::Writer::value
//! [`Writer::with_length_prefix`]: crate::Writer::with_length_prefix
//! [`VariantRef`]: crate::VariantRef
//! [`PackedRef`]: crate::PackedRef
//! [`PackedRef<T>`]: crate::PackedRef
//! [`Precision`]: crate::Precision
//! [`Decoder::with_allow_objects`]: crate::Decoder::with_allow_objects
//! [`Decoder`]: crate::Decoder

#[macro_use]
mod refuse;

mod de;
mod error;
#[cfg(any(feature = "glam", feature = "mint"))]
mod foreign;
mod godot;
mod leaf;
mod math;
mod packed_views;
mod ser;
mod variant;
mod views;

pub use self::de::{from_bytes, from_bytes_with, Deserializer, StreamIter, MAX_NESTING};
pub use self::error::{Error, ErrorCode, PathSegment, Result};
#[cfg(any(feature = "glam", feature = "mint"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "glam", feature = "mint"))))]
pub use self::foreign::{godot_math, Godot};
pub use self::godot::{Callable, Object, ObjectId, Rid, StringName, TypedArray, TypedDictionary};
pub use self::packed_views::{packed, PackedElement, PackedView};
pub use self::ser::{to_slice, to_vec, Compound, Serializer};
pub use self::views::from_variant_ref;

//! The owned forms of the structured leaves (node paths, signals, objects) and of the
//! element types of typed containers and packed vector arrays.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;

use crate::math::Precision;
use crate::owned::string::GString;
use crate::owned::Variant;
use crate::read::{ContainerType, NodePathRef};
use crate::variant_type::VariantType;

const FLAG_ABSOLUTE: u32 = 1;

/// An owned NodePath: names (`/`-separated in text) then subnames (`:`-separated), and the
/// flags word as sent.
///
/// ```
/// use gdwire::owned::NodePath;
/// let p = NodePath::parse("/root/a:b").unwrap();
/// assert!(p.is_absolute());
/// assert!(p.names().iter().eq(["root", "a"]));
/// assert!(p.subnames().iter().eq(["b"]));
/// assert_eq!(p, NodePath::new(["root", "a"], ["b"], true));
/// ```
#[derive(Clone, PartialEq)]
pub struct NodePath {
    /// Names then subnames (boxed, not a `Vec`: keeps `Variant` at 40 bytes).
    parts: Box<[GString]>,
    name_count: u32,
    flags: u32,
    /// A path without components stays absolute (Godot 4) or not (Godot 3, Pandemonium).
    keep_empty_absolute: bool,
}

impl NodePath {
    /// A path from its names, subnames and whether it is absolute.
    ///
    /// ```
    /// let p = gdwire::owned::NodePath::new(["a"], [] as [&str; 0], false);
    /// assert_eq!(p.names().len(), 1);
    /// ```
    pub fn new<N, S>(
        names: impl IntoIterator<Item = N>,
        subnames: impl IntoIterator<Item = S>,
        absolute: bool,
    ) -> NodePath
    where
        N: Into<GString>,
        S: Into<GString>,
    {
        let mut parts: Vec<GString> = names.into_iter().map(Into::into).collect();
        let name_count = parts.len() as u32;
        parts.extend(subnames.into_iter().map(Into::into));
        NodePath {
            parts: parts.into_boxed_slice(),
            name_count,
            flags: if absolute { FLAG_ABSOLUTE } else { 0 },
            keep_empty_absolute: true,
        }
    }

    /// Parses text the way the engine's `NodePath(String)` does (see
    /// [`Writer::node_path_str`](crate::Writer::node_path_str)); `None` for an empty subname
    /// that is not the last one (`"a::b"`).
    ///
    /// ```
    /// let p = gdwire::owned::NodePath::parse("a//b:c:").unwrap();
    /// assert!(p.names().iter().eq(["a", "b"]));
    /// assert!(p.subnames().iter().eq(["c"]));
    /// assert!(gdwire::owned::NodePath::parse("a::b").is_none());
    /// ```
    pub fn parse(path: &str) -> Option<NodePath> {
        let (absolute, names, subnames) = crate::write::split_node_path(path)?;
        Some(NodePath::new(
            names.split('/').filter(|s| !s.is_empty()),
            subnames.split(':').filter(|s| !s.is_empty()),
            absolute,
        ))
    }

    /// The names.
    ///
    /// ```
    /// let p = gdwire::owned::NodePath::parse("a/b").unwrap();
    /// assert_eq!(p.names()[1], "b");
    /// ```
    pub fn names(&self) -> &[GString] {
        &self.parts[..(self.name_count as usize).min(self.parts.len())]
    }

    /// The subnames (including a legacy property name, as the reader counts it).
    ///
    /// ```
    /// let p = gdwire::owned::NodePath::parse("a:x:y").unwrap();
    /// assert_eq!(p.subnames().len(), 2);
    /// ```
    pub fn subnames(&self) -> &[GString] {
        &self.parts[(self.name_count as usize).min(self.parts.len())..]
    }

    /// Names then subnames.
    ///
    /// ```
    /// let p = gdwire::owned::NodePath::parse("a:x").unwrap();
    /// assert!(p.parts().iter().eq(["a", "x"]));
    /// ```
    pub fn parts(&self) -> &[GString] {
        &self.parts
    }

    /// True for a path from the root, as the engine of the dialect it was decoded from reads
    /// it (see [`NodePathRef::is_absolute`]): a path without names and subnames stays
    /// absolute in Godot 4 (`NodePath("/")`, and every path built here) but not when it was
    /// decoded from Godot 3 or Pandemonium bytes.
    ///
    /// ```
    /// assert!(gdwire::owned::NodePath::parse("/a").unwrap().is_absolute());
    /// assert!(gdwire::owned::NodePath::parse("/").unwrap().is_absolute());
    /// ```
    pub fn is_absolute(&self) -> bool {
        self.flags & FLAG_ABSOLUTE != 0 && (self.keep_empty_absolute || !self.parts.is_empty())
    }

    /// The flags word as sent (bit 0 absolute, bit 1 the obsolete property flag).
    ///
    /// ```
    /// assert_eq!(gdwire::owned::NodePath::parse("/a").unwrap().flags(), 1);
    /// ```
    pub fn flags(&self) -> u32 {
        self.flags
    }

    pub(crate) fn from_view(p: &NodePathRef<'_>) -> NodePath {
        NodePath {
            parts: p
                .parts()
                .iter()
                .map(GString::from_view)
                .collect::<Vec<_>>()
                .into(),
            name_count: p.name_count() as u32,
            flags: p.flags(),
            keep_empty_absolute: p.keeps_empty_absolute(),
        }
    }

    /// The `Debug` of the equivalent view.
    pub(crate) fn fmt_as_view(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NodePathRef")
            .field("parts", &self.parts)
            .field("name_count", &self.name_count)
            .field("flags", &self.flags)
            .field("keep_empty_absolute", &self.keep_empty_absolute)
            .finish()
    }
}

impl Default for NodePath {
    /// The empty path, as [`NodePath::new`] builds it.
    fn default() -> NodePath {
        NodePath::new([] as [&str; 0], [] as [&str; 0], false)
    }
}

impl fmt::Debug for NodePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NodePath")
            .field("names", &self.names())
            .field("subnames", &self.subnames())
            .field("flags", &self.flags)
            .finish()
    }
}

/// An owned Signal (Godot 4): signal name and the emitting object's id.
///
/// ```
/// use gdwire::owned::{Signal, Variant};
/// let s = Variant::Signal(Signal { name: "hit".into(), object_id: 42 });
/// assert_eq!(s.to_vec(gdwire::Dialect::GODOT_4)?[0], 26);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Signal {
    /// The signal's name.
    pub name: GString,
    /// The object's instance id.
    pub object_id: u64,
}

/// An owned Object value: an instance id, a null object, or a full object.
///
/// ```
/// use gdwire::owned::{FullObject, Object, Variant};
/// let node = Object::Full(Box::new(FullObject::new("Node", vec![("name".into(), "a".into())])));
/// let bytes = Variant::Object(node).to_vec(gdwire::Dialect::GODOT_4)?;
/// // Full objects decode only where allowed, as in the engine.
/// assert!(Variant::from_bytes(gdwire::Dialect::GODOT_4, &bytes).is_err());
/// let dec = gdwire::Decoder::new(gdwire::Dialect::GODOT_4).with_allow_objects(true);
/// let back = dec.decode_owned(&bytes)?;
/// assert_eq!(back.as_object().unwrap().is_null(), false);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, PartialEq)]
pub enum Object {
    /// An instance id (see [`crate::ObjectRef::Id`]); id 0 is written as Nil.
    Id(u64),
    /// A null object (written as Nil).
    Null,
    /// A full object (written only with full objects enabled).
    Full(Box<FullObject>),
}

impl Object {
    /// True for id 0 and the null object, as [`crate::ObjectRef::is_null`].
    ///
    /// ```
    /// assert!(gdwire::owned::Object::Id(0).is_null());
    /// ```
    pub fn is_null(&self) -> bool {
        matches!(self, Object::Id(0) | Object::Null)
    }
}

/// A full object: class name and its properties in order.
///
/// ```
/// let o = gdwire::owned::FullObject::new("Node", vec![("visible".into(), true.into())]);
/// assert_eq!(o.class, "Node");
/// assert_eq!(o.properties.len(), 1);
/// ```
#[derive(Default)]
pub struct FullObject {
    /// The class name (e.g. `"Node"`).
    pub class: GString,
    /// `(name, value)` pairs in order.
    pub properties: Vec<(GString, Variant)>,
}

impl FullObject {
    /// An object of `class` with `properties`.
    ///
    /// ```
    /// let o = gdwire::owned::FullObject::new("Node", Vec::new());
    /// assert!(o.properties.is_empty());
    /// ```
    pub fn new(class: impl Into<GString>, properties: Vec<(GString, Variant)>) -> FullObject {
        FullObject {
            class: class.into(),
            properties,
        }
    }
}

/// What a typed container holds: the owned form of [`ContainerType`].
///
/// ```
/// use gdwire::owned::ElementType;
/// use gdwire::VariantType;
/// assert_eq!(ElementType::from(VariantType::Int), ElementType::Builtin(VariantType::Int));
/// assert_eq!(format!("{:?}", ElementType::ClassName("Node".into())), "ClassName(\"Node\")");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ElementType {
    /// A builtin type.
    Builtin(VariantType),
    /// Objects of a class.
    ClassName(GString),
    /// Objects with a script, by `res://` path.
    Script(GString),
    /// A Pandemonium 5 element type id that is not a type of the dialect.
    UnknownBuiltin(u32),
}

impl From<VariantType> for ElementType {
    fn from(t: VariantType) -> ElementType {
        ElementType::Builtin(t)
    }
}

impl From<ContainerType<'_>> for ElementType {
    fn from(t: ContainerType<'_>) -> ElementType {
        match t {
            ContainerType::Builtin(ty) => ElementType::Builtin(ty),
            ContainerType::ClassName(s) => ElementType::ClassName(GString::from_view(s)),
            ContainerType::Script(s) => ElementType::Script(GString::from_view(s)),
            ContainerType::UnknownBuiltin(id) => ElementType::UnknownBuiltin(id),
        }
    }
}

/// A packed array of real vectors (PackedVector2/3/4Array) with the component width it is
/// sent with: `f32`, or `f64` (Godot 4 double-precision builds).
///
/// ```
/// use gdwire::owned::PackedVectors;
/// use gdwire::math::Precision;
/// let p = PackedVectors::Single(vec![[1.0f32, 2.0]]);
/// assert_eq!((p.len(), p.precision()), (1, Precision::Single));
/// assert_eq!(p.get(0), Some([1.0, 2.0]));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum PackedVectors<const N: usize> {
    /// `f32` components.
    Single(Vec<[f32; N]>),
    /// `f64` components.
    Double(Vec<[f64; N]>),
}

impl<const N: usize> PackedVectors<N> {
    /// Component width on the wire.
    ///
    /// ```
    /// let p = gdwire::owned::PackedVectors::<3>::Double(vec![]);
    /// assert_eq!(p.precision(), gdwire::math::Precision::Double);
    /// ```
    pub fn precision(&self) -> Precision {
        match self {
            PackedVectors::Single(_) => Precision::Single,
            PackedVectors::Double(_) => Precision::Double,
        }
    }

    /// Number of vectors.
    ///
    /// ```
    /// assert_eq!(gdwire::owned::PackedVectors::<2>::Single(vec![[0.0; 2]; 3]).len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        match self {
            PackedVectors::Single(v) => v.len(),
            PackedVectors::Double(v) => v.len(),
        }
    }

    /// True when there are no vectors.
    ///
    /// ```
    /// assert!(gdwire::owned::PackedVectors::<2>::Single(vec![]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Vector `index`, widened to `f64` (exact).
    ///
    /// ```
    /// let p = gdwire::owned::PackedVectors::Double(vec![[0.1, 0.2]]);
    /// assert_eq!(p.get(0), Some([0.1, 0.2]));
    /// ```
    pub fn get(&self, index: usize) -> Option<[f64; N]> {
        match self {
            PackedVectors::Single(v) => v.get(index).map(|c| c.map(crate::float_width::widen)),
            PackedVectors::Double(v) => v.get(index).copied(),
        }
    }
}

impl<const N: usize> Default for PackedVectors<N> {
    fn default() -> Self {
        PackedVectors::Single(Vec::new())
    }
}

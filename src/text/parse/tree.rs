//! The parsed value: a flat arena of nodes (no boxes, no recursion to drop it).

use alloc::vec::Vec;
use core::ops::Range;

use crate::VariantType;

/// A range of one of the arena's vectors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Span {
    pub(super) at: usize,
    pub(super) len: usize,
}

impl Span {
    pub(super) fn range(self) -> Range<usize> {
        self.at..self.at + self.len
    }
}

/// A typed container's element type.
#[derive(Clone, Copy, Debug)]
pub(super) enum Spec {
    Builtin(VariantType),
    /// A class name (`text` span).
    Class(Span),
    /// A script by path (`text` span).
    Script(Span),
}

/// How an array was spelled: `[ … ]` (or Godot 4's `Array[T]([ … ])`), or one of
/// Pandemonium 5's `TypedArray( T , … )` / `PackedTypedArray( T , … )`, distinct wire types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ArrayForm {
    Array,
    TypedArray,
    PackedTypedArray,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// `text` spans.
    String(Span),
    StringName(Span),
    NodePath(Span),
    /// A real math type; components (wire order) in `reals`.
    Real(VariantType, Span),
    /// An integer vector type; components in `ints`.
    IntVec(VariantType, Span),
    /// Components in `reals` (already `f32`).
    Color(Span),
    Rid(u64),
    ObjectId(u64),
    Callable,
    Signal,
    /// Packed arrays of reals (Float32/64, Vector2/3/4, Color): flat components in `reals`.
    PackedReals(VariantType, Span),
    /// Packed arrays of integers (Byte, Int32/64, Vector2i/3i/4i): flat components in `ints`.
    PackedInts(VariantType, Span),
    /// Items (String nodes) in `kids`.
    PackedStrings(Span),
    Array(ArrayForm, Option<Spec>, Span),
    /// Keys and values alternate in `kids`.
    Dictionary(Option<Spec>, Option<Spec>, Span),
    /// Class in `text`; property names (String nodes) and values alternate in `kids`.
    Object(Span, Span),
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub(super) kind: Kind,
    /// Where it starts in the text.
    pub(super) at: usize,
}

#[derive(Default)]
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    pub(super) kids: Vec<u32>,
    pub(super) reals: Vec<f64>,
    pub(super) ints: Vec<i64>,
    pub(super) text: Vec<u8>,
}

impl Tree {
    pub(super) fn clear(&mut self) {
        self.nodes.clear();
        self.kids.clear();
        self.reals.clear();
        self.ints.clear();
        self.text.clear();
    }

    pub(super) fn push(&mut self, kind: Kind, at: usize) -> u32 {
        self.nodes.push(Node { kind, at });
        (self.nodes.len() - 1) as u32
    }

    pub(super) fn node(&self, id: u32) -> Node {
        self.nodes[id as usize]
    }

    pub(super) fn add_text(&mut self, bytes: &[u8]) -> Span {
        let at = self.text.len();
        self.text.extend_from_slice(bytes);
        Span {
            at,
            len: bytes.len(),
        }
    }

    pub(super) fn text(&self, s: Span) -> &[u8] {
        &self.text[s.range()]
    }

    pub(super) fn kids(&self, s: Span) -> &[u32] {
        &self.kids[s.range()]
    }
}

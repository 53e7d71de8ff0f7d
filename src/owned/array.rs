//! `Array`: an owned array, typed or not.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::ops::{Deref, DerefMut};

use crate::owned::parts::ElementType;
use crate::owned::Variant;
use crate::read::ArrayKind;

/// An owned Array: its elements, and for a typed array its kind and element type (Godot 4.3+
/// typed arrays, Pandemonium 5 `TypedArray` / `PackedTypedArray`).
///
/// It dereferences to its `Vec<Variant>`, so `push`, `len`, indexing and iteration work as
/// on a vector.
///
/// ```
/// use gdwire::owned::{Array, ElementType, Variant};
/// use gdwire::{Dialect, VariantType};
///
/// let mut a = Array::typed(ElementType::Builtin(VariantType::Int));
/// a.push(Variant::from(7));
/// assert_eq!(a.len(), 1);
/// assert_eq!(a[0], Variant::Int(7));
/// // Array[int]([7]) in Godot 4.3+: header with the builtin kind, then the type id.
/// assert_eq!(Variant::from(a).to_vec(Dialect::GODOT_4)?, [
///     0x1c, 0, 1, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0,
/// ]);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Default)]
pub struct Array {
    pub(crate) items: Vec<Variant>,
    pub(crate) typed: Option<Box<(ArrayKind, ElementType)>>,
}

impl Array {
    /// An empty untyped array.
    ///
    /// ```
    /// assert!(gdwire::owned::Array::new().is_empty());
    /// ```
    pub const fn new() -> Array {
        Array {
            items: Vec::new(),
            typed: None,
        }
    }

    /// An empty untyped array with room for `n` elements.
    ///
    /// ```
    /// assert!(gdwire::owned::Array::with_capacity(8).capacity() >= 8);
    /// ```
    pub fn with_capacity(n: usize) -> Array {
        Array {
            items: Vec::with_capacity(n),
            typed: None,
        }
    }

    /// An empty typed `Array` (Godot 4.3+; a Pandemonium 5 `TypedArray` when written in that
    /// dialect; untyped where the dialect has no typed arrays).
    ///
    /// ```
    /// use gdwire::owned::{Array, ElementType};
    /// let a = Array::typed(ElementType::ClassName("Node".into()));
    /// assert!(a.element_type().is_some());
    /// ```
    pub fn typed(element: ElementType) -> Array {
        Array::with_kind(ArrayKind::Array, element)
    }

    /// An empty typed array of the given kind (`PackedTypedArray` is Pandemonium 5's).
    ///
    /// ```
    /// use gdwire::owned::{Array, ElementType};
    /// use gdwire::read::ArrayKind;
    /// use gdwire::VariantType;
    /// let a = Array::with_kind(ArrayKind::PackedTypedArray, VariantType::Int.into());
    /// assert_eq!(a.kind(), ArrayKind::PackedTypedArray);
    /// ```
    pub fn with_kind(kind: ArrayKind, element: ElementType) -> Array {
        Array {
            items: Vec::new(),
            typed: Some(Box::new((kind, element))),
        }
    }

    /// Which array type this is.
    ///
    /// ```
    /// assert_eq!(gdwire::owned::Array::new().kind(), gdwire::read::ArrayKind::Array);
    /// ```
    pub fn kind(&self) -> ArrayKind {
        self.typed.as_ref().map_or(ArrayKind::Array, |t| t.0)
    }

    /// The element type of a typed array; `None` for an untyped one.
    ///
    /// ```
    /// assert!(gdwire::owned::Array::new().element_type().is_none());
    /// ```
    pub fn element_type(&self) -> Option<&ElementType> {
        self.typed.as_ref().map(|t| &t.1)
    }

    /// Makes the array untyped (`None`) or typed, keeping its elements.
    ///
    /// ```
    /// let mut a = gdwire::owned::Array::from(vec![1.into()]);
    /// a.set_type(Some((gdwire::read::ArrayKind::Array, gdwire::VariantType::Int.into())));
    /// assert!(a.element_type().is_some());
    /// ```
    pub fn set_type(&mut self, typed: Option<(ArrayKind, ElementType)>) {
        self.typed = typed.map(Box::new);
    }

    /// The elements, as a vector (an iterative drop of a deep tree keeps working).
    ///
    /// ```
    /// let a = gdwire::owned::Array::from(vec![1.into()]);
    /// assert_eq!(a.into_vec().len(), 1);
    /// ```
    pub fn into_vec(mut self) -> Vec<Variant> {
        core::mem::take(&mut self.items)
    }

    /// An empty array with the same kind and element type.
    pub(crate) fn empty_like(&self, capacity: usize) -> Array {
        Array {
            items: Vec::with_capacity(capacity),
            typed: self.typed.clone(),
        }
    }
}

impl Deref for Array {
    type Target = Vec<Variant>;
    fn deref(&self) -> &Vec<Variant> {
        &self.items
    }
}

impl DerefMut for Array {
    fn deref_mut(&mut self) -> &mut Vec<Variant> {
        &mut self.items
    }
}

impl From<Vec<Variant>> for Array {
    fn from(items: Vec<Variant>) -> Array {
        Array { items, typed: None }
    }
}

impl<T: Into<Variant>> FromIterator<T> for Array {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Array {
        Array::from(iter.into_iter().map(Into::into).collect::<Vec<_>>())
    }
}

impl<'a> IntoIterator for &'a Array {
    type Item = &'a Variant;
    type IntoIter = core::slice::Iter<'a, Variant>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl IntoIterator for Array {
    type Item = Variant;
    type IntoIter = alloc::vec::IntoIter<Variant>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

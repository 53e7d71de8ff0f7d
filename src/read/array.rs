//! Lazy array views (Array, typed Array, Pandemonium TypedArray / PackedTypedArray).

use crate::error::Result;
use crate::read::container_type::ContainerType;
use crate::read::head::{array_head, header_at, ArrayHead};
use crate::read::items::Items;
use crate::read::seq::Seq;
use crate::read::value::VariantRef;
use crate::read::walked::Walked;
use crate::variant_type::VariantType;

/// Which array type carried the elements.
///
/// ```
/// use gdwire::read::ArrayKind;
/// use gdwire::{from_bytes, Dialect};
/// let bytes = [28, 0, 0, 0, 0, 0, 0, 0];
/// assert_eq!(from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap().kind(), ArrayKind::Array);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayKind {
    /// `Array`, typed (Godot 4.3+) or not.
    Array,
    /// Pandemonium 5 `TypedArray`.
    TypedArray,
    /// Pandemonium 5 `PackedTypedArray`.
    PackedTypedArray,
}

/// A borrowed array. Elements are decoded one at a time as you iterate.
///
/// A view from [`from_bytes`](crate::from_bytes), [`Decoder::decode`](crate::Decoder::decode),
/// [`Cursor::read`](crate::Cursor::read) or their iterators was validated as a whole, so
/// iterating it cannot fail and yields plain [`VariantRef`]s. Only a
/// [`Walker`](crate::read::Walker)'s `Event::Begin` view is not validated yet: iterate that
/// one with [`ArrayRef::try_iter`] to see an error (`iter` ends at malformed bytes).
///
/// ```
/// use gdwire::{from_bytes, Dialect};
/// // [1, "a"] in Godot 4 (docs/wire-format.md, "Array").
/// let bytes = [0x1c,0,0,0, 2,0,0,0, 2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0];
/// let array = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
/// assert_eq!(array.len(), 2);
/// let mut items = array.iter();
/// assert_eq!(items.next().unwrap().as_int(), Some(1));
/// assert_eq!(items.next().unwrap().as_str(), Some("a"));
/// assert!(items.next().is_none());
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct ArrayRef<'a> {
    items: Items<'a>,
}

impl<'a> ArrayRef<'a> {
    pub(crate) fn new(items: Items<'a>) -> Self {
        ArrayRef { items }
    }

    pub(crate) fn items(&self) -> &Items<'a> {
        &self.items
    }

    pub(crate) fn items_mut(&mut self) -> &mut Items<'a> {
        &mut self.items
    }

    /// The head, re-read from the header (it was read when this view was made).
    fn head(&self) -> Option<ArrayHead<'a>> {
        let Items {
            data, dec, header, ..
        } = self.items;
        array_head(&dec, data, header, header_at(data, header), false).ok()
    }

    /// Number of elements.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]; // [7, "hi"]
    /// let array = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
    /// assert_eq!(array.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> usize {
        self.items.count as usize
    }

    /// True when there are no elements.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]; // [7, "hi"]
    /// let array = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
    /// assert!(!array.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.items.count == 0
    }

    /// Which array type this is.
    ///
    /// ```
    /// use gdwire::read::ArrayKind;
    /// use gdwire::{from_bytes, Dialect};
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]; // [7, "hi"]
    /// let array = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
    /// assert_eq!(array.kind(), ArrayKind::Array);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn kind(&self) -> ArrayKind {
        let Items {
            data, dec, header, ..
        } = self.items;
        match dec.dialect().type_of(header_at(data, header).type_id()) {
            Some(VariantType::TypedArray) => ArrayKind::TypedArray,
            Some(VariantType::PackedTypedArray) => ArrayKind::PackedTypedArray,
            _ => ArrayKind::Array,
        }
    }

    /// The logical type (`Array`, or Pandemonium's `TypedArray` / `PackedTypedArray`).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantType};
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]; // [7, "hi"]
    /// let array = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
    /// assert_eq!(array.variant_type(), VariantType::Array);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn variant_type(&self) -> VariantType {
        match self.kind() {
            ArrayKind::Array => VariantType::Array,
            ArrayKind::TypedArray => VariantType::TypedArray,
            ArrayKind::PackedTypedArray => VariantType::PackedTypedArray,
        }
    }

    /// The element type of a typed array; `None` for an untyped one.
    ///
    /// ```
    /// use gdwire::{from_bytes, ContainerType, Dialect, VariantType};
    /// // Array[int]([1, 2]) (Godot 4.3+): header bit 16, then the element type.
    /// let bytes = [28, 0, 1, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let array = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
    /// assert_eq!(array.element_type(), Some(ContainerType::Builtin(VariantType::Int)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn element_type(&self) -> Option<ContainerType<'a>> {
        self.head()?.element_type
    }

    /// Iterates the elements (see the type's docs for views that are not validated yet).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]; // [7, "hi"]
    /// let array = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
    /// let items: Vec<VariantRef> = array.iter().collect();
    /// assert_eq!(items[0], VariantRef::Int(7));
    /// assert_eq!(items[1].as_str(), Some("hi"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> ArrayIter<'a> {
        ArrayIter {
            items: self.items.seq(),
        }
    }

    /// Iterates the elements with an error at malformed bytes: for a
    /// [`Walker`](crate::read::Walker)'s `Event::Begin` view, whose items are not validated
    /// yet. On a validated view no item is an error.
    ///
    /// ```
    /// use gdwire::read::Event;
    /// use gdwire::{Decoder, Dialect};
    /// // [[1], 2]: the walker hands out the inner array as a Begin view, not validated yet.
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let mut walker = Decoder::new(Dialect::GODOT_4).walk(&bytes);
    /// walker.next(); // Begin of the outer array
    /// let Some(Ok(Event::Begin(inner))) = walker.next() else { unreachable!() };
    /// let inner = inner.as_array().unwrap();
    /// // Its items may still hold malformed bytes: they come as `Result`s.
    /// let items: Vec<_> = inner.try_iter().collect::<Result<_, _>>()?;
    /// assert_eq!(items, [gdwire::VariantRef::Int(1)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_iter(&self) -> ArrayTryIter<'a> {
        ArrayTryIter {
            items: self.items.seq(),
        }
    }

    /// True when the elements were validated with the view (see the type's docs).
    ///
    /// ```
    /// use gdwire::read::Event;
    /// use gdwire::{Decoder, Dialect};
    /// // [[1], 2]: the walker hands out the inner array as a Begin view, not validated yet.
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let mut walker = Decoder::new(Dialect::GODOT_4).walk(&bytes);
    /// walker.next(); // Begin of the outer array
    /// let Some(Ok(Event::Begin(inner))) = walker.next() else { unreachable!() };
    /// let inner = inner.as_array().unwrap();
    /// assert!(!inner.is_validated());
    /// ```
    pub fn is_validated(&self) -> bool {
        self.items.checked
    }

    /// Element `index` (O(index): elements have no fixed size).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]; // [7, "hi"]
    /// let array = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
    /// assert_eq!(array.get(1).and_then(|v| v.as_str()), Some("hi"));
    /// assert!(array.get(2).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get(&self, index: usize) -> Option<VariantRef<'a>> {
        self.iter().nth(index)
    }
}

/// Iterator over an array's elements, reporting malformed bytes ([`ArrayRef::try_iter`]).
///
/// ```
/// use gdwire::read::Event;
/// use gdwire::{Decoder, Dialect};
/// // [[1], 2]: the walker hands out the inner array as a Begin view, not validated yet.
/// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
/// let mut walker = Decoder::new(Dialect::GODOT_4).walk(&bytes);
/// walker.next(); // Begin of the outer array
/// let Some(Ok(Event::Begin(inner))) = walker.next() else { unreachable!() };
/// let inner = inner.as_array().unwrap();
/// assert_eq!(inner.try_iter().count(), 1);
/// ```
#[derive(Clone)]
pub struct ArrayTryIter<'a> {
    items: Seq<'a>,
}

impl<'a> ArrayTryIter<'a> {
    pub(crate) fn from_seq(items: Seq<'a>) -> Self {
        ArrayTryIter { items }
    }

    /// As the infallible iterator's `walked` (see [`Walked`](crate::read::Walked)).
    ///
    /// ```
    /// use gdwire::read::Event;
    /// use gdwire::{Decoder, Dialect};
    /// // [[1], 2]: the walker hands out the inner array as a Begin view, not validated yet.
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let mut walker = Decoder::new(Dialect::GODOT_4).walk(&bytes);
    /// walker.next(); // Begin of the outer array
    /// let Some(Ok(Event::Begin(inner))) = walker.next() else { unreachable!() };
    /// let inner = inner.as_array().unwrap();
    /// let mut items = inner.try_iter();
    /// items.next();
    /// assert!(items.walked().is_some()); // every item taken
    /// ```
    pub fn walked(&self) -> Option<crate::read::Walked<'a>> {
        self.items.walked()
    }

    /// As the infallible iterator's `resume` (see [`Walked`](crate::read::Walked)).
    ///
    /// ```
    /// use gdwire::read::Event;
    /// use gdwire::{Decoder, Dialect};
    /// // [[1], 2]: the walker hands out the inner array as a Begin view, not validated yet.
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let mut walker = Decoder::new(Dialect::GODOT_4).walk(&bytes);
    /// walker.next(); // Begin of the outer array
    /// let Some(Ok(Event::Begin(inner))) = walker.next() else { unreachable!() };
    /// let inner = inner.as_array().unwrap();
    /// let mut items = inner.try_iter();
    /// // No container was handed out: nothing to resume after.
    /// let other = Decoder::new(Dialect::GODOT_4).decode(&[28, 0, 0, 0, 0, 0, 0, 0])?.as_array().unwrap();
    /// assert!(!items.resume(other.iter().walked().unwrap()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume(&mut self, child: crate::read::Walked<'a>) -> bool {
        self.items.resume(child)
    }
}

impl<'a> Iterator for ArrayTryIter<'a> {
    type Item = Result<VariantRef<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.items.next_value()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.items.left() as usize))
    }
}

/// Iterator over an array's elements.
///
/// ```
/// use gdwire::{from_bytes, Dialect, VariantRef};
/// let bytes = [28, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]; // [true]
/// let mut items = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap().iter();
/// assert_eq!(items.next(), Some(VariantRef::Bool(true)));
/// assert!(items.next().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct ArrayIter<'a> {
    items: Seq<'a>,
}

impl<'a> Iterator for ArrayIter<'a> {
    type Item = VariantRef<'a>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.items.next_trusted()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.items.left() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for ArrayIter<'_> {}

impl<'a> ArrayIter<'a> {
    pub(crate) fn from_seq(items: Seq<'a>) -> Self {
        ArrayIter { items }
    }

    /// The next item or the error at malformed bytes (crate walks that may be given a
    /// walker's view not validated yet).
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn try_next(&mut self) -> Option<Result<VariantRef<'a>>> {
        self.items.next_value()
    }
    /// Once every element has been taken: where the array ends, for the parent iterator's
    /// `resume` (see [`Walked`]). `None` while items remain or after an error. If the last
    /// element is a container that was not handed back itself, this skips over it.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // [[1], 2]
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let outer = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
    /// let mut items = outer.iter();
    /// let first = items.next().unwrap().as_array().unwrap();
    /// let mut inner = first.iter();
    /// assert_eq!(inner.next(), Some(VariantRef::Int(1)));
    /// let done = inner.walked().unwrap(); // the inner array is walked to its end
    /// assert!(items.resume(done)); // continue after it without skipping it again
    /// assert_eq!(items.next(), Some(VariantRef::Int(2)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn walked(&self) -> Option<Walked<'a>> {
        self.items.walked()
    }

    /// Continues after the container this iterator handed out last, which `child` says has
    /// been walked to its end, instead of skipping it again; `false` (and no change) if
    /// `child` is not that container.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // [[1], 2]
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let outer = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
    /// let mut items = outer.iter();
    /// let mut inner = items.next().unwrap().as_array().unwrap().iter();
    /// inner.by_ref().for_each(drop);
    /// assert!(items.resume(inner.walked().unwrap()));
    /// assert_eq!(items.next(), Some(VariantRef::Int(2)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume(&mut self, child: Walked<'a>) -> bool {
        self.items.resume(child)
    }
}

impl<'a> IntoIterator for ArrayRef<'a> {
    type Item = VariantRef<'a>;
    type IntoIter = ArrayIter<'a>;
    fn into_iter(self) -> ArrayIter<'a> {
        self.iter()
    }
}

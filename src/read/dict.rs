//! Lazy dictionary views.

use crate::error::Result;
use crate::read::access::{GetError, WrongType};
use crate::read::array::ArrayIter;
use crate::read::container_type::ContainerType;
use crate::read::head::{dict_head, header_at, DictHead};
use crate::read::items::Items;
use crate::read::seq::Seq;
use crate::read::value::VariantRef;
use crate::read::walked::Walked;

/// A borrowed dictionary: entries in wire (insertion) order, decoded as you iterate.
///
/// Duplicate keys are kept as sent (the engine would keep the last one).
///
/// As with [`ArrayRef`](crate::read::ArrayRef), a view from a decode was validated as a whole: iterating and
/// looking up cannot fail. Use [`DictRef::try_iter`] on a [`Walker`](crate::read::Walker)'s
/// `Event::Begin` view, which is not validated yet.
///
/// ```
/// use gdwire::{from_bytes, Dialect};
/// // {"a": 1} in Godot 4 (docs/wire-format.md, "Dictionary").
/// let bytes = [0x1b,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0, 2,0,0,0, 1,0,0,0];
/// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
/// for (key, value) in dict.iter() {
///     assert_eq!(key.as_str(), Some("a"));
///     assert_eq!(value.as_int(), Some(1));
/// }
/// assert_eq!(dict.get("a").and_then(|v| v.as_int()), Some(1));
/// let a: i64 = dict.get_as("a")?; // typed, with an error that says what was found
/// assert_eq!(a, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct DictRef<'a> {
    /// Keys and values alternate: `2 * len` values.
    entries: Items<'a>,
}

impl<'a> DictRef<'a> {
    pub(crate) fn new(entries: Items<'a>) -> Self {
        DictRef { entries }
    }

    pub(crate) fn items(&self) -> &Items<'a> {
        &self.entries
    }

    pub(crate) fn items_mut(&mut self) -> &mut Items<'a> {
        &mut self.entries
    }

    /// The head, re-read from the header (it was read when this view was made).
    fn head(&self) -> Option<DictHead<'a>> {
        let Items {
            data, dec, header, ..
        } = self.entries;
        dict_head(&dec, data, header, header_at(data, header), false).ok()
    }

    /// Number of entries.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// assert_eq!(dict.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> usize {
        self.entries.count as usize / 2
    }

    /// True when there are no entries.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// assert!(!dict.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.count == 0
    }

    /// Key type of a typed dictionary (Godot 4.4+); `None` when keys are untyped.
    ///
    /// ```
    /// use gdwire::{from_bytes, ContainerType, Dialect, VariantType};
    /// // Dictionary[int, int]({1: 2}) (Godot 4.4+): key and value kinds in header bits 16-19.
    /// let bytes = [27, 0, 5, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// assert_eq!(dict.key_type(), Some(ContainerType::Builtin(VariantType::Int)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn key_type(&self) -> Option<ContainerType<'a>> {
        self.head()?.key_type
    }

    /// Value type of a typed dictionary (Godot 4.4+); `None` when values are untyped.
    ///
    /// ```
    /// use gdwire::{from_bytes, ContainerType, Dialect, VariantType};
    /// // Dictionary[int, int]({1: 2}) (Godot 4.4+): key and value kinds in header bits 16-19.
    /// let bytes = [27, 0, 5, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// assert_eq!(dict.value_type(), Some(ContainerType::Builtin(VariantType::Int)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value_type(&self) -> Option<ContainerType<'a>> {
        self.head()?.value_type
    }

    /// Iterates `(key, value)` entries (see the type's docs for views not validated yet).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// let entries: Vec<(VariantRef, VariantRef)> = dict.iter().collect();
    /// assert_eq!(entries[1], (VariantRef::Int(5), VariantRef::Bool(true)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> DictIter<'a> {
        DictIter {
            entries: self.entries.seq(),
        }
    }

    /// Iterates `(key, value)` entries with an error at malformed bytes, for a walker's
    /// `Event::Begin` view (see [`ArrayRef::try_iter`](crate::ArrayRef::try_iter)).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// let entries: Vec<_> = dict.try_iter().collect::<Result<_, _>>()?;
    /// assert_eq!(entries.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_iter(&self) -> DictTryIter<'a> {
        DictTryIter {
            entries: self.entries.seq(),
        }
    }

    /// True when the entries were validated with the view (see the type's docs).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// assert!(dict.is_validated()); // from `from_bytes`: checked as a whole
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_validated(&self) -> bool {
        self.entries.checked
    }

    /// Keys and values alternating, one item at a time. Unlike [`DictRef::iter`], which reads
    /// past a key to pair it with its value, this hands out a key before touching its value,
    /// so a walked container key can be handed back too ([`ArrayIter::resume`]) and a full
    /// walk stays linear even with container keys.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// let items: Vec<VariantRef> = dict.keys_and_values().collect();
    /// assert_eq!(items.len(), 4);
    /// assert_eq!(items[3], VariantRef::Bool(true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn keys_and_values(&self) -> ArrayIter<'a> {
        ArrayIter::from_seq(self.entries.seq())
    }

    /// [`DictRef::keys_and_values`] with an error at malformed bytes (for a walker's view).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// assert_eq!(dict.try_keys_and_values().filter(Result::is_ok).count(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_keys_and_values(&self) -> crate::read::ArrayTryIter<'a> {
        crate::read::ArrayTryIter::from_seq(self.entries.seq())
    }

    /// The value of the last entry whose key is a String or StringName equal to `key`
    /// (the last one, as the engine keeps the last duplicate). Linear scan.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// assert_eq!(dict.get("hp"), Some(VariantRef::Int(100)));
    /// assert_eq!(dict.get("mp"), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get(&self, key: &str) -> Option<VariantRef<'a>> {
        let mut found = None;
        for (k, v) in self.iter() {
            if matches!(k, VariantRef::String(s) | VariantRef::StringName(s) if s == key) {
                found = Some(v);
            }
        }
        found
    }

    /// The value of the last entry whose key is the integer `key`. Linear scan.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// assert_eq!(dict.get_by_int_key(5), Some(VariantRef::Bool(true)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_by_int_key(&self, key: i64) -> Option<VariantRef<'a>> {
        let mut found = None;
        for (k, v) in self.iter() {
            if k.as_int() == Some(key) {
                found = Some(v);
            }
        }
        found
    }

    /// The value under the String / StringName `key` ([`DictRef::get`]) as a `T`: a number,
    /// `bool`, `&str`, math type, view, ... (every `TryFrom<VariantRef>` type). The error
    /// says whether the key was missing or which type was found instead.
    ///
    /// ```
    /// use gdwire::read::GetError;
    /// use gdwire::{from_bytes, Dialect, VariantType};
    /// // {"name": "Ada"} in Godot 4.
    /// let bytes = [0x1b,0,0,0, 1,0,0,0, 4,0,0,0, 4,0,0,0, b'n',b'a',b'm',b'e',
    ///              4,0,0,0, 3,0,0,0, b'A',b'd',b'a',0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// assert_eq!(dict.get_as::<&str>("name")?, "Ada");
    /// let err = dict.get_as::<i64>("name").unwrap_err();
    /// assert_eq!(err.to_string(), "key \"name\": expected int, found String");
    /// assert!(matches!(dict.get_as::<i64>("hp"), Err(GetError::Missing { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_as<'k, T>(&self, key: &'k str) -> core::result::Result<T, GetError<'k>>
    where
        T: TryFrom<VariantRef<'a>, Error = WrongType>,
    {
        let value = self.get(key).ok_or(GetError::Missing { key })?;
        T::try_from(value).map_err(|wrong| GetError::WrongType { key, wrong })
    }

    /// Deprecated name of [`DictRef::get`] (it read as "get a string value").
    ///
    /// ```
    /// #![allow(deprecated)]
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// assert_eq!(dict.get_str("hp")?, dict.get("hp"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[deprecated(note = "use `get` (infallible on validated views)")]
    pub fn get_str(&self, key: &str) -> Result<Option<VariantRef<'a>>> {
        Ok(self.get(key))
    }

    /// Deprecated name of [`DictRef::get_by_int_key`] (it read as "get an int value").
    ///
    /// ```
    /// #![allow(deprecated)]
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// assert_eq!(dict.get_int(5)?, dict.get_by_int_key(5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[deprecated(note = "use `get_by_int_key` (infallible on validated views)")]
    pub fn get_int(&self, key: i64) -> Result<Option<VariantRef<'a>>> {
        Ok(self.get_by_int_key(key))
    }
}

/// Iterator over a dictionary's entries, reporting malformed bytes ([`DictRef::try_iter`]).
///
/// ```
/// use gdwire::{from_bytes, Dialect};
/// let bytes = [27, 0, 0, 0, 0, 0, 0, 0]; // {}
/// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
/// assert_eq!(dict.try_iter().count(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct DictTryIter<'a> {
    entries: Seq<'a>,
}

impl<'a> DictTryIter<'a> {
    /// As the infallible iterator's `walked` (see [`Walked`](crate::read::Walked)).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let bytes = [27, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]; // {1: null}
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// let mut entries = dict.try_iter();
    /// entries.next().transpose()?;
    /// assert!(entries.walked().is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn walked(&self) -> Option<crate::read::Walked<'a>> {
        self.entries.walked()
    }

    /// As the infallible iterator's `resume` (see [`Walked`](crate::read::Walked)).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // {1: [2]}
    /// let bytes = [27, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// let mut entries = dict.try_iter();
    /// let (_, value) = entries.next().unwrap()?;
    /// let mut inner = value.as_array().unwrap().iter();
    /// inner.by_ref().for_each(drop);
    /// assert!(entries.resume(inner.walked().unwrap()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume(&mut self, child: crate::read::Walked<'a>) -> bool {
        self.entries.resume(child)
    }
}

impl<'a> Iterator for DictTryIter<'a> {
    type Item = Result<(VariantRef<'a>, VariantRef<'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        let key = match self.entries.next_value()? {
            Ok(k) => k,
            Err(e) => return Some(Err(e)),
        };
        match self.entries.next_value() {
            Some(Ok(value)) => Some(Ok((key, value))),
            Some(Err(e)) => Some(Err(e)),
            None => None,
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.entries.left() as usize / 2))
    }
}

/// Iterator over a dictionary's entries.
///
/// ```
/// use gdwire::{from_bytes, Dialect, VariantRef};
/// let bytes = [27, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]; // {1: null}
/// let mut entries = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap().iter();
/// assert_eq!(entries.next(), Some((VariantRef::Int(1), VariantRef::Nil)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct DictIter<'a> {
    entries: Seq<'a>,
}

impl<'a> Iterator for DictIter<'a> {
    type Item = (VariantRef<'a>, VariantRef<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        // Both views written in place, each only its type's fields (`next_trusted_into`):
        // the pair returned from two views by value took up to 8 % more instructions on
        // the lazy dictionary walks (0.6 to 7.5 % in the benchmarks' datasets).
        let mut pair = Some((VariantRef::Nil, VariantRef::Nil));
        if let Some((key, value)) = &mut pair {
            if !(self.entries.next_trusted_into(key) && self.entries.next_trusted_into(value)) {
                pair = None;
            }
        }
        pair
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.entries.left() as usize / 2;
        (n, Some(n))
    }
}

impl ExactSizeIterator for DictIter<'_> {}

impl<'a> DictIter<'a> {
    /// Once every entry has been taken: where the dictionary ends, for the parent iterator's
    /// `resume` (see [`Walked`]). `None` while items remain or after an error. If the last
    /// entry is a container that was not handed back itself, this skips over it.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // [{1: 2}, 3]
    /// let bytes = [28, 0, 0, 0, 2, 0, 0, 0, 27, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0,
    ///     2, 0, 0, 0, 3, 0, 0, 0];
    /// let outer = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
    /// let mut items = outer.iter();
    /// let dict = items.next().unwrap().as_dictionary().unwrap();
    /// let mut entries = dict.iter();
    /// entries.next();
    /// assert!(items.resume(entries.walked().unwrap()));
    /// assert_eq!(items.next(), Some(VariantRef::Int(3)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn walked(&self) -> Option<Walked<'a>> {
        self.entries.walked()
    }

    /// Continues after the container this iterator handed out last, which `child` says has
    /// been walked to its end, instead of skipping it again; `false` (and no change) if
    /// `child` is not that container.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // {1: [2]}
    /// let bytes = [27, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// let mut entries = dict.iter();
    /// let (_, value) = entries.next().unwrap();
    /// let mut inner = value.as_array().unwrap().iter();
    /// inner.by_ref().for_each(drop);
    /// assert!(entries.resume(inner.walked().unwrap()));
    /// assert!(entries.next().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume(&mut self, child: Walked<'a>) -> bool {
        self.entries.resume(child)
    }
}

impl<'a> IntoIterator for DictRef<'a> {
    type Item = (VariantRef<'a>, VariantRef<'a>);
    type IntoIter = DictIter<'a>;
    fn into_iter(self) -> DictIter<'a> {
        self.iter()
    }
}

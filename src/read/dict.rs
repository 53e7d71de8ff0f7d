//! Lazy dictionary views.

use crate::error::Result;
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
/// ```
/// use gdwire::{from_bytes, Dialect};
/// // {"a": 1} in Godot 4 (spec §6.3).
/// let bytes = [0x1b,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0, 2,0,0,0, 1,0,0,0];
/// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
/// for entry in dict.iter() {
///     let (key, value) = entry?;
///     assert_eq!(key.as_str(), Some("a"));
///     assert_eq!(value.as_int(), Some(1));
/// }
/// assert_eq!(dict.get_str("a")?.and_then(|v| v.as_int()), Some(1));
/// # Ok::<(), gdwire::Error>(())
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

    /// Iterates `(key, value)` entries.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// let entries: Vec<(VariantRef, VariantRef)> = dict.iter().collect::<Result<_, _>>()?;
    /// assert_eq!(entries[1], (VariantRef::Int(5), VariantRef::Bool(true)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> DictIter<'a> {
        DictIter {
            entries: self.entries.seq(),
        }
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
    /// let items: Vec<VariantRef> = dict.keys_and_values().collect::<Result<_, _>>()?;
    /// assert_eq!(items.len(), 4);
    /// assert_eq!(items[3], VariantRef::Bool(true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn keys_and_values(&self) -> ArrayIter<'a> {
        ArrayIter::from_seq(self.entries.seq())
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
    /// assert_eq!(dict.get_str("hp")?, Some(VariantRef::Int(100)));
    /// assert_eq!(dict.get_str("mp")?, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_str(&self, key: &str) -> Result<Option<VariantRef<'a>>> {
        let mut found = None;
        for entry in self.iter() {
            let (k, v) = entry?;
            if matches!(k, VariantRef::String(s) | VariantRef::StringName(s) if s == key) {
                found = Some(v);
            }
        }
        Ok(found)
    }

    /// The value of the last entry whose key is the integer `key`. Linear scan.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // {"hp": 100, 5: true}
    /// let bytes = [27, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0,
    ///     2, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// assert_eq!(dict.get_int(5)?, Some(VariantRef::Bool(true)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_int(&self, key: i64) -> Result<Option<VariantRef<'a>>> {
        let mut found = None;
        for entry in self.iter() {
            let (k, v) = entry?;
            if k.as_int() == Some(key) {
                found = Some(v);
            }
        }
        Ok(found)
    }
}

/// Iterator over a dictionary's entries.
///
/// ```
/// use gdwire::{from_bytes, Dialect, VariantRef};
/// let bytes = [27, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]; // {1: null}
/// let mut entries = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap().iter();
/// assert_eq!(entries.next().transpose()?, Some((VariantRef::Int(1), VariantRef::Nil)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct DictIter<'a> {
    entries: Seq<'a>,
}

impl<'a> Iterator for DictIter<'a> {
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
    /// let dict = items.next().unwrap()?.as_dictionary().unwrap();
    /// let mut entries = dict.iter();
    /// entries.next();
    /// assert!(items.resume(entries.walked().unwrap()));
    /// assert_eq!(items.next().transpose()?, Some(VariantRef::Int(3)));
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
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // {1: [2]}
    /// let bytes = [27, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
    /// let mut entries = dict.iter();
    /// let (_, value) = entries.next().unwrap()?;
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
    type Item = Result<(VariantRef<'a>, VariantRef<'a>)>;
    type IntoIter = DictIter<'a>;
    fn into_iter(self) -> DictIter<'a> {
        self.iter()
    }
}

//! `Dictionary`: an owned dictionary in insertion order.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::owned::parts::ElementType;
use crate::owned::Variant;

/// An owned Dictionary: entries in insertion (wire) order, and for a typed dictionary
/// (Godot 4.4+) its key and value types.
///
/// Godot dictionaries are ordered, and the wire may carry the same key twice (the engine
/// then keeps the position of the first and the value of the last). A decoded dictionary
/// keeps every entry as sent, so re-encoding is byte-exact and equality is the views'
/// (entry by entry, in order). Lookups ([`Dictionary::get`]) give the **last** matching
/// entry, the one the engine keeps; [`Dictionary::insert`] replaces that entry's value (its
/// position stays) or appends; [`Dictionary::push`] always appends. Lookups are linear
/// scans: dictionaries on the wire are small, and no hashing is possible for float keys.
///
/// ```
/// use gdwire::owned::{Dictionary, Variant};
/// let mut d = Dictionary::new();
/// d.insert("hp", 100);
/// d.insert("name", "Ann");
/// d.insert("hp", 90); // replaces, keeps the position
/// assert_eq!(d.get("hp"), Some(&Variant::Int(90)));
/// assert_eq!(d.len(), 2);
/// assert!(d.keys().eq([&Variant::from("hp"), &Variant::from("name")]));
/// ```
#[derive(Default)]
pub struct Dictionary {
    pub(crate) entries: Vec<(Variant, Variant)>,
    pub(crate) typed: Option<Box<[Option<ElementType>; 2]>>,
}

impl Dictionary {
    /// An empty untyped dictionary.
    ///
    /// ```
    /// assert!(gdwire::owned::Dictionary::new().is_empty());
    /// ```
    pub const fn new() -> Dictionary {
        Dictionary {
            entries: Vec::new(),
            typed: None,
        }
    }

    /// An empty untyped dictionary with room for `n` entries.
    ///
    /// ```
    /// assert!(gdwire::owned::Dictionary::with_capacity(4).entries().is_empty());
    /// ```
    pub fn with_capacity(n: usize) -> Dictionary {
        Dictionary {
            entries: Vec::with_capacity(n),
            typed: None,
        }
    }

    /// An empty typed dictionary (Godot 4.4+; untyped elsewhere). `None` leaves that side
    /// untyped.
    ///
    /// ```
    /// use gdwire::owned::{Dictionary, ElementType};
    /// use gdwire::VariantType;
    /// let d = Dictionary::typed(Some(VariantType::String.into()), None);
    /// assert_eq!(d.key_type(), Some(&ElementType::Builtin(VariantType::String)));
    /// assert_eq!(d.value_type(), None);
    /// ```
    pub fn typed(key: Option<ElementType>, value: Option<ElementType>) -> Dictionary {
        let mut d = Dictionary::new();
        d.set_types(key, value);
        d
    }

    /// Sets the key and value types (both `None`: untyped), keeping the entries.
    ///
    /// ```
    /// let mut d = gdwire::owned::Dictionary::new();
    /// d.set_types(None, Some(gdwire::VariantType::Int.into()));
    /// assert!(d.value_type().is_some());
    /// ```
    pub fn set_types(&mut self, key: Option<ElementType>, value: Option<ElementType>) {
        self.typed = (key.is_some() || value.is_some()).then(|| Box::new([key, value]));
    }

    /// Key type of a typed dictionary; `None` when keys are untyped.
    ///
    /// ```
    /// assert!(gdwire::owned::Dictionary::new().key_type().is_none());
    /// ```
    pub fn key_type(&self) -> Option<&ElementType> {
        self.typed.as_ref().and_then(|t| t[0].as_ref())
    }

    /// Value type of a typed dictionary; `None` when values are untyped.
    ///
    /// ```
    /// assert!(gdwire::owned::Dictionary::new().value_type().is_none());
    /// ```
    pub fn value_type(&self) -> Option<&ElementType> {
        self.typed.as_ref().and_then(|t| t[1].as_ref())
    }

    /// Number of entries (duplicates counted).
    ///
    /// ```
    /// assert_eq!(gdwire::owned::Dictionary::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no entries.
    ///
    /// ```
    /// assert!(gdwire::owned::Dictionary::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in order.
    ///
    /// ```
    /// let d: gdwire::owned::Dictionary = [("a", 1)].into_iter().collect();
    /// assert_eq!(d.entries()[0].1, gdwire::owned::Variant::Int(1));
    /// ```
    pub fn entries(&self) -> &[(Variant, Variant)] {
        &self.entries
    }

    /// The entries, to change in place (order, duplicates and all).
    ///
    /// ```
    /// let mut d: gdwire::owned::Dictionary = [("a", 1)].into_iter().collect();
    /// d.entries_mut().clear();
    /// assert!(d.is_empty());
    /// ```
    pub fn entries_mut(&mut self) -> &mut Vec<(Variant, Variant)> {
        &mut self.entries
    }

    /// Iterates `(key, value)` pairs in order.
    ///
    /// ```
    /// let d: gdwire::owned::Dictionary = [(1, "a")].into_iter().collect();
    /// for (k, v) in d.iter() {
    ///     assert_eq!((k.as_int(), v.as_str()), (Some(1), Some("a")));
    /// }
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Variant, &Variant)> + '_ {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The keys in order.
    ///
    /// ```
    /// let d: gdwire::owned::Dictionary = [(1, 2)].into_iter().collect();
    /// assert_eq!(d.keys().count(), 1);
    /// ```
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &Variant> + '_ {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in order.
    ///
    /// ```
    /// let d: gdwire::owned::Dictionary = [(1, 2)].into_iter().collect();
    /// assert!(d.values().eq([&gdwire::owned::Variant::Int(2)]));
    /// ```
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Variant> + '_ {
        self.entries.iter().map(|(_, v)| v)
    }

    fn position<K: ?Sized>(&self, key: &K) -> Option<usize>
    where
        Variant: PartialEq<K>,
    {
        self.entries.iter().rposition(|(k, _)| k == key)
    }

    /// The value of the last entry whose key equals `key`: a [`Variant`], or a `str` (matches
    /// a String or StringName key) or an `i64` (an Int key).
    ///
    /// ```
    /// use gdwire::owned::{Dictionary, Variant};
    /// let d: Dictionary = [(Variant::from("a"), Variant::from(1)), (5.into(), 2.into())]
    ///     .into_iter()
    ///     .collect();
    /// assert_eq!(d.get("a"), Some(&Variant::Int(1)));
    /// assert_eq!(d.get(&5i64), Some(&Variant::Int(2)));
    /// assert_eq!(d.get(&Variant::from(5)), Some(&Variant::Int(2)));
    /// assert_eq!(d.get("b"), None);
    /// ```
    pub fn get<K: ?Sized>(&self, key: &K) -> Option<&Variant>
    where
        Variant: PartialEq<K>,
    {
        self.position(key).map(|i| &self.entries[i].1)
    }

    /// The value of the last entry whose key equals `key`, to change.
    ///
    /// ```
    /// let mut d: gdwire::owned::Dictionary = [("hp", 1)].into_iter().collect();
    /// *d.get_mut("hp").unwrap() = 2.into();
    /// assert_eq!(d.get("hp").and_then(|v| v.as_int()), Some(2));
    /// ```
    pub fn get_mut<K: ?Sized>(&mut self, key: &K) -> Option<&mut Variant>
    where
        Variant: PartialEq<K>,
    {
        self.position(key).map(|i| &mut self.entries[i].1)
    }

    /// True when some entry has this key.
    ///
    /// ```
    /// let d: gdwire::owned::Dictionary = [("a", 1)].into_iter().collect();
    /// assert!(d.contains_key("a"));
    /// ```
    pub fn contains_key<K: ?Sized>(&self, key: &K) -> bool
    where
        Variant: PartialEq<K>,
    {
        self.position(key).is_some()
    }

    /// Sets `key` to `value`, as GDScript's `d[key] = value`: replaces the value of the last
    /// entry with that key (which keeps its position) and returns the old value, or appends
    /// a new entry.
    ///
    /// ```
    /// let mut d = gdwire::owned::Dictionary::new();
    /// assert!(d.insert("a", 1).is_none());
    /// assert_eq!(d.insert("a", 2).and_then(|v| v.as_int()), Some(1));
    /// ```
    pub fn insert(
        &mut self,
        key: impl Into<Variant>,
        value: impl Into<Variant>,
    ) -> Option<Variant> {
        let (key, value) = (key.into(), value.into());
        match self.position(&key) {
            Some(i) => Some(core::mem::replace(&mut self.entries[i].1, value)),
            None => {
                self.entries.push((key, value));
                None
            }
        }
    }

    /// Appends an entry, even if the key is already there (the wire allows it).
    ///
    /// ```
    /// let mut d = gdwire::owned::Dictionary::new();
    /// d.push(1, "a");
    /// d.push(1, "b");
    /// assert_eq!(d.len(), 2);
    /// assert_eq!(d.get(&1i64).and_then(|v| v.as_str()), Some("b"));
    /// ```
    pub fn push(&mut self, key: impl Into<Variant>, value: impl Into<Variant>) {
        self.entries.push((key.into(), value.into()));
    }

    /// Removes every entry with this key; returns the value the engine would have kept
    /// (the last one).
    ///
    /// ```
    /// let mut d: gdwire::owned::Dictionary = [("a", 1), ("b", 2)].into_iter().collect();
    /// assert_eq!(d.remove("a").and_then(|v| v.as_int()), Some(1));
    /// assert_eq!(d.len(), 1);
    /// ```
    pub fn remove<K: ?Sized>(&mut self, key: &K) -> Option<Variant>
    where
        Variant: PartialEq<K>,
    {
        let mut kept = None;
        let mut i = 0;
        while i < self.entries.len() {
            if self.entries[i].0 == *key {
                kept = Some(self.entries.remove(i).1);
            } else {
                i += 1;
            }
        }
        kept
    }

    /// The entries, as a vector.
    ///
    /// ```
    /// let d: gdwire::owned::Dictionary = [("a", 1)].into_iter().collect();
    /// assert_eq!(d.into_entries().len(), 1);
    /// ```
    pub fn into_entries(mut self) -> Vec<(Variant, Variant)> {
        core::mem::take(&mut self.entries)
    }

    /// An empty dictionary with the same types.
    pub(crate) fn empty_like(&self, capacity: usize) -> Dictionary {
        Dictionary {
            entries: Vec::with_capacity(capacity),
            typed: self.typed.clone(),
        }
    }
}

impl From<Vec<(Variant, Variant)>> for Dictionary {
    fn from(entries: Vec<(Variant, Variant)>) -> Dictionary {
        Dictionary {
            entries,
            typed: None,
        }
    }
}

impl<K: Into<Variant>, V: Into<Variant>> FromIterator<(K, V)> for Dictionary {
    /// Collects the pairs as entries in order (duplicates kept, as [`Dictionary::push`]).
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Dictionary {
        Dictionary::from(
            iter.into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect::<Vec<_>>(),
        )
    }
}

impl IntoIterator for Dictionary {
    type Item = (Variant, Variant);
    type IntoIter = alloc::vec::IntoIter<(Variant, Variant)>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_entries().into_iter()
    }
}

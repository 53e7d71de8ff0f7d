//! `Pairs`: a map kept in wire order (Godot dictionaries are ordered; `BTreeMap` sorts).

use serde::{Deserialize, Serialize};

/// A Dictionary's entries in wire order, as a serde map.
#[derive(Debug, PartialEq)]
pub struct Pairs<K, V>(pub Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for Pairs<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Pairs<K, V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Vis<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> serde::de::Visitor<'de> for Vis<K, V> {
            type Value = Pairs<K, V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(kv) = m.next_entry()? {
                    out.push(kv);
                }
                Ok(Pairs(out))
            }
        }
        d.deserialize_map(Vis(std::marker::PhantomData))
    }
}

//! Duplicate dictionary keys, merged as the engine's dictionary merges them (first position,
//! last value), by the same key equality the text writer uses (`text::same`): each key is
//! encoded, decoded as a view and compared there.

use alloc::vec::Vec;

use crate::read::{Decoder, VariantRef};
use crate::text::ends::Node;
use crate::text::order::{Entry, Keys};
use crate::text::parse::emit::emit;
use crate::text::parse::tree::{Kind, Tree};
use crate::text::parse::Syntax;
use crate::{Dialect, Precision, Writer};

pub(super) struct Merger {
    dialect: Dialect,
    /// The parse's precision: keys are compared as they will be written.
    pub(super) precision: Precision,
    buf: Vec<u8>,
    ends: Vec<(usize, usize)>,
}

impl Merger {
    pub(super) fn new(dialect: Dialect) -> Merger {
        Merger {
            dialect,
            precision: Precision::Single,
            buf: Vec::new(),
            ends: Vec::new(),
        }
    }

    /// `items`: keys and values alternating. Returns them with duplicates merged. A key that
    /// cannot be encoded is left for the final write to report.
    pub(super) fn merge(
        &mut self,
        tree: &Tree,
        items: Vec<u32>,
        depth: u32,
    ) -> Result<Vec<u32>, Syntax> {
        let n = items.len() / 2;
        if n < 2 || all_distinct_simple(tree, &items) {
            return Ok(items);
        }
        self.buf.clear();
        self.ends.clear();
        for key in items.iter().step_by(2) {
            let start = self.buf.len();
            let mut w = Writer::new(&mut self.buf, self.dialect)
                .with_full_objects(true)
                .with_heap_spill(true)
                .with_precision(self.precision);
            if emit(&mut w, tree, *key).is_err() || w.finish().is_err() {
                return Ok(items);
            }
            self.ends.push((start, self.buf.len()));
        }
        let decoder = Decoder::new(self.dialect).with_allow_objects(true);
        let mut entries = Vec::with_capacity(n);
        for (i, &(start, end)) in self.ends.iter().enumerate() {
            let Ok(v) = decoder.decode(&self.buf[start..end]) else {
                return Ok(items);
            };
            entries.push(Entry {
                key: Node { v, id: None },
                // The entry's own index: after merging, the index whose value wins.
                value: Node {
                    v: VariantRef::Int(i as i64),
                    id: None,
                },
            });
        }
        let mut keys = Keys::new(self.dialect);
        if keys.merge_duplicates(&mut entries, depth).is_err() {
            return Ok(items);
        }
        let mut out = Vec::with_capacity(items.len());
        for (i, e) in entries.iter().enumerate() {
            if keys.keep.get(i).copied().unwrap_or(true) {
                let winner = match e.value.v {
                    VariantRef::Int(j) => j as usize,
                    _ => i,
                };
                out.push(items[2 * i]);
                out.push(items[2 * winner + 1]);
            }
        }
        Ok(out)
    }
}

/// True when every key is an int or a String and no two are equal: nothing to merge. (Ints
/// equal only the same int, Strings only the same text, and an int never equals a String, in
/// every engine line.) The common case, checked without encoding the keys.
fn all_distinct_simple(tree: &Tree, items: &[u32]) -> bool {
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    enum Simple<'a> {
        Int(i64),
        Str(&'a [u8]),
    }
    let mut keys = Vec::with_capacity(items.len() / 2);
    for &k in items.iter().step_by(2) {
        match tree.node(k).kind {
            Kind::Int(i) => keys.push(Simple::Int(i)),
            Kind::String(s) => keys.push(Simple::Str(tree.text(s))),
            _ => return false,
        }
    }
    keys.sort_unstable();
    keys.windows(2).all(|w| w[0] != w[1])
}

//! The values the engine interop tests (`godot3_interop`, `godot4_interop`) write with the
//! crate's `Writer` and hand to a real engine: each named, with the object mode it was
//! written in and what that engine's test needs to know about it (`N`).

use gdwire::{Dialect, Precision, Writer};

pub type W<'a> = Writer<&'a mut Vec<u8>>;

pub struct Case<N> {
    pub name: String,
    pub bytes: Vec<u8>,
    /// Written with full objects: the engine reads (and re-encodes) it with objects allowed.
    pub full: bool,
    /// What the test knows about this value beyond its bytes (documented differences).
    pub notes: N,
}

pub struct Cases<N> {
    dialect: Dialect,
    precision: Precision,
    pub list: Vec<Case<N>>,
}

impl<N: Default> Cases<N> {
    pub fn new(dialect: Dialect) -> Self {
        Cases {
            dialect,
            precision: Precision::Single,
            list: Vec::new(),
        }
    }

    /// Math values written in `precision` (`Writer::with_precision`).
    pub fn with_precision(mut self, precision: Precision) -> Self {
        self.precision = precision;
        self
    }

    pub fn add(
        &mut self,
        name: impl Into<String>,
        f: impl FnOnce(&mut W<'_>) -> gdwire::Result<()>,
    ) -> &mut Case<N> {
        self.push(name.into(), false, f)
    }

    /// Written with full objects.
    pub fn add_full(
        &mut self,
        name: impl Into<String>,
        f: impl FnOnce(&mut W<'_>) -> gdwire::Result<()>,
    ) -> &mut Case<N> {
        self.push(name.into(), true, f)
    }

    fn push(
        &mut self,
        name: String,
        full: bool,
        f: impl FnOnce(&mut W<'_>) -> gdwire::Result<()>,
    ) -> &mut Case<N> {
        assert!(
            self.list.iter().all(|c| c.name != name),
            "duplicate case {name}"
        );
        let bytes = super::written_in(self.dialect, self.precision, full, f)
            .unwrap_or_else(|e| panic!("{name}: writing failed: {e}"));
        self.list.push(Case {
            name,
            bytes,
            full,
            notes: N::default(),
        });
        self.list.last_mut().unwrap()
    }
}

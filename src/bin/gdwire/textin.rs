//! `encode --from text`: the engine's text form (str_to_var / str2var) → wire bytes.

use anyhow::Result;
use gdwire::{Dialect, Precision};

use crate::encode::Encoded;

/// Every value of `text`, in order (`;` comment lines, e.g. dump's headers, are skipped by the
/// parser as by the engine's).
pub fn parse_all(
    name: &str,
    dialect: Dialect,
    precision: Precision,
    text: &str,
) -> Result<Encoded> {
    let mut values = gdwire::text::parse_many(dialect, text).with_precision(precision);
    let mut out = Vec::new();
    while let Some(value) = values.next() {
        let value = value.map_err(|e| {
            anyhow::anyhow!("{name}: value {} (line {}): {e}", out.len(), values.line())
        })?;
        out.push(value);
    }
    Ok(out)
}

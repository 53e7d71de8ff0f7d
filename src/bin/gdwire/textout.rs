//! The text form as bytes.

use anyhow::Result;
use gdwire::{Dialect, VariantRef};

/// Appends the dialect's text form of `value` to `out`.
pub fn write(out: &mut Vec<u8>, dialect: Dialect, value: &VariantRef<'_>) -> Result<()> {
    let mut s = String::new();
    gdwire::text::write_text(&mut s, dialect, value)?;
    out.extend_from_slice(s.as_bytes());
    Ok(())
}

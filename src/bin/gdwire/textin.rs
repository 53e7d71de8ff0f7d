//! `encode --from text`: the engine's text form (str_to_var / str2var) → wire bytes.

use anyhow::{bail, Result};
use gdwire::Dialect;

use crate::encode::Encoded;

/// Every value of `text`, in order.
pub fn parse_all(name: &str, dialect: Dialect, text: &str) -> Result<Encoded> {
    let _ = (dialect, text);
    bail!(
        "{name}: --from text is not available in this build yet (the text parser is not \
         part of gdwire {}); use `dump --format json` and `encode --from json`",
        env!("CARGO_PKG_VERSION")
    )
}

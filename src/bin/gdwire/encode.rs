//! `gdwire encode --from json`: JSON documents → wire bytes on stdout.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::ValueEnum;

use crate::common::{display_name, read_input, WireArgs};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    wire: WireArgs,
    /// Input form: json (the JSON.from_native convention that `dump --format json` prints,
    /// strict RFC 8259, see docs/json.md), or engine-json (the same, also reading what
    /// Godot's JSON.stringify writes: 1e99999 for inf, null for NaN (read as 0, as the
    /// engine does), raw control characters).
    #[arg(long, value_enum)]
    from: From,
    /// JSON file; `-` is standard input. Documents are separated by whitespace (one per
    /// line as `dump --format json` prints them). With `--framing none` exactly one
    /// document is expected.
    #[arg(value_name = "FILE", default_value = "-")]
    file: String,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum From {
    Json,
    EngineJson,
}

pub fn run(args: Args) -> Result<ExitCode> {
    crate::multiplayer::reject(&args.wire, "encode")?;
    let options = match args.from {
        From::Json => gdwire::json::Options::STRICT,
        From::EngineJson => gdwire::json::Options::ENGINE,
    };
    let stdout = io::stdout();
    if stdout.is_terminal() {
        bail!("refusing to write binary data to a terminal; redirect stdout to a file or pipe");
    }
    let name = display_name(&args.file);
    let data = read_input(&args.file)?;
    let text = std::str::from_utf8(&data).with_context(|| format!("{name}: not UTF-8"))?;
    let framing = args.wire.framing();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut docs = gdwire::json::documents_with(args.wire.dialect, text, options);
    let mut index = 0;
    while let Some(doc) = docs.next() {
        // Lines are counted only for messages.
        let at = |docs: &gdwire::json::Documents<'_>| {
            format!("{name}: document {index} (line {})", docs.line())
        };
        let bytes = doc.with_context(|| at(&docs))?;
        match framing {
            None if index > 0 => bail!(
                "{}: --framing none takes one document; use --framing stream for several",
                at(&docs)
            ),
            None => {}
            Some(f) => {
                let prefix = f
                    .prefix(bytes.len())
                    .map_err(|e| anyhow::anyhow!("{}: {}", at(&docs), e.kind()))?;
                out.write_all(&prefix)?;
            }
        }
        out.write_all(&bytes)?;
        index += 1;
    }
    if index == 0 {
        bail!("{name}: no JSON document");
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

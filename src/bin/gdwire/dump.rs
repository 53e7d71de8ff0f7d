//! `gdwire dump`: each value on its own record, as engine text or JSON.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Result;
use clap::ValueEnum;
use gdwire::Decoder;

use crate::common::{decode, for_each_record, Inputs, WireArgs};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    wire: WireArgs,
    /// Output form: text (var2str / var_to_str of the dialect, one value per record, which
    /// may span lines) or json (the JSON.from_native convention, one document per line,
    /// lossless; see docs/json.md).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Accept full objects (class name and properties). They are printed, never
    /// instantiated.
    #[arg(long)]
    allow_objects: bool,
    #[command(flatten)]
    inputs: Inputs,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let dialect = args.wire.dialect;
    let decoder = Decoder::new(dialect).with_allow_objects(args.allow_objects);
    if args.wire.is_multiplayer() {
        crate::multiplayer::dump(&args.wire, decoder, &args.inputs.files)?;
        return Ok(ExitCode::SUCCESS);
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut line = String::new();
    let live = io::stdout().is_terminal();
    for file in &args.inputs.files {
        for_each_record(&args.wire, file, |rec| {
            let value = decode(&decoder, file, rec)?;
            line.clear();
            match args.format {
                Format::Text => gdwire::text::write_text(&mut line, dialect, &value)?,
                Format::Json => gdwire::json::write_json(&mut line, dialect, &value)?,
            }
            line.push('\n');
            out.write_all(line.as_bytes())?;
            if live {
                out.flush()?; // a person watching a live stream sees each value as it comes
            }
            Ok(())
        })?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

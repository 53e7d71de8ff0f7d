//! `gdwire encode`: values typed as text (str_to_var) or JSON → wire bytes on stdout.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use gdwire::frame::DEFAULT_MAX_FRAME;
use gdwire::json::Options;
use gdwire::{Dialect, Precision};

use crate::common::{display_name, parse_dialect, read_input, FramingArg};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Engine line to write for: godot3, godot4.0 … godot4.6, godot4 (= newest 4.x),
    /// pandemonium3.5, pandemonium3.8, pandemonium5.
    #[arg(long, short = 'd', default_value = "godot4", value_parser = parse_dialect)]
    dialect: Dialect,
    /// How values are delimited on output: auto (none for one value, stream for several),
    /// none (one var2bytes value), stream (u32 little-endian length prefixes, as store_var /
    /// put_var), stream-be (big-endian prefixes).
    #[arg(long, short = 'f', value_enum, default_value_t = FramingArg::Auto)]
    framing: FramingArg,
    /// Largest value accepted with stream framing, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_FRAME, value_name = "BYTES")]
    max_frame: usize,
    /// Input form: auto (json when every document reads as the JSON form, else text), text
    /// (the engine's var_to_str / var2str form, as `dump` prints it), json (the
    /// JSON.from_native convention, as `dump --format json` prints it, strict RFC 8259),
    /// engine-json (the same, also reading what Godot's JSON.stringify writes: 1e99999 for
    /// inf, null for NaN (read as 0, as the engine does), raw control characters).
    #[arg(long, value_enum, default_value_t = From::Auto)]
    from: From,
    /// Precision of real math types and packed vector arrays that the input does not mark
    /// (all of the text form; JSON without "precision"): single, or double as a Godot 4
    /// double-precision build reads them.
    #[arg(long, value_enum, default_value_t = PrecisionArg::Single)]
    precision: PrecisionArg,
    /// Input file; `-` is standard input. Values follow each other (one per line as `dump`
    /// prints them); lines starting with `;` are comments (dump's headers).
    #[arg(value_name = "FILE", default_value = "-")]
    file: String,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum From {
    Auto,
    Text,
    Json,
    EngineJson,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum PrecisionArg {
    Single,
    Double,
}

/// The encoded values, in input order.
pub type Encoded = Vec<Vec<u8>>;

pub fn run(args: Args) -> Result<ExitCode> {
    let stdout = io::stdout();
    if stdout.is_terminal() {
        bail!("refusing to write binary data to a terminal; redirect stdout to a file or pipe");
    }
    let name = display_name(&args.file);
    let data = read_input(&args.file)?;
    let text = std::str::from_utf8(&data).with_context(|| format!("{name}: not UTF-8"))?;
    let precision = match args.precision {
        PrecisionArg::Single => Precision::Single,
        PrecisionArg::Double => Precision::Double,
    };
    let strict = Options::STRICT.with_precision(precision);
    let values = match args.from {
        From::Json => from_json(name, args.dialect, text, strict)?,
        From::EngineJson => from_json(
            name,
            args.dialect,
            text,
            Options::ENGINE.with_precision(precision),
        )?,
        From::Text => crate::textin::parse_all(name, args.dialect, precision, text)?,
        From::Auto => match from_json(name, args.dialect, text, strict) {
            Ok(values) => values,
            Err(json_error) => crate::textin::parse_all(name, args.dialect, precision, text)
                .map_err(|text_error| {
                    anyhow::anyhow!(
                        "{text_error:#} (read as text: it is not JSON either: {json_error:#}; \
                         --from json or --from text picks one)"
                    )
                })?,
        },
    };
    if values.is_empty() {
        bail!("{name}: no value");
    }
    if matches!(
        args.framing,
        FramingArg::Multiplayer | FramingArg::MultiplayerCapture
    ) {
        bail!("--framing {} is for dump and validate", args.framing.name());
    }
    let framing = match args.framing {
        FramingArg::Auto if values.len() == 1 => FramingArg::None,
        FramingArg::Auto => FramingArg::Stream,
        f => f,
    };
    let framing = framing.framing(args.max_frame);
    if framing.is_none() && values.len() > 1 {
        bail!("{name}: --framing none takes one value, this input has {}; use --framing stream for several", values.len());
    }
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    for (index, bytes) in values.iter().enumerate() {
        if let Some(f) = framing {
            let prefix = f
                .prefix(bytes.len())
                .map_err(|e| anyhow::anyhow!("{name}: value {index}: {}", e.kind()))?;
            out.write_all(&prefix)?;
        }
        out.write_all(bytes)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// JSON documents separated by whitespace; `;` comment lines (dump's headers) are blanked
/// first, which keeps line numbers (a JSON document cannot have a line starting with `;`:
/// strings hold no raw newline, and `;` is no JSON token).
fn from_json(name: &str, dialect: Dialect, text: &str, options: Options) -> Result<Encoded> {
    let cleaned;
    let text = if text.lines().any(|l| l.trim_start().starts_with(';')) {
        cleaned = text
            .split_inclusive('\n')
            .map(|l| {
                if l.trim_start().starts_with(';') {
                    if l.ends_with('\n') {
                        "\n"
                    } else {
                        ""
                    }
                } else {
                    l
                }
            })
            .collect::<String>();
        cleaned.as_str()
    } else {
        text
    };
    let mut docs = gdwire::json::documents_with(dialect, text, options);
    let mut out = Vec::new();
    while let Some(doc) = docs.next() {
        // Lines are counted only for messages.
        let bytes =
            doc.with_context(|| format!("{name}: document {} (line {})", out.len(), docs.line()))?;
        out.push(bytes);
    }
    Ok(out)
}

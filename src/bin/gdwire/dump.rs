//! `gdwire dump`: each value on its own record, as engine text or JSON.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Result;
use clap::ValueEnum;
use gdwire::{Decoder, Dialect};

use crate::common::{
    decode, display_name, for_each_record, hint, input_len, plan, report_located, FramingArg,
    Inputs, WireArgs,
};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    wire: WireArgs,
    /// Output form: text (var2str / var_to_str of the dialect, one value per record, which
    /// may span lines) or json (the JSON.from_native convention, one document per line,
    /// lossless).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Accept full objects (class name and properties). They are printed, never
    /// instantiated.
    #[arg(long)]
    allow_objects: bool,
    /// Do not print the `; FILE: frame N at byte OFFSET` line before each value (printed when
    /// more than one value can be shown: several inputs, or a stream). The engine's
    /// str_to_var and `gdwire encode` skip such `;` comment lines.
    #[arg(long)]
    no_headers: bool,
    #[command(flatten)]
    inputs: Inputs,
}

/// Largest file `dump` takes a second look at (see `run`).
const SECOND_LOOK: u64 = 16 << 20;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let make = |dialect: Dialect| Decoder::new(dialect).with_allow_objects(args.allow_objects);
    if args.wire.is_multiplayer() {
        let decoder = make(args.wire.multiplayer_plan().dialect);
        crate::multiplayer::dump(&args.wire, decoder, &args.inputs.files)?;
        return Ok(ExitCode::SUCCESS);
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut line = Vec::new();
    let live = io::stdout().is_terminal();
    let several_files = args.inputs.files.len() > 1;
    for file in &args.inputs.files {
        let plan = plan(&args.wire, file, &make, false)?;
        let dialect = plan.dialect;
        let decoder = make(dialect);
        // Headers when the output can hold more than one value. A stream read whole (auto)
        // has a known count; one read live does not, so its frames always get headers.
        let headers = !args.no_headers
            && (several_files
                || (plan.framing != FramingArg::None
                    && plan.data.as_deref().is_none_or(|d| {
                        plan.framing().is_some_and(|f| f.frames(d).nth(1).is_some())
                    })));
        // Values that fail inside intact frames: reported as they come, the next frame read on
        // (as the engine's get_var reads on).
        let mut bad_frames = 0;
        let result = for_each_record(&plan, file, |rec| {
            let value = match decode(&decoder, file, rec) {
                Ok(value) => value,
                Err(e) if plan.framing != FramingArg::None => {
                    out.flush()?;
                    eprintln!("gdwire: {e:#}");
                    bad_frames += 1;
                    return Ok(());
                }
                Err(e) => return Err(e),
            };
            line.clear();
            if headers {
                let name = display_name(file);
                match plan.framing {
                    FramingArg::None => writeln!(line, "; {name}: {} bytes", rec.payload.len())?,
                    _ => writeln!(
                        line,
                        "; {name}: frame {} at byte {}, {} bytes",
                        rec.index,
                        rec.offset,
                        rec.payload.len()
                    )?,
                }
            }
            match args.format {
                Format::Text => crate::textout::write(&mut line, &decoder, rec.payload, &value)?,
                Format::Json => {
                    let mut s = String::new();
                    gdwire::json::write_json(&mut s, dialect, &value)?;
                    line.extend_from_slice(s.as_bytes());
                }
            }
            line.push(b'\n');
            out.write_all(&line)?;
            if live {
                out.flush()?; // a person watching a live stream sees each value as it comes
            }
            Ok(())
        });
        match result {
            Ok(_) if bad_frames > 0 => {
                out.flush()?;
                eprintln!(
                    "gdwire: {}",
                    hint(&args.wire, file, plan.data.as_deref(), &make)
                );
                return Ok(ExitCode::FAILURE);
            }
            Ok(_) if plan.data.is_none() && input_len(file).is_some_and(|n| n <= SECOND_LOOK) => {
                // Given dialect and framing: a second look for signs of a misreading (a
                // Godot 3 Color read as a Godot 4 Plane). Files up to 16 MiB only: stdin is
                // gone, and a large capture keeps the bounded memory it was streamed in.
                if let Ok(data) = std::fs::read(file) {
                    let warning =
                        crate::detect::second_look(&data, &args.wire, dialect, plan.framing, &make);
                    if let Some(w) = warning {
                        out.flush()?;
                        eprintln!("gdwire: {}: {w}", display_name(file));
                    }
                }
            }
            Ok(_) => {}
            Err(e) => {
                out.flush()?;
                if report_located(&e, "", &args.wire, file, &plan, &make) {
                    return Ok(ExitCode::FAILURE);
                }
                return Err(e);
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

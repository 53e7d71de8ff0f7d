//! `gdwire validate`: every value must decode (exactly one value per record).

use std::process::ExitCode;

use anyhow::Result;
use gdwire::Decoder;

use crate::common::{display_name, for_each_record, Inputs, Located, WireArgs};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    wire: WireArgs,
    /// Accept full objects (class name and properties), as bytes_to_var_with_objects does.
    #[arg(long)]
    allow_objects: bool,
    /// Print nothing on success.
    #[arg(long, short = 'q')]
    quiet: bool,
    #[command(flatten)]
    inputs: Inputs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let decoder = Decoder::new(args.wire.dialect).with_allow_objects(args.allow_objects);
    for file in &args.inputs.files {
        let mut values = 0usize;
        let checked = if args.wire.is_multiplayer() {
            crate::multiplayer::validate(&args.wire, decoder, file).map(|(n, bytes)| {
                values = n;
                bytes
            })
        } else {
            for_each_record(&args.wire, file, |rec| {
                // Validation only: one pass, no views built.
                let used = decoder
                    .validate(rec.payload)
                    .map_err(|e| Located::new(file, rec.index, rec.offset, e))?;
                if used != rec.payload.len() {
                    let count = rec.payload.len() - used;
                    let e = gdwire::Error::new(gdwire::ErrorKind::TrailingBytes { count }, used);
                    return Err(Located::new(file, rec.index, rec.offset, e).into());
                }
                values += 1;
                Ok(())
            })
        };
        let bytes = match checked {
            Ok(bytes) => bytes,
            Err(e) if e.downcast_ref::<Located>().is_some() => {
                eprintln!("gdwire: invalid: {e:#}");
                return Ok(ExitCode::FAILURE);
            }
            Err(e) => return Err(e),
        };
        if !args.quiet {
            println!(
                "{}: {values} {}{} valid ({}, {} bytes)",
                display_name(file),
                if args.wire.is_multiplayer() {
                    "packet"
                } else {
                    "value"
                },
                if values == 1 { "" } else { "s" },
                args.wire.dialect,
                bytes
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

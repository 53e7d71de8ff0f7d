//! `gdwire validate`: every value must decode. By default the verdict is the engine's for the
//! dialect (`bytes_to_var` / `get_var`): bytes after a value are ignored (with a warning), and
//! the nesting limit is the engine's. `--strict` asks for exactly one value per record and the
//! 1024-level limit.

use std::process::ExitCode;

use anyhow::Result;
use gdwire::{Decoder, Dialect, Family, MAX_DEPTH};

use crate::common::{
    display_name, for_each_record, plan, report_located, Inputs, Located, WireArgs,
};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    wire: WireArgs,
    /// Accept full objects (class name and properties), as bytes_to_var_with_objects does.
    #[arg(long)]
    allow_objects: bool,
    /// Stricter than the engine: bytes after a value are an error (the engine ignores them,
    /// e.g. a Godot 3 RID sent with a payload), and nesting is limited to 1024 levels for every
    /// dialect (Godot 3.2 has no limit).
    #[arg(long)]
    strict: bool,
    /// Nesting limit (the top-level value is depth 0). Default: the engine's for the dialect,
    /// 1024 (Godot 3.3+, 4.x, Pandemonium), none for godot3 (3.2 has no limit).
    #[arg(long, value_name = "N")]
    max_depth: Option<u32>,
    /// Print nothing on success (warnings still go to stderr).
    #[arg(long, short = 'q')]
    quiet: bool,
    #[command(flatten)]
    inputs: Inputs,
}

/// The engine's nesting limit: Godot 3.2 (the verified engine) has none; 3.3+, 4.x and
/// Pandemonium stop at 1024.
fn engine_depth(dialect: Dialect) -> u32 {
    match dialect.family() {
        Family::Godot3 => u32::MAX,
        _ => MAX_DEPTH,
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let strict = args.strict;
    let make = |dialect: Dialect| {
        let depth = match (args.max_depth, strict) {
            (Some(n), _) => n,
            (None, true) => MAX_DEPTH,
            (None, false) => engine_depth(dialect),
        };
        Decoder::new(dialect)
            .with_allow_objects(args.allow_objects)
            .with_max_depth(depth)
    };
    for file in &args.inputs.files {
        if args.wire.is_multiplayer() {
            let decoder = make(args.wire.multiplayer_plan().dialect);
            match crate::multiplayer::validate(&args.wire, decoder, file) {
                Ok((n, bytes)) => {
                    if !args.quiet {
                        println!(
                            "{}: {n} packet{} valid ({}, {} bytes)",
                            display_name(file),
                            if n == 1 { "" } else { "s" },
                            args.wire.multiplayer_plan().dialect,
                            bytes
                        );
                    }
                    continue;
                }
                Err(e) if e.downcast_ref::<Located>().is_some() => {
                    eprintln!("gdwire: invalid: {e:#}");
                    return Ok(ExitCode::FAILURE);
                }
                Err(e) => return Err(e),
            }
        }
        let plan = plan(&args.wire, file, &make, !strict)?;
        let decoder = make(plan.dialect);
        let mut values = 0usize;
        let mut warned = 0usize;
        let checked = for_each_record(&plan, file, |rec| {
            // Validation only: one pass, no views built.
            let used = decoder
                .validate(rec.payload)
                .map_err(|e| Located::new(file, rec.index, rec.offset, e))?;
            if used != rec.payload.len() {
                let count = rec.payload.len() - used;
                let e = gdwire::Error::new(gdwire::ErrorKind::TrailingBytes { count }, used);
                let located = Located::new(file, rec.index, rec.offset, e);
                if strict {
                    return Err(located.into());
                }
                // The engine decodes the value and ignores the rest; say so once per record,
                // a few records at most.
                if warned < 5 {
                    eprintln!("gdwire: warning: {located} (ignored, as the engine does)");
                }
                warned += 1;
            }
            values += 1;
            Ok(())
        });
        let bytes = match checked {
            Ok(bytes) => bytes,
            Err(e) if report_located(&e, "invalid: ", &args.wire, file, &plan, &make) => {
                return Ok(ExitCode::FAILURE);
            }
            Err(e) => return Err(e),
        };
        if warned > 5 {
            eprintln!(
                "gdwire: warning: {} records in all have trailing bytes",
                warned
            );
        }
        if !args.quiet {
            println!(
                "{}: {values} value{} valid ({}, {} framing, {} bytes{})",
                display_name(file),
                if values == 1 { "" } else { "s" },
                plan.dialect,
                plan.framing.name(),
                bytes,
                if strict { ", strict" } else { "" }
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

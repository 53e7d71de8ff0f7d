//! `gdwire`: inspect, convert and check Godot Variant binary data from the shell.
//!
//! Exit codes: 0 success, 1 invalid data or a failed operation, 2 usage errors.
//! Every error is one line on stderr. See `docs/cli.md`.

mod common;
mod dump;
mod encode;
mod multiplayer;
mod stats;
mod validate;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand};

/// Inspect, convert and check Godot's Variant binary serialization (var2bytes,
/// var_to_bytes, put_var, store_var) for Godot 3, Godot 4 and Pandemonium.
#[derive(Parser)]
#[command(name = "gdwire", version, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print each value in the engine's text form (var2str / var_to_str) or as JSON.
    Dump(dump::Args),
    /// Turn JSON documents (one per value, as `dump --format json` prints) into wire bytes
    /// on stdout.
    Encode(encode::Args),
    /// Check that every value decodes; exit 1 at the first one that does not.
    Validate(validate::Args),
    /// Count values by type, sizes, nesting depth and the largest values.
    Stats(stats::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    // Nothing below recurses per nesting level (the reader, text, JSON output and the
    // writer keep their own stacks; JSON input is limited to 128 levels by serde_json), so
    // the main thread's stack is enough for the deepest values.
    let result = match cli.command {
        Command::Dump(args) => dump::run(args),
        Command::Encode(args) => encode::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Stats(args) => stats::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) if common::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // `{:#}` puts the whole context chain on one line.
            eprintln!("gdwire: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Help and version go to stdout as clap prints them; usage errors become one line on
/// stderr and exit code 2.
fn usage_error(e: clap::Error) -> ExitCode {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = e.print(); // the help, on stderr
        return ExitCode::from(2);
    }
    let text = e.render().to_string();
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("usage error");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    eprintln!("gdwire: {first} (see gdwire --help)");
    ExitCode::from(2)
}

//! `gdwire`: inspect, convert and check Godot Variant binary data from the shell.
//!
//! Exit codes: 0 success, 1 invalid data or a failed operation, 2 usage errors.
//! Every error is one line on stderr. See `docs/cli.md`.

mod common;
mod detect;
mod dump;
mod encode;
mod multiplayer;
mod stats;
mod textin;
mod textout;
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
    /// Turn values typed as text (str_to_var form) or JSON (as `dump` prints them) into wire
    /// bytes on stdout.
    Encode(encode::Args),
    /// Check that every value decodes as the engine would (--strict: exactly one value per
    /// record); exit 1 at the first one that does not.
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
        Err(e) if e.downcast_ref::<common::Reported>().is_some() => ExitCode::FAILURE,
        Err(e) => {
            // `{:#}` puts the whole context chain on one line.
            eprintln!("gdwire: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Help and version go to stdout as clap prints them; usage errors go to stderr as clap words
/// them (the missing argument's name, "a similar argument exists", the possible values), on
/// one line without the usage block, and exit with code 2.
fn usage_error(e: clap::Error) -> ExitCode {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = e.print(); // the help, on stderr
        return ExitCode::from(2);
    }
    eprintln!("gdwire: {}", one_line(&e.render().to_string()));
    ExitCode::from(2)
}

/// clap's message without its usage block and "For more information" line, joined into one
/// line: `unexpected argument '--formt' found; tip: a similar argument exists: '--format'
/// (see gdwire --help)`.
fn one_line(text: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        match parts.last_mut() {
            // A list under "…:" or "[possible values: …]" continues the line before.
            Some(last) if last.ends_with(':') || line.starts_with('[') => {
                last.push(' ');
                last.push_str(line);
            }
            Some(last) if !line.starts_with("tip:") && last.contains("provided:") => {
                last.push_str(", ");
                last.push_str(line);
            }
            _ => parts.push(line.to_string()),
        }
    }
    if parts.is_empty() {
        parts.push("usage error".into());
    }
    format!("{} (see gdwire --help)", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use clap::{Arg, Command};

    use super::one_line;

    fn message(cmd: Command, args: &[&str]) -> String {
        let e = cmd.try_get_matches_from(args).unwrap_err();
        one_line(&e.render().to_string())
    }

    /// A missing required argument keeps clap's list of what is missing.
    #[test]
    fn missing_arguments_are_named() {
        let cmd = Command::new("gdwire")
            .arg(Arg::new("from").long("from").required(true))
            .arg(Arg::new("to").long("to").required(true));
        assert_eq!(
            message(cmd, &["gdwire"]),
            "the following required arguments were not provided: --from <from>, --to <to> (see \
             gdwire --help)"
        );
    }
}

//! The command line of the example servers: `[PORT] [--dialect NAME] [--allow-objects]
//! [--bind ADDR] [-h]`, and each server's own flags.

use std::net::{IpAddr, Ipv4Addr};
use std::process::ExitCode;
use std::str::FromStr;

use gdwire::Dialect;

/// The options every server takes.
pub struct Args {
    /// 0 picks a free port.
    pub port: u16,
    /// 127.0.0.1 unless `--bind` says otherwise.
    pub bind: IpAddr,
    pub dialect: Dialect,
    pub allow_objects: bool,
}

impl Args {
    /// Parses the process's arguments. `own(flag, value)` handles the server's own flags
    /// (`value()` takes the flag's value) and returns `false` for a flag it does not know,
    /// which is then read as the port. `None`: `-h` printed `usage`.
    pub fn parse(
        usage: &str,
        dialect: Dialect,
        mut own: impl FnMut(&str, &mut dyn FnMut() -> Result<String, String>) -> Result<bool, String>,
    ) -> Result<Option<Args>, String> {
        let mut out = Args {
            port: 0,
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            dialect,
            allow_objects: false,
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let mut value = || args.next().ok_or(format!("{arg} needs a value"));
            match arg.as_str() {
                "--dialect" => {
                    let name = value()?;
                    out.dialect =
                        Dialect::from_name(&name).ok_or(format!("unknown dialect {name}"))?;
                }
                "--bind" => out.bind = parse(&value()?)?,
                "--allow-objects" => out.allow_objects = true,
                "-h" | "--help" => {
                    println!("{usage}");
                    return Ok(None);
                }
                flag if own(flag, &mut value)? => {}
                other => out.port = parse(other)?,
            }
        }
        Ok(Some(out))
    }
}

/// A flag's value, or an error naming it.
pub fn parse<T: FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("bad value {s:?}"))
}

/// The exit code of `main`, printing the error as `NAME: error`.
pub fn exit(name: &str, result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("{name}: {msg}");
            ExitCode::FAILURE
        }
    }
}

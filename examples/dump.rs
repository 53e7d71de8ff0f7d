//! Decodes a stream of length-prefixed values (what `File.store_var`, `StreamPeer.put_var` and
//! `PacketPeerStream` write: u32 little-endian length, then the value) and prints each one.
//!
//! ```text
//! cargo run --example dump -- samples/godot3_capture.bin godot3
//! ```

use std::process::ExitCode;

use gdwire::{Decoder, Dialect};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: dump FILE [DIALECT]   (DIALECT: godot3, godot4.0 … godot4.4, godot4, pandemonium3.5, pandemonium3.8, pandemonium5)");
        return ExitCode::from(2);
    };
    let dialect_name = args.next().unwrap_or_else(|| "godot3".into());
    let Some(dialect) = Dialect::from_name(&dialect_name) else {
        eprintln!("unknown dialect {dialect_name}");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let decoder = Decoder::new(dialect).with_allow_objects(true);
    let mut pos = 0;
    let mut index = 0;
    while pos < bytes.len() {
        let Some(prefix) = bytes.get(pos..pos + 4) else {
            eprintln!("{path}: frame {index}: truncated length prefix at byte {pos}");
            return ExitCode::FAILURE;
        };
        let len = u32::from_le_bytes(prefix.try_into().unwrap()) as usize;
        let Some(frame) = bytes.get(pos + 4..pos + 4 + len) else {
            eprintln!(
                "{path}: frame {index}: needs {len} bytes at byte {}, file ends",
                pos + 4
            );
            return ExitCode::FAILURE;
        };
        match decoder.decode_exact(frame) {
            Ok(value) => println!(
                "[{index}] {} ({len} bytes): {value:?}",
                value.variant_type()
            ),
            Err(e) => {
                eprintln!(
                    "{path}: frame {index}: {e} (frame starts at byte {})",
                    pos + 4
                );
                return ExitCode::FAILURE;
            }
        }
        pos += 4 + len;
        index += 1;
    }
    ExitCode::SUCCESS
}

//! Decodes a stream of length-prefixed values (what `File.store_var`, `StreamPeer.put_var` and
//! `PacketPeerStream` write: u32 little-endian length, then the value) and prints each one.
//!
//! ```text
//! cargo run --example dump -- samples/godot3_capture.bin godot3
//! ```

use std::process::ExitCode;

use gdwire::frame::Framing;
use gdwire::write::Endian;
use gdwire::{Decoder, Dialect};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: dump FILE [DIALECT]   (DIALECT: godot3, godot4.0 … godot4.6, godot4, pandemonium3.5, pandemonium3.8, pandemonium5)");
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
    for (index, frame) in Framing::new(Endian::Little).frames(&bytes).enumerate() {
        let frame = match frame {
            Ok(frame) => frame,
            Err(e) => {
                eprintln!("{path}: frame {index}: {e}");
                return ExitCode::FAILURE;
            }
        };
        match decoder.decode_exact(frame.payload) {
            Ok(value) => println!(
                "[{index}] {} ({} bytes): {value:?}",
                value.variant_type(),
                frame.payload.len()
            ),
            Err(e) => {
                eprintln!(
                    "{path}: frame {index}: {e} (offset in the frame; it starts at byte {})",
                    frame.payload_offset()
                );
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

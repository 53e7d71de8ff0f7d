//! What every subcommand shares: dialect and framing options, reading inputs, walking the
//! records (frames) of an input, and error messages with absolute offsets.

use std::io::{self, Read};

use anyhow::{Context, Result};
use clap::ValueEnum;
use gdwire::frame::{Framing, DEFAULT_MAX_FRAME};
use gdwire::write::Endian;
use gdwire::{Decoder, Dialect, VariantRef};

/// Options shared by the subcommands that read wire bytes.
#[derive(clap::Args, Clone, Debug)]
pub struct WireArgs {
    /// Engine line that wrote the bytes: godot3, godot4.0 … godot4.4 (newer 4.x numbers are
    /// aliases of the newest rules), godot4 (= newest 4.x), pandemonium3.5, pandemonium3.8,
    /// pandemonium5.
    #[arg(long, short = 'd', default_value = "godot4", value_parser = parse_dialect)]
    pub dialect: Dialect,
    /// How values are delimited: none (the whole input is one value, as var2bytes /
    /// PacketPeer packets), stream (u32 little-endian length prefixes, as store_var /
    /// StreamPeer.put_var / PacketPeerStream), stream-be (big-endian prefixes).
    #[arg(long, short = 'f', value_enum, default_value_t = FramingArg::None)]
    pub framing: FramingArg,
    /// Largest frame payload accepted with stream framing, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_FRAME, value_name = "BYTES")]
    pub max_frame: usize,
}

/// `--framing`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FramingArg {
    /// The whole input is one value.
    None,
    /// u32 little-endian length prefixes.
    Stream,
    /// u32 big-endian length prefixes.
    #[value(name = "stream-be")]
    StreamBe,
}

impl WireArgs {
    /// The framing for stream modes; `None` for one value per input.
    pub fn framing(&self) -> Option<Framing> {
        let endian = match self.framing {
            FramingArg::None => return None,
            FramingArg::Stream => Endian::Little,
            FramingArg::StreamBe => Endian::Big,
        };
        Some(Framing::new(endian).with_max_frame(self.max_frame))
    }
}

fn parse_dialect(name: &str) -> Result<Dialect, String> {
    Dialect::from_name(name).ok_or_else(|| {
        "unknown dialect (expected godot3, godot4.0 … godot4.4, godot4, pandemonium3.5, \
         pandemonium3.8 or pandemonium5)"
            .to_string()
    })
}

/// Input files; `-` (the default) is stdin.
#[derive(clap::Args, Clone, Debug)]
pub struct Inputs {
    /// Files to read; `-` is standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    pub files: Vec<String>,
}

/// The display name of an input.
pub fn display_name(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

/// Reads a whole input into memory.
pub fn read_input(path: &str) -> Result<Vec<u8>> {
    let mut data = Vec::new();
    if path == "-" {
        io::stdin()
            .lock()
            .read_to_end(&mut data)
            .context("<stdin>: cannot read")?;
    } else {
        data = std::fs::read(path).with_context(|| format!("{path}: cannot read"))?;
    }
    Ok(data)
}

/// One value's bytes within an input.
#[derive(Clone, Copy, Debug)]
pub struct Record<'a> {
    /// Frame number, from 0.
    pub index: usize,
    /// Offset of the payload in the input.
    pub offset: usize,
    /// The encoded value.
    pub payload: &'a [u8],
}

/// A decoding or framing failure located in an input: its message names the file, the frame,
/// the absolute byte offset and the reason.
#[derive(Debug, thiserror::Error)]
#[error("{file}: frame {index}: {reason} at byte {offset}")]
pub struct Located {
    pub file: String,
    pub index: usize,
    pub offset: usize,
    pub reason: gdwire::ErrorKind,
}

impl Located {
    pub fn new(file: &str, index: usize, base: usize, e: gdwire::Error) -> Located {
        Located {
            file: display_name(file).to_string(),
            index,
            offset: base + e.offset(),
            reason: e.kind(),
        }
    }
}

/// Calls `each` for every record of `data`: the whole input for `--framing none`, else each
/// frame. Framing errors are returned located (the frame's prefix offset).
pub fn for_each_record<'a>(
    wire: &WireArgs,
    file: &str,
    data: &'a [u8],
    mut each: impl FnMut(Record<'a>) -> Result<()>,
) -> Result<()> {
    let Some(framing) = wire.framing() else {
        return each(Record {
            index: 0,
            offset: 0,
            payload: data,
        });
    };
    for (index, frame) in framing.frames(data).enumerate() {
        let frame = frame.map_err(|e| Located::new(file, index, 0, e))?;
        each(Record {
            index,
            offset: frame.payload_offset(),
            payload: frame.payload,
        })?;
    }
    Ok(())
}

/// Decodes a record, which must hold exactly one value (trailing bytes are an error, though
/// the engine's get_var would ignore them).
pub fn decode<'a>(decoder: &Decoder, file: &str, rec: Record<'a>) -> Result<VariantRef<'a>> {
    decoder
        .decode_exact(rec.payload)
        .map_err(|e| Located::new(file, rec.index, rec.offset, e).into())
}

/// True when the error is a closed stdout (e.g. `gdwire dump … | head`).
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

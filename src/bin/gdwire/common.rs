//! What every subcommand shares: dialect and framing options, reading inputs, walking the
//! records (frames) of an input, and error messages with absolute offsets.

use std::io::{self, Read};

use anyhow::{Context, Result};
use clap::ValueEnum;
use gdwire::frame::{FrameBuffer, Framing, DEFAULT_MAX_FRAME, PREFIX_LEN};
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
    /// The whole input is one Godot 4 SceneMultiplayer packet (dump, validate).
    Multiplayer,
    /// SceneMultiplayer packets, each `[u32 LE length][u8 tag][packet]` (dump, validate).
    #[value(name = "multiplayer-capture")]
    MultiplayerCapture,
}

impl WireArgs {
    /// The framing for stream modes; `None` for one value per input.
    /// True for the multiplayer framings (handled by `multiplayer.rs`).
    pub fn is_multiplayer(&self) -> bool {
        matches!(
            self.framing,
            FramingArg::Multiplayer | FramingArg::MultiplayerCapture
        )
    }

    pub fn framing(&self) -> Option<Framing> {
        let endian = match self.framing {
            FramingArg::None | FramingArg::Multiplayer => return None,
            FramingArg::Stream | FramingArg::MultiplayerCapture => Endian::Little,
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

/// Opens an input: a file, or stdin for `-`.
pub fn open_input(path: &str) -> Result<Box<dyn Read>> {
    if path == "-" {
        return Ok(Box::new(io::stdin().lock()));
    }
    let file = std::fs::File::open(path).with_context(|| format!("{path}: cannot read"))?;
    Ok(Box::new(file))
}

/// The size of a regular file (for a progress bar); `None` for stdin and pipes.
pub fn input_len(path: &str) -> Option<u64> {
    if path == "-" {
        return None;
    }
    std::fs::metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len())
}

/// Reads a whole input into memory.
pub fn read_input(path: &str) -> Result<Vec<u8>> {
    let mut data = Vec::new();
    open_input(path)?
        .read_to_end(&mut data)
        .with_context(|| format!("{}: cannot read", display_name(path)))?;
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

/// Calls `each` for every record of the input `file` and returns the bytes read. With
/// `--framing none` the whole input is one record; with stream framing the input is read
/// incrementally through a [`FrameBuffer`], so memory stays bounded by the largest frame
/// whatever the input's size, and a live stream (a pipe from a socket) is handled frame by
/// frame as it arrives. Framing errors are returned located (the frame's prefix offset).
pub fn for_each_record(
    wire: &WireArgs,
    file: &str,
    mut each: impl FnMut(Record<'_>) -> Result<()>,
) -> Result<u64> {
    let Some(framing) = wire.framing() else {
        let data = read_input(file)?;
        each(Record {
            index: 0,
            offset: 0,
            payload: &data,
        })?;
        return Ok(data.len() as u64);
    };
    let mut input = open_input(file)?;
    let mut buffer = FrameBuffer::new(framing).with_read_size(READ_SIZE);
    let mut index = 0;
    let located = |index: usize, e: gdwire::Error| Located::new(file, index, 0, e);
    loop {
        loop {
            let prefix_at = buffer.position();
            let Some(payload) = buffer.next_frame().map_err(|e| located(index, e))? else {
                break;
            };
            each(Record {
                index,
                offset: prefix_at + PREFIX_LEN,
                payload,
            })?;
            index += 1;
        }
        match buffer.read_from(&mut input) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => match gdwire::Error::from_io(&e) {
                Some(e) => return Err(located(index, e).into()),
                None => {
                    return Err(e).with_context(|| format!("{}: cannot read", display_name(file)))
                }
            },
        }
    }
    buffer.finish().map_err(|e| located(index, e))?;
    Ok(buffer.position() as u64)
}

/// Bytes asked of each read from an input.
const READ_SIZE: usize = 1 << 20;

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

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
    /// Engine line that wrote the bytes: auto (try every dialect and say which decode the
    /// input and why one is chosen), godot3, godot4.0 … godot4.6 (newer 4.x numbers are
    /// aliases of the newest rules), godot4 (= newest 4.x), pandemonium3.5, pandemonium3.8,
    /// pandemonium5.
    #[arg(long, short = 'd', default_value = "auto", value_parser = parse_dialect_choice)]
    pub dialect: DialectChoice,
    /// How values are delimited: auto (try each), none (the whole input is one value, as
    /// var2bytes / PacketPeer packets), stream (u32 little-endian length prefixes, as
    /// store_var / StreamPeer.put_var / PacketPeerStream), stream-be (big-endian prefixes).
    /// auto (also the default) reads the whole input first: give the framing (and dialect)
    /// to decode a live stream as it arrives.
    #[arg(long, short = 'f', value_enum, default_value_t = FramingArg::Auto)]
    pub framing: FramingArg,
    /// Largest frame payload accepted with stream framing, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_FRAME, value_name = "BYTES")]
    pub max_frame: usize,
}

/// `--dialect`: one dialect, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialectChoice {
    /// Try every dialect.
    Auto,
    /// This one.
    One(Dialect),
}

/// `--framing`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FramingArg {
    /// Try each framing.
    Auto,
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

impl FramingArg {
    /// The framing for stream modes; `None` for one value per input (and for `auto`, which
    /// is resolved before anything is read).
    pub fn framing(self, max_frame: usize) -> Option<Framing> {
        let endian = match self {
            FramingArg::None | FramingArg::Auto | FramingArg::Multiplayer => return None,
            FramingArg::Stream | FramingArg::MultiplayerCapture => Endian::Little,
            FramingArg::StreamBe => Endian::Big,
        };
        Some(Framing::new(endian).with_max_frame(max_frame))
    }

    /// The option's spelling.
    pub fn name(self) -> &'static str {
        match self {
            FramingArg::Auto => "auto",
            FramingArg::None => "none",
            FramingArg::Stream => "stream",
            FramingArg::StreamBe => "stream-be",
            FramingArg::Multiplayer => "multiplayer",
            FramingArg::MultiplayerCapture => "multiplayer-capture",
        }
    }
}

impl WireArgs {
    /// True for the multiplayer framings (handled by `multiplayer.rs`; never tried by auto).
    pub fn is_multiplayer(&self) -> bool {
        matches!(
            self.framing,
            FramingArg::Multiplayer | FramingArg::MultiplayerCapture
        )
    }

    /// The plan for the multiplayer framings: SceneMultiplayer is Godot 4's, so `auto` means
    /// the newest Godot 4 rules.
    pub fn multiplayer_plan(&self) -> Plan {
        let dialect = match self.dialect {
            DialectChoice::One(d) => d,
            DialectChoice::Auto => Dialect::GODOT_4,
        };
        Plan {
            dialect,
            framing: self.framing,
            max_frame: self.max_frame,
            data: None,
        }
    }
}

pub fn parse_dialect(name: &str) -> Result<Dialect, String> {
    Dialect::from_name(name).ok_or_else(|| {
        "unknown dialect (expected godot3, godot4.0 … godot4.6, godot4, pandemonium3.5, \
         pandemonium3.8 or pandemonium5)"
            .to_string()
    })
}

fn parse_dialect_choice(name: &str) -> Result<DialectChoice, String> {
    if name == "auto" {
        return Ok(DialectChoice::Auto);
    }
    Dialect::from_name(name)
        .map(DialectChoice::One)
        .ok_or_else(|| {
            "unknown dialect (expected auto, godot3, godot4.0 … godot4.6, godot4, \
         pandemonium3.5, pandemonium3.8 or pandemonium5)"
                .to_string()
        })
}

/// An error already reported on stderr: exit code 1, nothing more printed.
#[derive(Debug, thiserror::Error)]
#[error("(reported)")]
pub struct Reported;

/// How one input is read: the dialect and framing (given, or chosen by `auto`), and the
/// input's bytes when `auto` had to read them whole.
pub struct Plan {
    pub dialect: Dialect,
    pub framing: FramingArg,
    pub max_frame: usize,
    pub data: Option<Vec<u8>>,
}

impl Plan {
    pub fn framing(&self) -> Option<Framing> {
        self.framing.framing(self.max_frame)
    }
}

/// Resolves `auto` for one input: reads it whole, tries the candidates, prints on stderr what
/// was chosen and why (and every other reading that also decodes). `decoder` gives the
/// subcommand's decoding options for a dialect; `lenient` accepts records with trailing
/// bytes (as the engine does) when no reading is clean.
pub fn plan(
    wire: &WireArgs,
    file: &str,
    decoder: &dyn Fn(Dialect) -> Decoder,
    lenient: bool,
) -> Result<Plan> {
    let fixed = match (wire.dialect, wire.framing) {
        (DialectChoice::One(d), f) if f != FramingArg::Auto => Some(d),
        _ => None,
    };
    if let Some(dialect) = fixed {
        return Ok(Plan {
            dialect,
            framing: wire.framing,
            max_frame: wire.max_frame,
            data: None,
        });
    }
    let data = read_input(file)?;
    let report = crate::detect::detect(&data, wire, decoder, lenient);
    let Some(best) = report.best() else {
        eprintln!(
            "gdwire: {}: {}",
            display_name(file),
            report.nothing_decodes(wire)
        );
        if wire.dialect != DialectChoice::Auto {
            // Say what the other dialects make of it.
            eprintln!("gdwire: {}", hint(wire, file, Some(&data), decoder));
        }
        return Err(Reported.into());
    };
    let (dialect, framing) = (best.dialect, best.framing);
    for line in report.explain() {
        eprintln!("gdwire: {}: {line}", display_name(file));
    }
    Ok(Plan {
        dialect,
        framing,
        max_frame: wire.max_frame,
        data: Some(data),
    })
}

/// One more line for a decoding failure with a given dialect and framing: which readings of
/// the input do decode it (or that none does). `None` when the input cannot be read again
/// (a stream on stdin that was not kept).
pub fn hint(
    wire: &WireArgs,
    file: &str,
    data: Option<&[u8]>,
    decoder: &dyn Fn(Dialect) -> Decoder,
) -> String {
    let owned;
    let data = match data {
        Some(d) => d,
        None if file != "-" => match std::fs::read(file) {
            Ok(d) => {
                owned = d;
                &owned
            }
            Err(_) => return "hint: --dialect auto tries every dialect and framing".into(),
        },
        None => {
            return "hint: --dialect auto --framing auto tries every dialect and framing (it \
                    reads the whole input first)"
                .into()
        }
    };
    let all = WireArgs {
        dialect: DialectChoice::Auto,
        framing: FramingArg::Auto,
        max_frame: wire.max_frame,
    };
    crate::detect::detect(data, &all, decoder, false).hint()
}

/// Reports a failure that points into the input ([`Located`]), and which readings of the
/// input do decode it, on stderr: `true`. Any other error is left to the caller: `false`.
pub fn report_located(
    e: &anyhow::Error,
    label: &str,
    wire: &WireArgs,
    file: &str,
    plan: &Plan,
    decoder: &dyn Fn(Dialect) -> Decoder,
) -> bool {
    if e.downcast_ref::<Located>().is_none() {
        return false;
    }
    eprintln!("gdwire: {label}{e:#}");
    eprintln!(
        "gdwire: {}",
        hint(wire, file, plan.data.as_deref(), decoder)
    );
    true
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
/// frame as it arrives (unless `auto` already read it whole: then its frames are walked in
/// memory). Framing errors are returned located (the frame's prefix offset).
pub fn for_each_record(
    plan: &Plan,
    file: &str,
    mut each: impl FnMut(Record<'_>) -> Result<()>,
) -> Result<u64> {
    let located = |index: usize, e: gdwire::Error| Located::new(file, index, 0, e);
    let Some(framing) = plan.framing() else {
        let owned;
        let data = match &plan.data {
            Some(d) => d,
            None => {
                owned = read_input(file)?;
                &owned
            }
        };
        each(Record {
            index: 0,
            offset: 0,
            payload: data,
        })?;
        return Ok(data.len() as u64);
    };
    if let Some(data) = &plan.data {
        for (index, frame) in framing.frames(data).enumerate() {
            let frame = frame.map_err(|e| located(index, e))?;
            each(Record {
                index,
                offset: frame.payload_offset(),
                payload: frame.payload,
            })?;
        }
        return Ok(data.len() as u64);
    }
    let mut input = open_input(file)?;
    let mut buffer = FrameBuffer::new(framing).with_read_size(READ_SIZE);
    let mut index = 0;
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

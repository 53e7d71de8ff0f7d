//! `gdwire stats`: one pass over large captures, counting without allocating per value.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Result;
use gdwire::read::Event;
use gdwire::{Decoder, Dialect, ErrorKind, VariantType};
use indicatif::{ProgressBar, ProgressStyle};

use crate::common::{
    display_name, for_each_record, input_len, plan, report_located, Inputs, Located, Plan, WireArgs,
};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    wire: WireArgs,
    /// Accept full objects (class name and properties).
    #[arg(long)]
    allow_objects: bool,
    /// How many of the largest values to list.
    #[arg(long, default_value_t = 5, value_name = "N")]
    top: usize,
    #[command(flatten)]
    inputs: Inputs,
}

struct Totals {
    frames: usize,
    payload_bytes: u64,
    min_payload: Option<usize>,
    max_payload: usize,
    max_depth: usize,
    /// Every value at every nesting level, by type.
    all: [u64; VariantType::COUNT],
    /// Top-level values by type, and their bytes.
    top: [u64; VariantType::COUNT],
    top_bytes: [u64; VariantType::COUNT],
    /// (payload size, frame index, type), largest first.
    largest: Vec<(usize, usize, VariantType)>,
}

impl Default for Totals {
    fn default() -> Self {
        Totals {
            frames: 0,
            payload_bytes: 0,
            min_payload: None,
            max_payload: 0,
            max_depth: 0,
            all: [0; VariantType::COUNT],
            top: [0; VariantType::COUNT],
            top_bytes: [0; VariantType::COUNT],
            largest: Vec::new(),
        }
    }
}

impl Totals {
    fn add_largest(&mut self, n: usize, entry: (usize, usize, VariantType)) {
        if n == 0 || (self.largest.len() == n && self.largest[n - 1].0 >= entry.0) {
            return;
        }
        let at = self.largest.partition_point(|e| e.0 >= entry.0);
        self.largest.insert(at, entry);
        self.largest.truncate(n);
    }
}

/// Counts every value of one record in a single linear pass ([`Walker`]: no view is
/// iterated twice, nothing is allocated, hostile nesting costs what its bytes cost) and
/// returns the record's top-level type; the record must hold exactly one value.
fn walk(decoder: &Decoder, payload: &[u8], t: &mut Totals) -> gdwire::Result<VariantType> {
    let mut walker = decoder.walk(payload);
    let mut depth = 0usize;
    let mut top = None;
    for event in walker.by_ref() {
        let (value, opens) = match event? {
            Event::Value(v) => (v, false),
            Event::Begin(v) => (v, true),
            Event::End => {
                depth -= 1;
                continue;
            }
            Event::Property(_) => continue,
        };
        let ty = value.variant_type();
        t.all[ty as usize] += 1;
        t.max_depth = t.max_depth.max(depth);
        top.get_or_insert(ty);
        depth += usize::from(opens);
    }
    let used = walker.offset();
    if used != payload.len() {
        let count = payload.len() - used;
        return Err(gdwire::Error::new(ErrorKind::TrailingBytes { count }, used));
    }
    // A walk that ends without an error has seen the value.
    Ok(top.unwrap_or(VariantType::Nil))
}

/// A progress bar on stderr when it is a terminal: with a length and ETA for regular files,
/// a byte counter for pipes.
fn progress(len: Option<u64>) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match len {
        Some(len) => (
            ProgressBar::new(len),
            "{spinner} {bytes}/{total_bytes} {bar:40} {bytes_per_sec} eta {eta}",
        ),
        None => (
            ProgressBar::no_length(),
            "{spinner} {bytes} {bytes_per_sec}",
        ),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

pub fn run(args: Args) -> Result<ExitCode> {
    crate::multiplayer::reject(&args.wire, "stats")?;
    let make = |dialect: Dialect| Decoder::new(dialect).with_allow_objects(args.allow_objects);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for file in &args.inputs.files {
        let plan = plan(&args.wire, file, &make, false)?;
        let decoder = make(plan.dialect);
        let bar = progress(input_len(file));
        let mut t = Totals::default();
        let mut last_tick = 0usize;
        let result = for_each_record(&plan, file, |rec| {
            let ty = walk(&decoder, rec.payload, &mut t)
                .map_err(|e| Located::new(file, rec.index, rec.offset, e))?;
            let size = rec.payload.len();
            t.frames += 1;
            t.payload_bytes += size as u64;
            t.min_payload = Some(t.min_payload.map_or(size, |m| m.min(size)));
            t.max_payload = t.max_payload.max(size);
            t.top[ty as usize] += 1;
            t.top_bytes[ty as usize] += size as u64;
            t.add_largest(args.top, (size, rec.index, ty));
            let end = rec.offset + size;
            if end - last_tick >= 1 << 20 {
                bar.set_position(end as u64);
                last_tick = end;
            }
            Ok(())
        });
        bar.finish_and_clear();
        let bytes = match result {
            Ok(bytes) => bytes,
            Err(e) => {
                out.flush()?;
                if report_located(&e, "", &args.wire, file, &plan, &make) {
                    return Ok(ExitCode::FAILURE);
                }
                return Err(e);
            }
        };
        report(&mut out, file, bytes, &plan, &t)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn report(out: &mut impl Write, file: &str, bytes: u64, plan: &Plan, t: &Totals) -> io::Result<()> {
    let dialect = plan.dialect;
    let framing = plan.framing.name();
    let nested: u64 = t.all.iter().sum();
    writeln!(
        out,
        "{}: {} bytes, {} values ({framing} framing, {dialect})",
        display_name(file),
        bytes,
        t.frames
    )?;
    if t.frames == 0 {
        return Ok(());
    }
    writeln!(
        out,
        "value sizes: min {} / mean {:.1} / max {} bytes; {} bytes of values",
        t.min_payload.unwrap_or(0),
        t.payload_bytes as f64 / t.frames as f64,
        t.max_payload,
        t.payload_bytes
    )?;
    writeln!(
        out,
        "nested values: {nested} in all; max nesting depth {}",
        t.max_depth
    )?;
    let mut types: Vec<VariantType> = VariantType::ALL
        .iter()
        .copied()
        .filter(|ty| t.all[*ty as usize] > 0)
        .collect();
    types.sort_by_key(|ty| (std::cmp::Reverse(t.all[*ty as usize]), *ty as usize));
    writeln!(
        out,
        "  {:<20} {:>12} {:>12} {:>16}",
        "type", "all levels", "top level", "top-level bytes"
    )?;
    for ty in types {
        let i = ty as usize;
        writeln!(
            out,
            "  {:<20} {:>12} {:>12} {:>16}",
            dialect.type_name(ty),
            t.all[i],
            t.top[i],
            t.top_bytes[i]
        )?;
    }
    if !t.largest.is_empty() {
        writeln!(out, "largest values:")?;
        for (size, index, ty) in &t.largest {
            writeln!(
                out,
                "  frame {index}: {size} bytes, {}",
                dialect.type_name(*ty)
            )?;
        }
    }
    Ok(())
}

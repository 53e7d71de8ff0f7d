//! A lazy run of values inside a container: the shared engine of array, dictionary and
//! object-property iteration.

use crate::error::Result;
use crate::header::FLAG_64;
use crate::read::decoder::Decoder;
use crate::read::head::{read_value, Next};
use crate::read::input::{string_block, string_block_trusted, u32_at, u64_at};
use crate::read::skip::skip_value;
use crate::read::text::StrRef;
use crate::read::value::VariantRef;
use crate::variant_type::VariantType;

/// `left` values starting at `pos`, all at nesting `depth`. Values handed out for nested
/// containers are lazy; the sequence skips over such a value only when asked for the next one
/// (so the last item of a container is never skipped).
#[derive(Clone, Copy)]
pub(crate) struct Seq<'a> {
    dec: Decoder,
    data: &'a [u8],
    pos: usize,
    left: u32,
    depth: u32,
    /// Start of the last container handed out, not yet skipped.
    unskipped: Option<usize>,
}

impl<'a> Seq<'a> {
    pub(crate) fn new(dec: Decoder, data: &'a [u8], pos: usize, left: u32, depth: u32) -> Self {
        Seq {
            dec,
            data,
            pos,
            left,
            depth,
            unskipped: None,
        }
    }

    pub(crate) fn left(&self) -> u32 {
        self.left
    }

    fn settle(&mut self) -> Result<()> {
        if let Some(start) = self.unskipped.take() {
            // The data was validated when the outermost value was decoded.
            self.pos = skip_value(&self.dec, self.data, start, self.depth, false)?;
        }
        Ok(())
    }

    fn fail<T>(&mut self, e: crate::Error) -> Option<Result<T>> {
        self.left = 0;
        Some(Err(e))
    }

    /// The next value, `None` when the run is over. After an error the run is over.
    #[inline(always)]
    pub(crate) fn next_value(&mut self) -> Option<Result<VariantRef<'a>>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        if let Err(e) = self.settle() {
            return self.fail(e);
        }
        if let Some((value, end)) = quick_scalar(&self.dec, self.data, self.pos) {
            self.pos = end;
            return Some(Ok(value));
        }
        let mut next = Next::Leaf(self.pos);
        let value = read_value(&self.dec, self.data, self.pos, self.depth, false, &mut next);
        match next {
            _ if value.is_err() => self.left = 0,
            Next::Leaf(end) => self.pos = end,
            Next::Nest { .. } => self.unskipped = Some(self.pos),
        }
        Some(value)
    }

    /// The next object property: a name string block, then a value.
    pub(crate) fn next_property(&mut self) -> Option<Result<(StrRef<'a>, VariantRef<'a>)>> {
        if self.left == 0 {
            return None;
        }
        if let Err(e) = self.settle() {
            return self.fail(e);
        }
        let rules = self.dec.dialect().text_rules();
        match string_block(self.data, self.pos, rules, false) {
            Ok((name, end)) => {
                self.pos = end;
                Some(self.next_value()?.map(|value| (name, value)))
            }
            Err(e) => self.fail(e),
        }
    }
}

/// The most common leaves (Int, Float, String) read directly: a few stores instead of the
/// general constructor, which writes every byte of the 136-byte view. `None` for anything
/// else or anything short: the general path then answers (or fails) exactly as before.
#[inline(always)]
fn quick_scalar<'a>(dec: &Decoder, data: &'a [u8], pos: usize) -> Option<(VariantRef<'a>, usize)> {
    let header = u32_at(data, pos)?;
    let wide = header & FLAG_64 != 0;
    let p = pos + 4;
    Some(match dec.dialect().type_of(header as u8)? {
        VariantType::Int if wide => (VariantRef::Int(u64_at(data, p)? as i64), p + 8),
        VariantType::Int => (VariantRef::Int(u32_at(data, p)? as i32 as i64), p + 4),
        VariantType::Float if wide => (VariantRef::Float(f64::from_bits(u64_at(data, p)?)), p + 8),
        VariantType::Float => (
            VariantRef::Float(f32::from_bits(u32_at(data, p)?) as f64),
            p + 4,
        ),
        VariantType::String => {
            let (s, end) = string_block_trusted(data, p, dec.dialect().text_rules())?;
            (VariantRef::String(s), end)
        }
        _ => return None,
    })
}

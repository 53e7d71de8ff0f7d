//! A small stack buffer that one formatted number is written into, so that its text can be
//! inspected or trimmed before it is sent on (the text writers' `%g` and shortest forms, the
//! JSON writer's `f32` check), without allocating.

use core::fmt::{self, Write};

/// Room for the longest number text the crate formats (a shortest-form `f64` in exponent
/// notation is 24 bytes); a longer write fails with `fmt::Error`.
pub(crate) struct NumBuf {
    bytes: [u8; 48],
    len: usize,
}

impl NumBuf {
    pub(crate) fn new() -> NumBuf {
        NumBuf {
            bytes: [0; 48],
            len: 0,
        }
    }

    /// A buffer holding `s` (a short fixed spelling such as `inf_neg`).
    pub(crate) fn of(s: &str) -> NumBuf {
        let mut out = NumBuf::new();
        let _ = out.write_str(s);
        out
    }

    pub(crate) fn as_str(&self) -> &str {
        // Only `write_str` fills it, with whole `&str`s.
        core::str::from_utf8(self.as_bytes()).unwrap_or("")
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }

    /// Keeps the first `len` bytes.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    pub(crate) fn contains(&self, b: u8) -> bool {
        self.as_bytes().contains(&b)
    }
}

impl Write for NumBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let dst = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

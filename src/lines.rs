//! Line numbers of byte offsets in a text: the positions the JSON and text readers give in
//! their errors, and the line their many-document iterators report.

use core::cell::Cell;

/// Newlines (`\n`) in `bytes`.
pub(crate) fn newlines(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

/// The 1-based line of `at` in `text`, and where that line starts.
pub(crate) fn line_of(text: &[u8], at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    (newlines(before) + 1, start)
}

/// The line of an offset that only moves forward, counted on from the last one asked
/// (counting from the top each time would make a text of many documents quadratic).
#[derive(Clone, Debug)]
pub(crate) struct LineCounter {
    /// An offset and its line.
    counted: Cell<(usize, usize)>,
}

impl LineCounter {
    pub(crate) fn new() -> LineCounter {
        LineCounter {
            counted: Cell::new((0, 1)),
        }
    }

    /// The 1-based line of `at` in `text`.
    pub(crate) fn line_at(&self, text: &[u8], at: usize) -> usize {
        let at = at.min(text.len());
        let (mut from, mut line) = self.counted.get();
        if at < from {
            (from, line) = (0, 1);
        }
        line += newlines(text.get(from..at).unwrap_or_default());
        self.counted.set((at, line));
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_every_offset_agree_with_counting_from_the_top() {
        let text = b"a\n\nbc\nd\n\n";
        let counter = LineCounter::new();
        // Forward, backward and repeated offsets alike.
        let offsets = (0..=text.len())
            .chain((0..=text.len()).rev())
            .chain([3, 3, 0]);
        for at in offsets {
            let expected = text[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            assert_eq!(counter.line_at(text, at), expected, "offset {at}");
            let (line, start) = line_of(text, at);
            assert_eq!(line, expected);
            let start_expected = text[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            assert_eq!(start, start_expected);
        }
        // Past the end: the end's line.
        assert_eq!(line_of(text, 100).0, 6);
        assert_eq!(LineCounter::new().line_at(text, 100), 6);
    }
}

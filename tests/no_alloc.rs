//! Decoding and fully walking every real-engine fixture (valid and malformed, errors included),
//! comparing and `Debug`-formatting the values perform no heap allocation. A counting global
//! allocator proves it.

mod support;

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::allocations_in;

use std::fmt::Write;

use gdwire::{Cursor, Decoder, Dialect, VariantRef};

/// Counts formatted bytes and keeps none (so formatting itself needs no buffer).
struct Discard(usize);

impl Write for Discard {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

// One test only: the counter is global, so nothing else may run while it is armed.
#[test]
fn decoding_and_walking_never_allocates() {
    let mut fixtures = support::values();
    fixtures.extend(support::malformed());
    for numbering in ["5", "3.8", "3.5"] {
        fixtures.extend(support::pandemonium_values(numbering));
    }
    let mut stack: Vec<VariantRef<'_>> = Vec::with_capacity(1 << 16);
    let mut outcomes = (0u64, 0u64, 0u64);
    let mut equal = 0u64;
    let mut formatted = Discard(0);
    let count = allocations_in(|| {
        for f in &fixtures {
            for dialect in Dialect::ALL {
                let decoder = Decoder::new(dialect)
                    .with_allow_objects(f.allow_objects)
                    .with_max_depth(4096);
                match decoder.decode(&f.bytes) {
                    Ok(v) => {
                        stack.clear();
                        stack.push(v);
                        support::walk_into(&mut stack, &mut outcomes.0).unwrap();
                        outcomes.1 += 1;
                        // Equality and Debug walk the value with fixed-size walkers.
                        let again = decoder.decode(&f.bytes).unwrap();
                        equal += u64::from(v == again);
                        write!(formatted, "{v:?} {v:#?}").unwrap();
                    }
                    Err(e) => {
                        // Formatting is the caller's business; building the error is not.
                        std::hint::black_box(e);
                        outcomes.2 += 1;
                    }
                }
                let mut cursor = Cursor::with_decoder(decoder, &f.bytes);
                let _ = std::hint::black_box(cursor.skip());
            }
        }
    });
    assert_eq!(count, 0, "the read path allocated {count} times");
    // The counter does see allocations (so the zero above means something).
    assert_eq!(
        allocations_in(|| drop(std::hint::black_box(vec![1u8; 8]))),
        1
    );
    // The walk did real work on both outcomes.
    assert!(
        outcomes.0 > 10_000 && outcomes.1 > 500 && outcomes.2 > 500,
        "{outcomes:?}"
    );
    // Values without NaN equal their second decoding; the text was really produced.
    assert!(equal > outcomes.1 / 2, "{equal} of {}", outcomes.1);
    assert!(formatted.0 > 100_000, "{} bytes", formatted.0);
}

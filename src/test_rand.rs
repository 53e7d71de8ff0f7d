//! The unit tests' pseudo-random numbers: xorshift64 from a fixed seed, so every run draws
//! the same values.

/// An xorshift64 generator starting from `seed` (not 0).
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

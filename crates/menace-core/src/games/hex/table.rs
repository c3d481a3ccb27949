//! The hash that places a position in the solver's transposition table.

/// A 64-bit hash of a position: both sides' stones and a few flags.
pub(super) fn hash(red: u64, blue: u64, flags: u64) -> u64 {
    let mix = |mut z: u64| {
        // splitmix64's finaliser.
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    mix(mix(red ^ 0x9e37_79b9_7f4a_7c15) ^ blue.rotate_left(21) ^ flags.wrapping_mul(0x2545_f491_4f6c_dd1d))
}

//! Percentiles of measured samples (decision times, round trips, queue waits), one definition for
//! the arena and every load tool: the nearest rank.

/// The `p` percentile (0 < `p` <= 1) of `sorted` (ascending) by the nearest-rank method: the
/// sample at rank ⌈p·n⌉ (1-based, at least 1), so every reported value is one that was measured,
/// and p99 of 100 samples is the 99th. `None` when there are no samples.
pub fn nearest_rank<T: Copy>(sorted: &[T], p: f64) -> Option<T> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    // The small slack keeps p·n that lands a rounding error above a whole rank (0.07 · 100 =
    // 7.000000000000001) on that rank.
    let rank = ((p * n as f64 - 1e-9).ceil().max(1.0) as usize).min(n);
    Some(sorted[rank - 1])
}

#[cfg(test)]
mod tests {
    use super::nearest_rank;

    #[test]
    fn the_sample_at_rank_ceil_p_n() {
        let hundred: Vec<u32> = (1..=100).collect();
        assert_eq!(nearest_rank(&hundred, 0.5), Some(50));
        assert_eq!(nearest_rank(&hundred, 0.99), Some(99));
        assert_eq!(nearest_rank(&hundred, 0.07), Some(7));
        assert_eq!(nearest_rank(&hundred, 1.0), Some(100));
        assert_eq!(nearest_rank(&hundred, 0.0), Some(1));
        let four = [10u64, 20, 30, 40];
        assert_eq!(nearest_rank(&four, 0.5), Some(20));
        assert_eq!(nearest_rank(&four, 0.51), Some(30));
        assert_eq!(nearest_rank(&four, 0.99), Some(40));
        assert_eq!(nearest_rank(&[7u64], 0.5), Some(7));
        assert_eq!(nearest_rank::<u64>(&[], 0.5), None);
    }
}

//! Lists of ids, one list per position (or class), in two flat vectors:
//! the compiled table's layout for children, parents and boxes.

use rayon::prelude::*;

/// Lists of ids, one list per position (or class).
pub(super) struct Flat {
    pub(super) at: Vec<u32>,
    pub(super) items: Vec<u32>,
}

impl Flat {
    pub(super) fn with_capacity(lists: usize, items: usize) -> Flat {
        let mut at = Vec::with_capacity(lists + 1);
        at.push(0);
        Flat {
            at,
            items: Vec::with_capacity(items),
        }
    }

    /// The lists `row` makes for `0..n` (each into an empty `Vec`, with
    /// scratch state from `init`), made on every core a chunk at a time
    /// and joined in order; `None` if any row is.
    pub(super) fn par_rows<S>(
        n: usize,
        init: impl Fn() -> S + Sync + Send,
        row: impl Fn(&mut S, u32, &mut Vec<u32>) -> Option<()> + Sync + Send,
    ) -> Option<Flat> {
        const CHUNK: usize = 1 << 14;
        let chunks: Vec<(Vec<u32>, Vec<u32>)> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map_init(init, |state, k| {
                let mut ends = Vec::with_capacity(CHUNK);
                let mut items = Vec::new();
                for i in k * CHUNK..n.min((k + 1) * CHUNK) {
                    row(state, i as u32, &mut items)?;
                    ends.push(items.len() as u32);
                }
                Some((ends, items))
            })
            .collect::<Option<_>>()?;
        let mut flat = Flat::with_capacity(n, chunks.iter().map(|c| c.1.len()).sum());
        for (ends, items) in chunks {
            let base = flat.items.len() as u32;
            flat.at.extend(ends.iter().map(|&e| base + e));
            flat.items.extend_from_slice(&items);
        }
        Some(flat)
    }

    /// The lists of the other direction: for each item, the lists holding
    /// it, in order (`count`: how many there are of each).
    pub(super) fn transposed(&self, count: &[u32]) -> Flat {
        let mut at = Vec::with_capacity(count.len() + 1);
        at.push(0u32);
        for &k in count {
            at.push(at.last().expect("not empty") + k);
        }
        let mut items = vec![0u32; self.items.len()];
        let mut next: Vec<u32> = at[..count.len()].to_vec();
        for list in 0..self.at.len() - 1 {
            for &x in self.get(list as u32) {
                items[next[x as usize] as usize] = list as u32;
                next[x as usize] += 1;
            }
        }
        Flat { at, items }
    }

    #[inline]
    pub(super) fn get(&self, i: u32) -> &[u32] {
        &self.items[self.at[i as usize] as usize..self.at[i as usize + 1] as usize]
    }
}

//! Lists of ids, one list per position (or class), in two flat vectors:
//! the compiled table's layout for children, parents and boxes.

use crate::par::*;

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

    /// Items grouped by key (a counting sort): list `k` of `keys` lists
    /// holds the items `pairs` gives with key `k`, in the order given.
    /// `pairs` is called twice (to count, then to place) and must give the
    /// same pairs both times.
    pub(super) fn grouped<I: Iterator<Item = (u32, u32)>>(keys: usize, pairs: impl Fn() -> I) -> Flat {
        let mut at = vec![0u32; keys + 1];
        for (k, _) in pairs() {
            at[k as usize + 1] += 1;
        }
        for k in 0..keys {
            at[k + 1] += at[k];
        }
        let mut items = vec![0u32; at[keys] as usize];
        let mut next = at[..keys].to_vec();
        for (k, x) in pairs() {
            items[next[k as usize] as usize] = x;
            next[k as usize] += 1;
        }
        Flat { at, items }
    }

    /// The lists of the other direction: for each item (`ids`: how many
    /// distinct item ids, the lists of the result), the lists holding it,
    /// in order. [`Flat::grouped`]'s counting sort, counted straight from
    /// the items (a list's own number is not needed to count).
    pub(super) fn transposed(&self, ids: usize) -> Flat {
        let mut at = vec![0u32; ids + 1];
        for &x in &self.items {
            at[x as usize + 1] += 1;
        }
        for k in 0..ids {
            at[k + 1] += at[k];
        }
        let mut items = vec![0u32; at[ids] as usize];
        let mut next = at[..ids].to_vec();
        for (l, w) in self.at.windows(2).enumerate() {
            for &x in &self.items[w[0] as usize..w[1] as usize] {
                items[next[x as usize] as usize] = l as u32;
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

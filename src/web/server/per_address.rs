//! Counts by address, capped: what one device (or a room behind one
//! router) holds at once, so that it cannot take what the others need.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// What each address holds now, capped: an entry is dropped when its
/// address holds nothing, so the map holds only addresses holding something.
#[derive(Clone)]
pub(super) struct PerAddress {
    limit: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One thing's place in its address's count, given back when dropped.
pub(super) struct AddressPermit {
    of: PerAddress,
    ip: IpAddr,
}

impl PerAddress {
    pub(super) fn new(limit: usize) -> PerAddress {
        PerAddress {
            limit: limit.max(1),
            open: Arc::default(),
        }
    }

    /// The most one address holds at once.
    pub(super) fn limit(&self) -> usize {
        self.limit
    }

    /// A place for one more from `ip`, unless it holds its limit already.
    pub(super) fn take(&self, ip: IpAddr) -> Option<AddressPermit> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let n = open.entry(ip).or_insert(0);
        if *n >= self.limit {
            return None;
        }
        *n += 1;
        Some(AddressPermit { of: self.clone(), ip })
    }
}

impl Drop for AddressPermit {
    fn drop(&mut self) {
        let mut open = self.of.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

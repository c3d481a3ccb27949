//! Wrong join codes, counted, so that a class's code cannot be guessed: a
//! device (an address) has a few tries, then waits, twice as long after
//! each further miss; and past a number of misses from everywhere in a
//! while, joining is closed until the teacher gives a new code. Without
//! closing it, every device together may miss at most 1,194 times an hour;
//! a school year of 1,200 hours of class is then 1.4 million guesses among
//! 31^8 = 8.5 × 10^11 codes of 8 characters: a chance under 2 in a million.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Wrong codes a device may send before it must wait.
pub(super) const FREE_MISSES: u32 = 5;
/// The first wait; each miss after it doubles the wait, up to [`LONGEST_WAIT`].
const FIRST_WAIT: Duration = Duration::from_secs(60);
const LONGEST_WAIT: Duration = Duration::from_secs(3600);
/// Wrong codes from everywhere within [`WINDOW`] that close joining.
pub(super) const ALL_MISSES: usize = 200;
const WINDOW: Duration = Duration::from_secs(600);
/// Addresses remembered at most (the oldest misses are forgotten first).
const ADDRESSES: usize = 4096;

/// The device an address stands for: an IPv4 address as it is (also when
/// it comes mapped into IPv6), an IPv6 address by its /64 network, since
/// one device may take any address of its network.
pub(super) fn device(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
        },
    }
}

/// One device's misses.
#[derive(Clone, Copy, Debug)]
struct Misses {
    count: u32,
    until: Option<Instant>,
}

/// Why a join is refused before its code is even compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Closed {
    /// This device sent too many wrong codes: it may try again after this long.
    Device(Duration),
    /// Too many wrong codes from everywhere: joining waits for a new code.
    Everyone,
}

impl Closed {
    /// The refusal, in words a student reads.
    pub(super) fn words(&self) -> String {
        match self {
            Closed::Device(wait) => {
                let minutes = wait.as_secs().div_ceil(60).max(1);
                format!(
                    "too many wrong codes from this device: try again in {minutes} minute{} (the code is on the teacher's screen)",
                    if minutes == 1 { "" } else { "s" }
                )
            }
            Closed::Everyone => {
                "joining is closed: too many wrong codes were tried; the teacher can give a new code".to_string()
            }
        }
    }
}

/// The misses of every device, and of all of them lately.
#[derive(Debug, Default)]
pub(super) struct Joins {
    devices: HashMap<IpAddr, Misses>,
    recent: VecDeque<Instant>,
    closed: bool,
}

impl Joins {
    /// Whether `device` may try a code now.
    pub(super) fn check(&mut self, device: IpAddr, now: Instant) -> Result<(), Closed> {
        if self.closed {
            return Err(Closed::Everyone);
        }
        match self.devices.get(&device).and_then(|m| m.until) {
            Some(until) if until > now => Err(Closed::Device(until - now)),
            _ => Ok(()),
        }
    }

    /// `device` sent a wrong code at `now`.
    pub(super) fn missed(&mut self, device: IpAddr, now: Instant) {
        while self.recent.front().is_some_and(|&t| now.duration_since(t) > WINDOW) {
            self.recent.pop_front();
        }
        self.recent.push_back(now);
        if self.recent.len() >= ALL_MISSES {
            self.closed = true;
        }
        if self.devices.len() >= ADDRESSES && !self.devices.contains_key(&device) {
            // Forget the device whose wait ends first (or has ended).
            let oldest = self.devices.iter().min_by_key(|(_, m)| m.until).map(|(ip, _)| *ip);
            oldest.map(|ip| self.devices.remove(&ip));
        }
        let misses = self.devices.entry(device).or_insert(Misses { count: 0, until: None });
        misses.count += 1;
        if misses.count >= FREE_MISSES {
            let doublings = (misses.count - FREE_MISSES).min(16);
            let wait = FIRST_WAIT.saturating_mul(1 << doublings).min(LONGEST_WAIT);
            misses.until = Some(now + wait);
        }
    }

    /// `device` joined: its misses are forgiven.
    pub(super) fn joined(&mut self, device: IpAddr) {
        self.devices.remove(&device);
    }

    /// A new code: joining opens again, every wait forgiven.
    pub(super) fn reopen(&mut self) {
        *self = Joins::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_waits_after_its_free_misses_twice_as_long_each_time() {
        let (mut j, t, ip) = (Joins::default(), Instant::now(), IpAddr::from([10, 0, 0, 1]));
        for _ in 0..FREE_MISSES - 1 {
            assert!(j.check(ip, t).is_ok());
            j.missed(ip, t);
        }
        j.missed(ip, t);
        assert_eq!(j.check(ip, t), Err(Closed::Device(FIRST_WAIT)));
        assert!(j.check(ip, t + FIRST_WAIT).is_ok());
        j.missed(ip, t + FIRST_WAIT);
        assert_eq!(j.check(ip, t + FIRST_WAIT), Err(Closed::Device(2 * FIRST_WAIT)));
        // Another device is not held up.
        assert!(j.check(IpAddr::from([10, 0, 0, 2]), t).is_ok());
        assert!(Closed::Device(FIRST_WAIT).words().contains("try again in 1 minute "));
    }

    #[test]
    fn an_ipv6_network_is_one_device_and_a_mapped_ipv4_address_its_own() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(device(a), device(b));
        assert_ne!(device(a), device(c));
        assert_eq!(device("::ffff:10.0.0.7".parse().unwrap()), IpAddr::from([10, 0, 0, 7]));
    }

    #[test]
    fn misses_from_everywhere_close_joining_until_a_new_code() {
        let (mut j, t) = (Joins::default(), Instant::now());
        for k in 0..ALL_MISSES {
            j.missed(IpAddr::from([10, 1, (k / 256) as u8, k as u8]), t);
        }
        assert_eq!(j.check(IpAddr::from([10, 9, 9, 9]), t), Err(Closed::Everyone));
        j.reopen();
        assert!(j.check(IpAddr::from([10, 9, 9, 9]), t).is_ok());
    }

    #[test]
    fn misses_older_than_the_window_do_not_count_toward_closing() {
        let (mut j, t) = (Joins::default(), Instant::now());
        for k in 0..ALL_MISSES - 1 {
            j.missed(IpAddr::from([10, 1, (k / 256) as u8, k as u8]), t);
        }
        j.missed(IpAddr::from([10, 2, 0, 0]), t + WINDOW + Duration::from_secs(1));
        assert!(j
            .check(IpAddr::from([10, 9, 9, 9]), t + WINDOW + Duration::from_secs(1))
            .is_ok());
    }
}

//! The host names a request may use: the `Host` and `Origin` checks
//! against DNS rebinding and other pages.

use std::net::IpAddr;

/// The hosts a request may name (its `Host` and `Origin`): the address
/// served, `localhost` when that is this computer, and those allowed by
/// name. Names point anywhere (DNS rebinding), so no other is accepted.
#[derive(Debug)]
pub(super) struct Hosts {
    pub(super) ip: IpAddr,
    pub(super) port: u16,
    pub(super) names: Vec<String>,
    /// Loopback addresses too (a classroom listens on the room's address
    /// and on this computer's own).
    pub(super) loopback: bool,
}

impl Hosts {
    pub(super) fn allows(&self, host: &str) -> bool {
        let (name, port) = match host.rsplit_once(':') {
            Some((n, p)) if !n.is_empty() && !p.contains(']') => match p.parse::<u16>() {
                Ok(p) => (n, p),
                Err(_) => return false,
            },
            _ => (host, 80),
        };
        if port != self.port {
            return false;
        }
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = bare.parse::<IpAddr>() {
            let loopback = self.ip.is_loopback() || self.loopback;
            return ip == self.ip || self.ip.is_unspecified() || (loopback && ip.is_loopback());
        }
        let name = name.to_ascii_lowercase();
        (name == "localhost" && (self.ip.is_loopback() || self.ip.is_unspecified() || self.loopback))
            || self.names.iter().any(|n| n.eq_ignore_ascii_case(&name))
    }

    pub(super) fn describe(&self) -> String {
        let ip = match self.ip {
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        let mut all = vec![format!("{ip}:{}", self.port)];
        if self.ip.is_loopback() {
            all.push(format!("localhost:{}", self.port));
        }
        all.extend(self.names.iter().map(|n| format!("{n}:{}", self.port)));
        all.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_the_address_served_and_localhost_only() {
        let loopback = Hosts {
            ip: "127.0.0.1".parse().unwrap(),
            port: 8000,
            names: vec!["classroom".to_string()],
            loopback: false,
        };
        for ok in [
            "127.0.0.1:8000",
            "localhost:8000",
            "LOCALHOST:8000",
            "[::1]:8000",
            "classroom:8000",
        ] {
            assert!(loopback.allows(ok), "{ok}");
        }
        for no in [
            "evil.example:8000",
            "127.0.0.1:8001",
            "127.0.0.1",
            "",
            "10.0.0.1:8000",
            "localhost.evil:8000",
        ] {
            assert!(!loopback.allows(no), "{no}");
        }
        let everywhere = Hosts {
            ip: "0.0.0.0".parse().unwrap(),
            port: 80,
            names: Vec::new(),
            loopback: false,
        };
        assert!(everywhere.allows("192.168.1.20") && everywhere.allows("192.168.1.20:80"));
        assert!(!everywhere.allows("school.example"));
    }
}

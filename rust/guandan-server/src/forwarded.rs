//! The player's address behind a reverse proxy (`--trusted-proxy`).
//!
//! Behind nginx or Caddy every connection comes from the proxy, so the per-address limits
//! (connections, guest accounts, public reads, one address per ranked table) would count every
//! player as one. A connection from a configured proxy address is therefore judged by the
//! `X-Forwarded-For` header of each request: its entries are read from the right (the one the
//! proxy appended), skipping other trusted proxies; the first address that is not a trusted
//! proxy is the player's. Entries further left were written by the client and are never
//! believed. From any other address the header is ignored: a client cannot choose its address
//! by sending one.

use hyper::header::{HeaderMap, HeaderName};
use ipnet::IpNet;
use std::net::IpAddr;

const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies {
    nets: Vec<IpNet>,
}

/// What a trusted proxy's request said about its client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forwarded {
    /// The player's address.
    Client(IpAddr),
    /// No usable header (absent, or an entry that is not an address where the proxy's own
    /// should be): the proxy is misconfigured; the request counts as the proxy's.
    Missing,
}

impl TrustedProxies {
    pub fn new(nets: Vec<IpNet>) -> TrustedProxies {
        TrustedProxies { nets }
    }

    pub fn is_empty(&self) -> bool {
        self.nets.is_empty()
    }

    /// Whether `ip` is one of the proxies (an IPv4-mapped IPv6 address as its IPv4 address).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.nets.iter().any(|n| n.contains(&ip))
    }

    /// The client a trusted proxy's request came from.
    pub fn client(&self, headers: &HeaderMap) -> Forwarded {
        // Several header lines are one list, in order (RFC 9110 §5.3).
        let entries: Vec<&str> =
            headers.get_all(X_FORWARDED_FOR).iter().flat_map(|v| v.to_str().unwrap_or("\u{0}").split(',')).collect();
        for entry in entries.iter().rev() {
            let Some(ip) = parse_entry(entry) else {
                return Forwarded::Missing;
            };
            if !self.contains(ip) {
                return Forwarded::Client(canonical(ip));
            }
        }
        Forwarded::Missing
    }
}

/// `--trusted-proxy`: an address (`10.0.0.5`, `::1`) or a block (`10.0.0.0/24`).
pub fn parse_proxy(s: &str) -> Result<IpNet, String> {
    let s = s.trim();
    s.parse::<IpNet>()
        .or_else(|_| s.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| format!("{s:?} is not an address or an address block such as 10.0.0.0/24"))
}

/// One `X-Forwarded-For` entry: an address, also `[v6]:port` or `v4:port` as some proxies write.
fn parse_entry(entry: &str) -> Option<IpAddr> {
    let e = entry.trim();
    e.parse::<IpAddr>().ok().or_else(|| e.parse::<std::net::SocketAddr>().ok().map(|s| s.ip()))
}

fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn proxies(list: &[&str]) -> TrustedProxies {
        TrustedProxies::new(list.iter().map(|s| s.parse().unwrap()).collect())
    }

    fn headers(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append(X_FORWARDED_FOR, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    fn client(s: &str) -> Forwarded {
        Forwarded::Client(s.parse().unwrap())
    }

    #[test]
    fn the_entry_the_proxy_appended_is_the_client_whatever_the_client_wrote_before_it() {
        let p = proxies(&["127.0.0.1/32"]);
        assert_eq!(p.client(&headers(&["203.0.113.7"])), client("203.0.113.7"));
        // A client that sends its own header gets its entry to the left of the real one.
        assert_eq!(p.client(&headers(&["1.2.3.4, 203.0.113.7"])), client("203.0.113.7"));
        assert_eq!(p.client(&headers(&["1.2.3.4", "203.0.113.7"])), client("203.0.113.7"));
        assert_eq!(p.client(&headers(&["garbage, 203.0.113.7"])), client("203.0.113.7"));
    }

    #[test]
    fn chained_trusted_proxies_are_skipped_from_the_right() {
        let p = proxies(&["10.0.0.0/8", "127.0.0.1/32"]);
        assert_eq!(p.client(&headers(&["198.51.100.9, 10.1.2.3"])), client("198.51.100.9"));
        // Only proxies: nobody to believe.
        assert_eq!(p.client(&headers(&["10.0.0.1, 10.0.0.2"])), Forwarded::Missing);
    }

    #[test]
    fn no_header_or_a_broken_last_entry_counts_as_the_proxy() {
        let p = proxies(&["127.0.0.1/32"]);
        assert_eq!(p.client(&HeaderMap::new()), Forwarded::Missing);
        assert_eq!(p.client(&headers(&["203.0.113.7, not-an-address"])), Forwarded::Missing);
        assert_eq!(p.client(&headers(&[""])), Forwarded::Missing);
    }

    #[test]
    fn ports_brackets_and_mapped_addresses() {
        let p = proxies(&["::1/128", "127.0.0.1/32"]);
        assert_eq!(p.client(&headers(&["203.0.113.7:5555"])), client("203.0.113.7"));
        assert_eq!(p.client(&headers(&["[2001:db8::5]:443"])), client("2001:db8::5"));
        assert_eq!(p.client(&headers(&["::ffff:203.0.113.7"])), client("203.0.113.7"));
        assert!(p.contains("::ffff:127.0.0.1".parse().unwrap()));
        assert!(!p.contains("127.0.0.2".parse().unwrap()));
    }

    #[test]
    fn proxies_are_addresses_or_blocks() {
        assert_eq!(parse_proxy("10.0.0.5").unwrap(), "10.0.0.5/32".parse::<IpNet>().unwrap());
        assert_eq!(parse_proxy("::1").unwrap(), "::1/128".parse::<IpNet>().unwrap());
        assert_eq!(parse_proxy("10.0.0.0/24").unwrap(), "10.0.0.0/24".parse::<IpNet>().unwrap());
        for bad in ["", "10.0.0.0/33", "proxy.example.com", "10.0.0.1:80"] {
            assert!(parse_proxy(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn nothing_is_trusted_by_default() {
        let p = TrustedProxies::default();
        assert!(p.is_empty());
        assert!(!p.contains("127.0.0.1".parse().unwrap()));
    }
}

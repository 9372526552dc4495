//! A server's address as a player or an operator types it: `host`, `host:port`, `http://`,
//! `https://`, `ws://` or `wss://` (an IPv6 address in brackets), with an optional path base
//! (a server behind a proxy at `https://example.org/guandan`). The clients get from it the
//! WebSocket and HTTP URLs and whether the connection is encrypted; whether plain text may go
//! there without asking the player is [`Endpoint::is_private`]. No I/O: nothing is resolved.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

use crate::http::WS_PATH;

/// The port of a plain server when none is typed (guandan-server's default).
pub const DEFAULT_PLAIN_PORT: u16 = 7878;
/// The port of a TLS server when none is typed (HTTPS's).
pub const DEFAULT_TLS_PORT: u16 = 443;

/// Where a server is and how to speak to it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Endpoint {
    /// `https://` / `wss://`: TLS with certificate checks. Never chosen by the client itself.
    pub tls: bool,
    /// A DNS name (lower case) or an IP address (IPv6 without brackets).
    pub host: String,
    pub port: u16,
    /// A path every URL of the server starts with: empty, or `/…` without a trailing `/`.
    pub base: String,
}

impl Endpoint {
    /// Reads a typed address. The scheme decides TLS (`https`/`wss`) or plain (`http`/`ws`, or
    /// none); the port defaults to 443 for TLS and 7878 for plain; a path ending in the
    /// WebSocket's own path (`/v1/ws`, a pasted URL) names the server, not a base.
    pub fn parse(typed: &str) -> Result<Endpoint, String> {
        let s = typed.trim();
        if s.is_empty() {
            return Err("empty server address".into());
        }
        let (tls, rest) = match s.split_once("://") {
            None => (false, s),
            Some((scheme, rest)) => match scheme.to_ascii_lowercase().as_str() {
                "http" | "ws" => (false, rest),
                "https" | "wss" => (true, rest),
                other => {
                    return Err(format!(
                        "unknown scheme {other:?} in {s:?}: use https://HOST, wss://HOST, http://HOST:PORT or HOST:PORT"
                    ));
                }
            },
        };
        if rest.contains(['?', '#']) {
            return Err(format!("a server address has no query or fragment: {s:?}"));
        }
        let (authority, path) = match rest.find('/') {
            Some(i) => rest.split_at(i),
            None => (rest, ""),
        };
        if authority.contains('@') {
            return Err(format!("a server address has no user name or password: {s:?}"));
        }
        let (host, port) = split_authority(authority)?;
        let port = match port {
            Some(p) => p,
            None if tls => DEFAULT_TLS_PORT,
            None => DEFAULT_PLAIN_PORT,
        };
        let mut base = path.trim_end_matches('/');
        while let Some(b) = base.strip_suffix(WS_PATH) {
            base = b.trim_end_matches('/');
        }
        if base.chars().any(|c| c.is_whitespace() || c.is_control() || c == '\\') {
            return Err(format!("a server address's path holds no spaces or control characters: {s:?}"));
        }
        Ok(Endpoint { tls, host, port, base: base.to_string() })
    }

    /// `host:port`, an IPv6 address in brackets.
    pub fn authority(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }

    /// The protocol v1 WebSocket: `ws(s)://host:port[base]/v1/ws`.
    pub fn ws_url(&self) -> String {
        format!("{}://{}{}{WS_PATH}", if self.tls { "wss" } else { "ws" }, self.authority(), self.base)
    }

    /// An HTTP endpoint of the server (`path` starts with `/`).
    pub fn http_url(&self, path: &str) -> String {
        format!("{}{path}", self)
    }

    /// Loopback, a private LAN (RFC 1918, link-local, IPv6 unique-local) or `localhost`: where
    /// plain `ws://` goes without asking. A DNS name other than `localhost` is public, whatever
    /// it resolves to (it is not resolved here, and a resolver can be lied to).
    pub fn is_private(&self) -> bool {
        is_private_host(&self.host)
    }

    /// Plain text to a public host: the game asks the player before connecting.
    pub fn plain_to_public(&self) -> bool {
        !self.tls && !self.is_private()
    }
}

impl fmt::Display for Endpoint {
    /// `http(s)://host:port[base]`: the form a redirect and the settings use.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}{}", if self.tls { "https" } else { "http" }, self.authority(), self.base)
    }
}

/// `host[:port]` or `[v6][:port]` → (host, port).
fn split_authority(a: &str) -> Result<(String, Option<u16>), String> {
    let port = |p: &str| match p.parse::<u16>() {
        Ok(n) if n > 0 => Ok(Some(n)),
        _ => Err(format!("bad port {p:?}: 1 to 65535")),
    };
    if let Some(inner) = a.strip_prefix('[') {
        let (v6, after) = inner.split_once(']').ok_or_else(|| format!("no closing ] in {a:?}"))?;
        let ip: Ipv6Addr = v6.parse().map_err(|_| format!("{v6:?} is not an IPv6 address"))?;
        let p = match after {
            "" => None,
            _ => port(after.strip_prefix(':').ok_or_else(|| format!("expected :PORT after ] in {a:?}"))?)?,
        };
        return Ok((ip.to_string(), p));
    }
    let (host, p) = match a.rsplit_once(':') {
        Some((h, _)) if h.contains(':') => {
            return Err(format!("an IPv6 address goes in brackets, e.g. [::1]:7878, not {a:?}"));
        }
        Some((h, p)) => (h, port(p)?),
        None => (a, None),
    };
    if host.is_empty() {
        return Err("the server address has no host".into());
    }
    if let Ok(ip) = host.parse::<Ipv4Addr>() {
        return Ok((ip.to_string(), p));
    }
    let name = host.trim_end_matches('.').to_ascii_lowercase();
    let label_ok = |l: &str| {
        !l.is_empty() && l.len() <= 63 && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    if name.len() > 253 || !name.split('.').all(label_ok) {
        return Err(format!("{host:?} is not a host name or an IP address"));
    }
    Ok((name, p))
}

fn is_private_host(host: &str) -> bool {
    if host == "localhost" {
        return true;
    }
    if let Ok(v4) = host.parse::<Ipv4Addr>() {
        return private_v4(v4);
    }
    match host.parse::<Ipv6Addr>() {
        Ok(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => private_v4(v4),
            // Loopback, unique-local fc00::/7, link-local fe80::/10.
            None => v6.is_loopback() || (v6.segments()[0] & 0xfe00) == 0xfc00 || (v6.segments()[0] & 0xffc0) == 0xfe80,
        },
        Err(_) => false,
    }
}

fn private_v4(ip: Ipv4Addr) -> bool {
    ip.is_loopback() || ip.is_private() || ip.is_link_local()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ep(s: &str) -> Endpoint {
        Endpoint::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    #[test]
    fn addresses_as_typed() {
        let e = ep("127.0.0.1:7878");
        assert_eq!((e.tls, e.host.as_str(), e.port, e.base.as_str()), (false, "127.0.0.1", 7878, ""));
        assert_eq!(e.ws_url(), "ws://127.0.0.1:7878/v1/ws");
        assert_eq!(ep(" http://10.0.0.5:9000/ ").http_url("/v1/players"), "http://10.0.0.5:9000/v1/players");
        assert_eq!(ep("ws://example.org:1/v1/ws").ws_url(), "ws://example.org:1/v1/ws");
        assert_eq!(ep("game.local").authority(), "game.local:7878");
        let t = ep("https://Guandan.Example.COM");
        assert_eq!((t.tls, t.host.as_str(), t.port), (true, "guandan.example.com", 443));
        assert_eq!(t.ws_url(), "wss://guandan.example.com:443/v1/ws");
        assert_eq!(ep("wss://x.org:8443/").http_url("/healthz"), "https://x.org:8443/healthz");
        let b = ep("https://x.org/guandan/");
        assert_eq!(b.ws_url(), "wss://x.org:443/guandan/v1/ws");
        assert_eq!(ep("wss://x.org/guandan/v1/ws"), b);
        let v6 = ep("wss://[2001:db8::1]:9443");
        assert_eq!((v6.host.as_str(), v6.port), ("2001:db8::1", 9443));
        assert_eq!(v6.ws_url(), "wss://[2001:db8::1]:9443/v1/ws");
        assert_eq!(ep("[::1]").authority(), "[::1]:7878");
        assert_eq!(ep("HTTP://h:1").to_string(), "http://h:1");
    }

    #[test]
    fn what_is_not_an_address_is_said() {
        for (bad, says) in [
            ("", "empty"),
            ("   ", "empty"),
            ("ftp://x", "unknown scheme"),
            ("x:0", "bad port"),
            ("x:70000", "bad port"),
            ("x:port", "bad port"),
            ("::1", "brackets"),
            ("[::1", "closing ]"),
            ("[nope]:1", "not an IPv6"),
            ("[::1]x", "expected :PORT"),
            ("https://", "no host"),
            (":7878", "no host"),
            ("a b.org", "not a host name"),
            ("user:pw@x.org", "user name"),
            ("http://x.org/?a=1", "query"),
            ("http://x.org/a b", "no spaces"),
        ] {
            let e = Endpoint::parse(bad).expect_err(bad);
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }

    #[test]
    fn plain_text_goes_without_asking_only_to_private_hosts() {
        for private in [
            "localhost",
            "127.0.0.1",
            "127.9.9.9",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.20",
            "169.254.3.4",
        ] {
            assert!(ep(private).is_private(), "{private}");
            assert!(!ep(private).plain_to_public(), "{private}");
        }
        for private in ["[::1]", "[fd12:3456::1]", "[fc00::1]", "[fe80::1]", "[::ffff:192.168.0.1]"] {
            assert!(ep(private).is_private(), "{private}");
        }
        for public in [
            "example.org",
            "8.8.8.8",
            "172.32.0.1",
            "100.64.0.1",
            "[2001:db8::1]",
            "[::ffff:8.8.8.8]",
            "localhost.evil.org",
        ] {
            assert!(!ep(public).is_private(), "{public}");
            assert!(ep(public).plain_to_public(), "{public}");
        }
        // TLS to a public host needs no question.
        assert!(!ep("wss://example.org").plain_to_public());
    }

    proptest! {
        /// Whatever is typed: an address or an error, never a panic; an address reads back as
        /// itself from its own display form.
        #[test]
        fn any_text_parses_or_is_refused(s in "\\PC{0,40}") {
            if let Ok(e) = Endpoint::parse(&s) {
                prop_assert_eq!(Endpoint::parse(&e.to_string()), Ok(e.clone()));
                prop_assert_eq!(Endpoint::parse(&e.ws_url()), Ok(e));
            }
        }

        #[test]
        fn ipv4_addresses_are_private_exactly_by_their_ranges(a in any::<[u8; 4]>(), port in 1u16..) {
            let ip = Ipv4Addr::from(a);
            let e = Endpoint::parse(&format!("ws://{ip}:{port}")).unwrap();
            prop_assert_eq!(e.port, port);
            let want = a[0] == 127 || a[0] == 10 || (a[0] == 172 && (16..32).contains(&a[1]))
                || (a[0] == 192 && a[1] == 168) || (a[0] == 169 && a[1] == 254);
            prop_assert_eq!(e.is_private(), want);
        }
    }
}

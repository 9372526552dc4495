//! `guandan bot --ws URL`: the competition platform's WebSocket transport (sync tungstenite),
//! `ws://` or `wss://` (TLS with the clients' trust: Mozilla's roots and `--ca-file`; the
//! handshake ends before the upgrade request is written). Each text frame is one message; each
//! `act` is answered with one text frame.

use std::time::Duration;

use guandan_proto::Endpoint;
use guandan_proto::tls::Trust;
use guandan_proto::tls::stream::connect;
use tungstenite::Message;

use super::{Bot, log};

const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The platform's host and port from its WebSocket URL (`ws://` port 80 and `wss://` port 443
/// unless given: a URL's own defaults, not the game server's).
fn platform(url: &str) -> Result<Endpoint, String> {
    let bad = |why: String| format!("--ws {url:?}: {why}");
    let (scheme, rest) =
        url.trim().split_once("://").ok_or_else(|| bad("expected ws://HOST:PORT/PATH or wss://…".into()))?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "ws" && scheme != "wss" {
        return Err(bad(format!("a WebSocket URL starts with ws:// or wss://, not {scheme}://")));
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let mut ep = Endpoint::parse(&format!("{scheme}://{authority}")).map_err(bad)?;
    let port_given = authority.rsplit_once(':').is_some_and(|(h, p)| {
        !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && (!h.starts_with('[') || h.ends_with(']'))
    });
    if !port_given && !ep.tls {
        ep.port = 80;
    }
    Ok(ep)
}

/// Plays until the platform closes the connection.
pub fn run(bot: &mut Bot, url: &str, trust: &Trust) -> Result<(), String> {
    let ep = platform(url)?;
    let stream = connect(&ep, trust, CONNECT_TIMEOUT).map_err(|f| format!("cannot connect to {url}: {f}"))?;
    let (mut socket, _response) =
        tungstenite::client::client(url.trim(), stream).map_err(|e| format!("cannot connect to {url}: {e}"))?;
    // The platform may think for long: reads wait for it.
    socket.get_ref().set_read_timeout(None).map_err(|e| format!("{url}: {e}"))?;
    log(format!("connected to {url}"));
    loop {
        let text = match socket.read() {
            Ok(Message::Text(t)) => t.as_str().to_string(),
            Ok(Message::Binary(b)) => match String::from_utf8(b.to_vec()) {
                Ok(t) => t,
                Err(_) => {
                    log("ignored a binary frame that is not UTF-8");
                    continue;
                }
            },
            Ok(Message::Close(frame)) => {
                log(format!("the platform closed the connection: {frame:?}"));
                return Ok(());
            }
            // Pings are answered by tungstenite itself.
            Ok(_) => continue,
            Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => return Ok(()),
            Err(e) => return Err(format!("WebSocket {url}: {e}")),
        };
        // A frame holds one message (possibly pretty-printed); tolerate several, one per line.
        let whole = serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok();
        let messages: Vec<&str> = if whole { vec![text.as_str()] } else { text.lines().collect() };
        for line in messages {
            if let Some(answer) = bot.handle_text(line) {
                socket.send(Message::text(answer)).map_err(|e| format!("WebSocket {url}: cannot answer: {e}"))?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_proto::tls::test_pki::{Pki, Served, serve_once};

    #[test]
    fn platform_urls_give_their_host_and_port() {
        let e = platform("ws://127.0.0.1:23456/game/client0").unwrap();
        assert_eq!((e.tls, e.authority()), (false, "127.0.0.1:23456".to_string()));
        assert_eq!(platform("ws://platform.example/game?x=1").unwrap().port, 80);
        assert_eq!(platform("wss://platform.example/game").unwrap().port, 443);
        assert_eq!(platform("wss://[::1]:9/g").unwrap().authority(), "[::1]:9");
        assert!(platform("http://x/g").unwrap_err().contains("ws:// or wss://"));
        assert!(platform("x:1").unwrap_err().contains("expected ws://"));
    }

    /// `wss://` with the private CA: connected, and the platform's close ends the bot cleanly.
    #[test]
    fn the_bot_plays_over_wss_with_the_ca_file() {
        let pki = Pki::new();
        let ca = pki.ca_file();
        let trust = Trust::with_ca_file(ca.path()).unwrap();
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let served = serve_once(l, pki.leaf(&["localhost"]), |s| {
            let mut ws = tungstenite::accept(s).expect("a WebSocket over TLS");
            ws.close(None).unwrap();
            // Until the bot answers the close.
            while ws.read().is_ok() {}
        });
        let mut bot = crate::bot::Bot::new(
            guandan_ai::AiProfile::level(guandan_ai::AiLevel::L1),
            guandan_core::rules::RuleConfig::preset("huaian").unwrap(),
            1,
        )
        .unwrap();
        run(&mut bot, &format!("wss://localhost:{port}/game/client0"), &trust).expect("played until closed");
        assert!(matches!(served.join().unwrap(), Served::Done(())));
        // Without the CA: refused, nothing sent.
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let served = serve_once(l, pki.leaf(&["localhost"]), |_| ());
        let e = run(&mut bot, &format!("wss://localhost:{port}/game/client0"), &Trust::mozilla()).unwrap_err();
        assert!(e.contains("not signed by an authority this game trusts"), "{e}");
        assert!(matches!(served.join().unwrap(), Served::Refused { app_bytes: 0, .. }));
    }
}

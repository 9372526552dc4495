//! `guandan bot --ws URL`: the competition platform's WebSocket transport (sync tungstenite).
//! Each text frame is one message; each `act` is answered with one text frame.

use super::{Bot, log};
use tungstenite::{Message, connect};

/// Plays until the platform closes the connection.
pub fn run(bot: &mut Bot, url: &str) -> Result<(), String> {
    let (mut socket, _response) = connect(url).map_err(|e| format!("cannot connect to {url}: {e}"))?;
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

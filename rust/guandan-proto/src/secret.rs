//! Credentials on their way: a session token, a password, a transfer code. Their `Debug` prints
//! `[redacted]` and they have no `Display`, so no `{:?}` of a message, a request or a session
//! (a log line, a panic, a test's failure) ever shows one. On the wire they are plain strings.

use serde::{Deserialize, Serialize};

/// A secret string; read it with [`Secret::expose`] where it is used, and nowhere else.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Secret {
        Secret(s.into())
    }

    /// The secret itself: to hash it, send it or store it on the player's own device.
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

impl From<String> for Secret {
    fn from(s: String) -> Secret {
        Secret(s)
    }
}

impl From<&str> for Secret {
    fn from(s: &str) -> Secret {
        Secret(s.to_string())
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_it_and_the_wire_carries_it_plain() {
        let s = Secret::from("hunter2-token");
        assert_eq!(format!("{s:?}"), "[redacted]");
        assert_eq!(format!("{:?}", Some(s.clone())), "Some([redacted])");
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"hunter2-token\"");
        let back: Secret = serde_json::from_str("\"x\"").unwrap();
        assert_eq!(back.expose(), "x");
    }
}

//! One seat per account on this instance: the room each account holds a seat in. Rooms keep
//! it: a room claims a player's seat before it seats them (refused when the account holds one
//! elsewhere), and gives it back when the seat is freed or the room ends. Connections read it to
//! refuse the quick-match queue, a new room or another room's seat with `already_seated`,
//! naming the room to go back to.

use parking_lot::Mutex;
use std::collections::HashMap;

#[derive(Default)]
pub struct Seats {
    /// Player id → the code of the room holding their seat.
    map: Mutex<HashMap<String, String>>,
}

impl Seats {
    /// Records `player`'s seat in room `code`; the other room's code when they hold one there.
    pub fn claim(&self, player: &str, code: &str) -> Result<(), String> {
        let mut map = self.map.lock();
        match map.get(player) {
            Some(other) if other != code => Err(other.clone()),
            Some(_) => Ok(()),
            None => {
                map.insert(player.to_string(), code.to_string());
                Ok(())
            }
        }
    }

    /// `player`'s seat in room `code` is free (nothing changes if they are recorded elsewhere).
    pub fn release(&self, player: &str, code: &str) {
        let mut map = self.map.lock();
        if map.get(player).is_some_and(|c| c == code) {
            map.remove(player);
        }
    }

    /// The room where `player` holds a seat.
    pub fn room_of(&self, player: &str) -> Option<String> {
        self.map.lock().get(player).cloned()
    }

    pub fn len(&self) -> usize {
        self.map.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The refusal's message: where the seat is, and how to be free of it.
pub fn already_seated(code: &str) -> String {
    format!("you have a seat in room {code}: go back to it (join_room {code}) and leave it first")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_room_per_player_until_it_lets_the_seat_go() {
        let s = Seats::default();
        assert_eq!(s.claim("p", "AAAAAA"), Ok(()));
        assert_eq!(s.claim("p", "AAAAAA"), Ok(()), "the same room again");
        assert_eq!(s.claim("p", "BBBBBB"), Err("AAAAAA".into()));
        s.release("p", "BBBBBB");
        assert_eq!(s.room_of("p").as_deref(), Some("AAAAAA"), "another room cannot free it");
        s.release("p", "AAAAAA");
        assert_eq!(s.room_of("p"), None);
        assert_eq!(s.claim("p", "BBBBBB"), Ok(()));
        assert_eq!(s.len(), 1);
    }
}

//! Identities: a random player id and random session tokens (only a token's SHA-256 is stored,
//! and a presented token is looked up by it: crate::accounts). Room codes come from the same OS
//! randomness (31^6 ≈ 887 million codes).

use guandan_proto::{ROOM_CODE_ALPHABET, ROOM_CODE_LEN};
use sha2::{Digest, Sha256};

pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    // The OS generator only fails on broken systems; a zero id would then collide and be refused.
    let _ = getrandom::fill(&mut b);
    b
}

/// A 64-bit number from the OS's cryptographic generator; `None` if the OS cannot give one
/// (never a fallback value: a predictable match seed would show every hand).
pub fn os_random_u64() -> Option<u64> {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).ok().map(|()| u64::from_le_bytes(b))
}

pub fn new_player_id() -> String {
    hex::encode(random_bytes::<12>())
}

pub fn new_token() -> String {
    hex::encode(random_bytes::<32>())
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

pub fn new_room_code() -> String {
    random_bytes::<ROOM_CODE_LEN>()
        .iter()
        .map(|&b| ROOM_CODE_ALPHABET[b as usize % ROOM_CODE_ALPHABET.len()] as char)
        .collect()
}

/// Nicknames: the protocol's rule ([`guandan_proto::check_nickname`]).
pub fn valid_nickname(n: &str) -> bool {
    guandan_proto::valid_nickname(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_codes() {
        let t = new_token();
        assert_eq!(t.len(), 64);
        assert_eq!(hash_token(&t), hash_token(&t.clone()));
        assert_ne!(hash_token(&new_token()), hash_token(&t));
        assert_ne!(new_player_id(), new_player_id());
        for _ in 0..100 {
            assert!(guandan_proto::valid_room_code(&new_room_code()));
        }
        assert!(valid_nickname("小明"));
        assert!(!valid_nickname(""));
        assert!(!valid_nickname(" x"));
        assert!(!valid_nickname(&"x".repeat(25)));
    }
}

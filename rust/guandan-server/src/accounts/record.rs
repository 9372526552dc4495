//! Which lane of the password-hash queue a login or claim waits in ([`super::hash_queue`]):
//! what this instance remembers of each address's and name's recent logins. An address or name
//! is *in doubt* from the moment it starts a login until one succeeds (an hour at most); a name
//! that logged in from an address is *known there* for a day. A login waits in the known lane
//! when its name is known at its address; else in the clean lane when neither the address nor
//! the name is in doubt; otherwise in the rest lane. A flooding address is thus in the clean
//! lane for one try only, never in the known lane (unless it logs in to an account of its own),
//! and a name it guesses at cannot push its owner, logging in from home, behind the flood. The
//! record never depends on whether the name exists: its answer tells nothing about accounts.

use super::hash_queue::Lane;
use crate::limiter::{KeyState, Keyed};
use std::net::IpAddr;

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;

/// A mark that holds until a moment (the accounts' epoch ms).
struct Until(i64);

impl KeyState for Until {
    type At = i64;
    fn is_fresh(&self, now: i64) -> bool {
        now >= self.0
    }
}

#[derive(Default)]
pub struct LoginRecord {
    doubted_sources: Keyed<IpAddr, Until>,
    doubted_names: Keyed<String, Until>,
    known: Keyed<(IpAddr, String), Until>,
}

impl LoginRecord {
    /// The lane of a login (or claim) of `name` (its key) from `source` starting now; both are in
    /// doubt from now on until one succeeds.
    pub fn lane(&self, source: IpAddr, name: &str, now: i64) -> Lane {
        let known = self.known.with_existing(&(source, name.to_string()), |u| u.0 > now).unwrap_or(false);
        let doubt = |u: &mut Until| {
            let was = u.0 > now;
            u.0 = now + HOUR_MS;
            was
        };
        let source_doubted = self.doubted_sources.with(source, now, || Until(now), doubt);
        let name_doubted = self.doubted_names.with(name.to_string(), now, || Until(now), doubt);
        if known {
            Lane::Known
        } else if !(source_doubted || name_doubted) {
            Lane::Clean
        } else {
            Lane::Rest
        }
    }

    /// `name` logged in (or was claimed) from `source`: neither is in doubt, and the name is
    /// known there for a day.
    pub fn succeeded(&self, source: IpAddr, name: &str, now: i64) {
        self.doubted_sources.with_existing(&source, |u| u.0 = now);
        self.doubted_names.with_existing(&name.to_string(), |u| u.0 = now);
        self.known.with((source, name.to_string()), now, || Until(now), |u| u.0 = now + DAY_MS);
    }

    /// A login that never reached its check (refused as busy) leaves no doubt of its own: only a
    /// login under way or failed counts.
    pub fn withdrawn(&self, source: IpAddr, name: &str, now: i64, lane: Lane) {
        // In the clean lane nothing was in doubt before this login started.
        if lane == Lane::Clean {
            self.doubted_sources.with_existing(&source, |u| u.0 = now);
            self.doubted_names.with_existing(&name.to_string(), |u| u.0 = now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn ip(n: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(127, 0, 1, n))
    }

    #[test]
    fn a_name_known_at_its_address_is_known_and_one_in_doubt_waits_in_the_rest_lane() {
        let r = LoginRecord::default();
        assert_eq!(r.lane(ip(1), "ann", 0), Lane::Clean, "a clean record");
        assert_eq!(r.lane(ip(1), "bob", 1), Lane::Rest, "the address is trying already (or failed)");
        assert_eq!(r.lane(ip(2), "ann", 2), Lane::Rest, "the name is in doubt from any address");
        assert_eq!(r.lane(ip(3), "cy", 3), Lane::Clean, "others are not touched");
        r.succeeded(ip(1), "ann", 4);
        assert_eq!(r.lane(ip(1), "ann", 5), Lane::Known, "known at this address");
        assert_eq!(r.lane(ip(2), "ann", 5), Lane::Rest, "not known elsewhere, and in doubt");
        r.succeeded(ip(1), "ann", 5);
        // A flood guessing at ann from elsewhere: ann from home keeps the first lane.
        for i in 10..40 {
            assert_eq!(r.lane(ip(i), "ann", 6 + i64::from(i)), if i == 10 { Lane::Clean } else { Lane::Rest });
        }
        assert_eq!(r.lane(ip(1), "ann", 100), Lane::Known);
        // Another name from ann's home is not known there.
        assert_eq!(r.lane(ip(1), "eve", 101), Lane::Rest);
        // Doubt lasts an hour; being known, a day.
        assert_eq!(r.lane(ip(3), "dan", HOUR_MS + 10), Lane::Clean);
        assert_eq!(r.lane(ip(1), "ann", DAY_MS), Lane::Known);
        assert_eq!(r.lane(ip(1), "ann", DAY_MS + 200), Lane::Rest, "in doubt since the last try");
    }

    #[test]
    fn a_withdrawn_first_try_leaves_no_doubt() {
        let r = LoginRecord::default();
        assert_eq!(r.lane(ip(1), "ann", 0), Lane::Clean);
        r.withdrawn(ip(1), "ann", 1, Lane::Clean);
        assert_eq!(r.lane(ip(1), "ann", 2), Lane::Clean);
    }
}

//! Who hashes next (issue 57): the three lanes of the password-hash queue, as plain data, so the
//! order is tested without a clock or a task ([`super::hash_queue`] gives the turns).
//!
//! - **known**: a name logging in from an address it logged in from in the last day (or was
//!   claimed from): a returning player. One waiter an address; another login of that address
//!   waits in the rest lane. A flood with random names never stands here.
//! - **clean**: a name and address with a clean record (neither has a login under way or failed
//!   since its last success): a player new to the address, and each flooding address's first
//!   try (one an address: the try itself puts the address in doubt).
//! - **rest**: everything else, at most one waiter an address and [`Lines::new`]'s cap in all;
//!   past that a login is refused as busy (the caller gives back what it took).
//!
//! Each lane is served only when the lanes above it are empty, each in the order it was joined.

use std::collections::{HashSet, VecDeque};
use std::net::IpAddr;

/// Which lane a hash waits in (see the module's text), best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    Known,
    Clean,
    Rest,
}

/// One waiter: what the queue hands its turn to, with where it stands.
pub struct Standing<T> {
    pub item: T,
    pub source: IpAddr,
    pub lane: Lane,
    /// Turns given before this one joined.
    pub joined_at: u64,
}

/// The rest lane has no room for this waiter (full, or it holds one of this address already).
#[derive(Debug, PartialEq, Eq)]
pub struct NoRoom;

pub struct Lines<T> {
    known: VecDeque<Standing<T>>,
    clean: VecDeque<Standing<T>>,
    rest: VecDeque<Standing<T>>,
    /// Addresses with a waiter in the known lane, and in the rest lane.
    known_of: HashSet<IpAddr>,
    rest_of: HashSet<IpAddr>,
    rest_cap: usize,
}

/// Waiters now in each lane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Waiting {
    pub known: usize,
    pub clean: usize,
    pub rest: usize,
}

impl Waiting {
    pub fn total(&self) -> usize {
        self.known + self.clean + self.rest
    }
}

impl<T> Lines<T> {
    /// Empty lanes; the rest lane holds at most `rest_cap` waiters.
    pub fn new(rest_cap: usize) -> Lines<T> {
        Lines {
            known: VecDeque::new(),
            clean: VecDeque::new(),
            rest: VecDeque::new(),
            known_of: HashSet::new(),
            rest_of: HashSet::new(),
            rest_cap,
        }
    }

    pub fn waiting(&self) -> Waiting {
        Waiting { known: self.known.len(), clean: self.clean.len(), rest: self.rest.len() }
    }

    pub fn is_empty(&self) -> bool {
        self.waiting().total() == 0
    }

    /// `item` from `source` joins `lane` (a known login whose address has a known waiter
    /// already joins the rest lane): the lane it stands in, or `NoRoom` (nothing joined) when
    /// that is the rest lane and it has no room even after the waiters `gone` says left.
    pub fn join(
        &mut self,
        lane: Lane,
        source: IpAddr,
        item: T,
        joined_at: u64,
        gone: impl Fn(&T) -> bool,
    ) -> Result<Lane, NoRoom> {
        let lane = match lane {
            Lane::Known if self.known_of.contains(&source) => {
                self.forget_gone(&gone);
                if self.known_of.contains(&source) { Lane::Rest } else { Lane::Known }
            }
            other => other,
        };
        if lane == Lane::Rest && !self.rest_has_room(source) {
            self.forget_gone(&gone);
            if !self.rest_has_room(source) {
                return Err(NoRoom);
            }
        }
        match lane {
            Lane::Known => self.known_of.insert(source),
            Lane::Rest => self.rest_of.insert(source),
            Lane::Clean => true,
        };
        let standing = Standing { item, source, lane, joined_at };
        match lane {
            Lane::Known => self.known.push_back(standing),
            Lane::Clean => self.clean.push_back(standing),
            Lane::Rest => self.rest.push_back(standing),
        }
        Ok(lane)
    }

    fn rest_has_room(&self, source: IpAddr) -> bool {
        self.rest.len() < self.rest_cap && !self.rest_of.contains(&source)
    }

    /// The next waiter: the known lane's first, else the clean lane's, else the rest's.
    pub fn next(&mut self) -> Option<Standing<T>> {
        let next = self.known.pop_front().or_else(|| self.clean.pop_front()).or_else(|| self.rest.pop_front())?;
        self.left(next.lane, next.source);
        Some(next)
    }

    fn left(&mut self, lane: Lane, source: IpAddr) {
        match lane {
            Lane::Known => self.known_of.remove(&source),
            Lane::Rest => self.rest_of.remove(&source),
            Lane::Clean => true,
        };
    }

    /// Waiters whose request is gone leave the known and rest lanes (and their addresses'
    /// places with them); the clean lane's are skipped as they come up.
    fn forget_gone(&mut self, gone: &impl Fn(&T) -> bool) {
        let mut left = Vec::new();
        for line in [&mut self.known, &mut self.rest] {
            line.retain(|w| {
                let is_gone = gone(&w.item);
                if is_gone {
                    left.push((w.lane, w.source));
                }
                !is_gone
            });
        }
        for (lane, source) in left {
            self.left(lane, source);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn ip(a: u8, b: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(127, 0, a, b))
    }

    fn never_gone(_: &&str) -> bool {
        false
    }

    fn order(lines: &mut Lines<&'static str>) -> Vec<&'static str> {
        std::iter::from_fn(|| lines.next().map(|w| w.item)).collect()
    }

    #[test]
    fn the_known_lane_goes_before_the_clean_and_the_clean_before_the_rest() {
        let mut l = Lines::new(8);
        l.join(Lane::Rest, ip(1, 1), "rest a", 0, never_gone).unwrap();
        l.join(Lane::Clean, ip(1, 2), "clean a", 0, never_gone).unwrap();
        l.join(Lane::Known, ip(0, 1), "known a", 0, never_gone).unwrap();
        l.join(Lane::Rest, ip(1, 3), "rest b", 0, never_gone).unwrap();
        l.join(Lane::Clean, ip(1, 4), "clean b", 0, never_gone).unwrap();
        l.join(Lane::Known, ip(0, 2), "known b", 0, never_gone).unwrap();
        assert_eq!(l.waiting(), Waiting { known: 2, clean: 2, rest: 2 });
        assert_eq!(order(&mut l), ["known a", "known b", "clean a", "clean b", "rest a", "rest b"]);
        assert!(l.is_empty());
    }

    #[test]
    fn a_second_known_login_of_an_address_waits_in_the_rest_lane() {
        let mut l = Lines::new(1);
        assert_eq!(l.join(Lane::Known, ip(0, 1), "ann", 0, never_gone), Ok(Lane::Known));
        assert_eq!(l.join(Lane::Known, ip(0, 1), "bob", 0, never_gone), Ok(Lane::Rest));
        // The rest lane is full now: a third from that address has no room anywhere.
        assert_eq!(l.join(Lane::Known, ip(0, 1), "cy", 0, never_gone), Err(NoRoom));
        assert_eq!(l.join(Lane::Known, ip(0, 2), "dan", 0, never_gone), Ok(Lane::Known));
        assert_eq!(order(&mut l), ["ann", "dan", "bob"]);
        // Served: the address has its known place again.
        assert_eq!(l.join(Lane::Known, ip(0, 1), "ann", 0, never_gone), Ok(Lane::Known));
    }

    #[test]
    fn the_rest_lane_holds_one_waiter_an_address_and_its_cap_in_all() {
        let mut l = Lines::new(2);
        assert_eq!(l.join(Lane::Rest, ip(1, 1), "a", 0, never_gone), Ok(Lane::Rest));
        assert_eq!(l.join(Lane::Rest, ip(1, 1), "a again", 0, never_gone), Err(NoRoom));
        assert_eq!(l.join(Lane::Rest, ip(1, 2), "b", 0, never_gone), Ok(Lane::Rest));
        assert_eq!(l.join(Lane::Rest, ip(1, 3), "c", 0, never_gone), Err(NoRoom), "the lane holds two");
        // The other lanes are not bounded by the rest's cap.
        assert_eq!(l.join(Lane::Clean, ip(1, 3), "c clean", 0, never_gone), Ok(Lane::Clean));
        assert_eq!(l.join(Lane::Known, ip(1, 4), "d known", 0, never_gone), Ok(Lane::Known));
        // A waiter that went away makes room.
        assert_eq!(l.join(Lane::Rest, ip(1, 3), "c", 0, |w: &&str| *w == "a"), Ok(Lane::Rest));
        assert_eq!(order(&mut l), ["d known", "c clean", "b", "c"]);
    }

    /// The flood of tools/flood-bench at its start, in the record's lanes: 200 addresses with
    /// random names, two tries each at once (the first clean, the second in doubt), then the
    /// owner of an account logging in from home, where it logged in before. The owner is next;
    /// before the known lane it stood behind all 200 first tries.
    #[test]
    fn the_owner_from_home_goes_before_a_flood_that_starts_with_clean_records() {
        use super::super::LoginRecord;
        let record = LoginRecord::default();
        record.succeeded(ip(0, 1), "owner", 0);
        let mut l = Lines::new(64);
        let mut refused = 0;
        for i in 0..200u8 {
            for t in 0..2 {
                let name = format!("random{i}x{t}");
                let lane = record.lane(ip(1, i), &name, 10);
                assert_eq!(lane, if t == 0 { Lane::Clean } else { Lane::Rest });
                if l.join(lane, ip(1, i), "flood", 0, never_gone).is_err() {
                    refused += 1;
                }
            }
        }
        assert_eq!(l.waiting(), Waiting { known: 0, clean: 200, rest: 64 });
        assert_eq!(refused, 200 - 64, "the rest lane's cap refused the others as busy");
        let lane = record.lane(ip(0, 1), "owner", 11);
        assert_eq!(lane, Lane::Known);
        l.join(lane, ip(0, 1), "owner", 0, never_gone).unwrap();
        assert_eq!(l.next().map(|w| w.item), Some("owner"));
        // A new player on a clean address waits behind the flood's first tries only.
        let lane = record.lane(ip(0, 2), "newcomer", 12);
        l.join(lane, ip(0, 2), "newcomer", 0, never_gone).unwrap();
        let ahead = order(&mut l).iter().position(|&w| w == "newcomer");
        assert_eq!(ahead, Some(200));
    }
}

//! `UnseenCards`: the card counter (记牌器) of the table's player, fed the events in the order
//! the table shows them (`guandan_core::counter::SeenCards`), so it is right at every shown
//! event — the last play of a deal and the deal's end included, when the engine is already in the
//! next deal (issue 53). A restored position (Continue, a reconnect) is taken whole from the
//! engine's view at the moment it is announced.

use godot::prelude::*;
use guandan_core::card::Rank;
use guandan_core::counter::SeenCards;
use guandan_core::seat::Seat;

use crate::args;
use crate::engine::GuandanEngine;
use crate::values::CardCounter;

/// The counts of the cards the three other players still hold, kept from shown events.
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct UnseenCards {
    seen: Option<SeenCards>,
}

#[godot_api]
impl UnseenCards {
    /// Starts counting for `seat` (0..3) with nothing seen; another seat is refused (warning,
    /// unchanged).
    #[func]
    pub fn start(&mut self, seat: i64) {
        match Seat::try_from(seat).ok() {
            Some(s) => self.seen = Some(SeenCards::new(s)),
            None => godot_warn!("UnseenCards.start: seat {seat} is not 0..3"),
        }
    }

    /// Takes the position `engine` announces now, whole, as its player sees it (a restored deal).
    /// Nothing changes without a match or a player.
    #[func]
    pub fn take_position(&mut self, engine: Option<Gd<GuandanEngine>>) {
        let Some(engine) = engine else { return };
        let engine = engine.bind();
        if let Some(seen) = engine.v().as_ref().and_then(SeenCards::of_view) {
            self.seen = Some(seen);
        }
    }

    /// A deal begins at `level` (2..14).
    #[func]
    pub fn deal_started(&mut self, level: i64) {
        let Some(level) = u8::try_from(level).ok().filter(|l| (2..=14).contains(l)) else {
            godot_warn!("UnseenCards.deal_started: level {level} is not 2..14");
            return;
        };
        if let Some(s) = &mut self.seen {
            s.deal_started(Rank(level));
        }
    }

    /// The player's whole hand now (card ids 0..107, distinct).
    #[func]
    pub fn hand_changed(&mut self, hand: PackedInt32Array) {
        match args::card_set(hand.as_slice()) {
            Ok(set) => {
                if let Some(s) = &mut self.seen {
                    s.hand_changed(set);
                }
            }
            Err(e) => godot_warn!("UnseenCards.hand_changed: {e}"),
        }
    }

    /// Cards played by anyone.
    #[func]
    pub fn cards_played(&mut self, cards: PackedInt32Array) {
        match args::card_set(cards.as_slice()) {
            Ok(set) => {
                if let Some(s) = &mut self.seen {
                    s.cards_played(set);
                }
            }
            Err(e) => godot_warn!("UnseenCards.cards_played: {e}"),
        }
    }

    /// The counts kept, as the card counter shows them; null before `start`.
    #[func]
    pub fn counts(&self) -> Option<Gd<CardCounter>> {
        self.seen.map(|s| CardCounter::make(&s.counter()))
    }

    /// 15 counts: ranks 2–14 (A), the small joker, the big joker; empty before `start`.
    #[func]
    pub fn ranks(&self) -> PackedInt32Array {
        self.seen.map(|s| s.counter().by_rank.iter().map(|&n| i32::from(n)).collect()).unwrap_or_default()
    }

    /// How many of the counted cards are wilds.
    #[func]
    pub fn wilds(&self) -> i64 {
        self.seen.map_or(0, |s| i64::from(s.counter().wilds))
    }

    /// How many cards the others hold in all.
    #[func]
    pub fn total(&self) -> i64 {
        self.seen.map_or(0, |s| i64::from(s.counter().total()))
    }
}

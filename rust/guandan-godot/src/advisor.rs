//! `MoveAdvisor`: training help for the local player — hints with reason keys, the readings of
//! a selection, legal plays for a selection, wild-snap suggestions, heat-map weights — and the
//! AI trace for the debug overlay. Everything comes from `guandan_ai::advisor` applied to the
//! local player's view of an attached `GuandanEngine`; nothing of other hands leaks.

use godot::prelude::*;
use guandan_ai::AiProfile;
use guandan_ai::advisor::{self, SelectionInfo};
use guandan_core::CardSet;
use guandan_core::combo::{Play, beats, choose_reading, classify};
use guandan_core::seat::Seat;
use guandan_core::view::PlayerView;

use crate::args;
use crate::convert;
use crate::engine::GuandanEngine;
use crate::resources::AiProfileRes;
use crate::values::{AiTrace, CardCounter, CardHeat, Hint, Play as PlayObj, Reading, Selection, WildSnap};

/// Move help for the local player of a `GuandanEngine`.
///
/// `attach(engine)` once; then every query reads the engine's current state from the local
/// player's view. Queries return empty results (and warn) when no engine is attached, the
/// engine was freed, or it has no match with a human seat. Card ids are validated like
/// `GuandanEngine.play` does; bad ids give an empty result and a warning.
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct MoveAdvisor {
    engine: Option<InstanceId>,
    profile: AiProfile,
    #[init(val = true)]
    hints_enabled: bool,
}

#[godot_api]
impl MoveAdvisor {
    /// Reads from this `GuandanEngine` from now on (its local or online match alike); null
    /// detaches.
    #[func]
    pub fn attach(&mut self, engine: Option<Gd<Node>>) {
        self.engine = engine.map(|e| e.instance_id());
    }

    /// The weights of this profile rank the hints; its `hint_enabled` switches hints on or off
    /// (null = default weights, hints on).
    #[func]
    pub fn set_profile(&mut self, profile: Option<Gd<AiProfileRes>>) {
        let Some(profile) = profile else {
            self.profile = AiProfile::default();
            self.hints_enabled = true;
            return;
        };
        let p = profile.bind();
        match p.profile() {
            Ok(ai) => {
                self.profile = ai;
                self.hints_enabled = p.hint_enabled();
            }
            Err(f) => godot_warn!("MoveAdvisor.set_profile: {} (profile unchanged)", f.message),
        }
    }

    /// Whether hints are on (the profile's `hint_enabled`).
    #[func]
    pub fn hints_enabled(&self) -> bool {
        self.hints_enabled
    }

    /// The recommended move for the local player now; null when it is not the local player's
    /// turn to play or hints are off.
    #[func]
    pub fn hint(&self) -> Option<Gd<Hint>> {
        self.hints(1).iter_shared().next()
    }

    /// The recommended move and its alternatives, best first (at most `limit`).
    #[func]
    pub fn hints(&self, #[opt(default = 5)] limit: i64) -> Array<Gd<Hint>> {
        if !self.hints_enabled {
            return Array::new();
        }
        let Some(view) = self.view("hints") else { return Array::new() };
        let limit = limit.clamp(0, 64) as usize;
        advisor::advise(&view, &self.profile, limit).hints.iter().map(Hint::make).collect()
    }

    /// Every reading of exactly these cards (`index` is what `GuandanEngine.play(card_ids,
    /// index)` takes).
    #[func]
    pub fn readings(&self, card_ids: PackedInt32Array) -> Array<Gd<Reading>> {
        let Some(view) = self.view("readings") else { return Array::new() };
        self.readings_of("readings", &view, &card_ids).unwrap_or_default()
    }

    /// What a selection of the local hand is and can become: its readings (as `readings()`),
    /// the playable ones, the legal plays containing it and the wilds that make it playable;
    /// null without a match, a human seat or valid card ids.
    #[func]
    pub fn selection(&self, card_ids: PackedInt32Array) -> Option<Gd<Selection>> {
        let view = self.view("selection")?;
        let readings = self.readings_of("selection", &view, &card_ids)?;
        let info = self.selection_info("selection", &card_ids)?;
        Some(Selection::make(readings, &info))
    }

    /// Legal plays for a selection: with an empty selection, every play the local player may make now
    /// (leads, or the plays that beat the table); otherwise the playable readings of exactly the
    /// selection followed by the legal plays that contain it.
    #[func]
    pub fn legal_plays(&self, card_ids: PackedInt32Array) -> Array<Gd<PlayObj>> {
        let Some(view) = self.view("legal_plays") else { return Array::new() };
        if card_ids.is_empty() {
            if !is_to_play(&view) {
                return Array::new();
            }
            let plays: Vec<Play> = guandan_ai::agent::legal_plays(&view).to_vec();
            return convert::plays_array(&plays);
        }
        let Some(info) = self.selection_info("legal_plays", &card_ids) else { return Array::new() };
        if !is_to_play(&view) {
            return Array::new();
        }
        let mut plays = info.playable.clone();
        plays.extend(info.completions.iter().map(|c| c.play));
        convert::plays_array(&plays)
    }

    /// Wilds of the local hand that turn the selection into a playable combination (pairs and
    /// up), with the play each makes and what it stands for.
    #[func]
    pub fn wild_snaps(&self, card_ids: PackedInt32Array) -> Array<Gd<WildSnap>> {
        self.selection_info("wild_snaps", &card_ids)
            .map_or_else(Array::new, |info| info.wild_snaps.iter().map(WildSnap::make).collect())
    }

    /// Training heat map of the local hand: what each card is good for.
    #[func]
    pub fn heat_map(&self) -> Array<Gd<CardHeat>> {
        let Some(view) = self.view("heat_map") else { return Array::new() };
        advisor::heat_map(&view).iter().map(CardHeat::make).collect()
    }

    /// The last decision of an AI seat whose profile has `debug` on, for the debug overlay;
    /// null if there is none.
    #[func]
    pub fn ai_trace(&self, seat: i64) -> Option<Gd<AiTrace>> {
        let engine = self.engine_gd("ai_trace")?;
        let Some(seat) = Seat::try_from(seat).ok() else {
            godot_warn!("MoveAdvisor.ai_trace: seat {seat} is not 0..3");
            return None;
        };
        engine.bind().trace(seat).map(AiTrace::make)
    }

    /// The card counter (记牌器) of the local player: how many cards the three other players
    /// still hold. Computed from the local player's own view (two decks minus the hand minus the
    /// cards played in this deal), never from hidden hands. Null without a match or a human seat.
    #[func]
    pub fn card_counter(&self) -> Option<Gd<CardCounter>> {
        let view = self.view("card_counter")?;
        Some(CardCounter::make(&guandan_core::counter::Counter::of_view(&view)))
    }

    /// Competition notation of one card id (`S2`, `HT`, `SB` small joker, `HR` big joker).
    /// An id outside 0-107 gives `""` and a warning.
    #[func]
    pub fn card_notation(&self, id: i64) -> GString {
        match args::card_notation(id) {
            Ok(text) => GString::from(text.as_str()),
            Err(e) => {
                godot_warn!("MoveAdvisor.card_notation: {e}");
                GString::new()
            }
        }
    }

    /// Space-separated notation of a set of cards, sorted by rank then suit (jokers last). Ids
    /// must be distinct and in 0..107; otherwise `""` and a warning.
    #[func]
    pub fn hand_notation(&self, ids: PackedInt32Array) -> GString {
        match args::card_set(ids.as_slice()) {
            Ok(set) => GString::from(set.notation().as_str()),
            Err(e) => {
                godot_warn!("MoveAdvisor.hand_notation: {e}");
                GString::new()
            }
        }
    }
}

fn is_to_play(view: &PlayerView) -> bool {
    view.phase == guandan_core::game::Phase::Play && view.seat == Some(view.turn)
}

impl MoveAdvisor {
    fn engine_gd(&self, what: &str) -> Option<Gd<GuandanEngine>> {
        let Some(id) = self.engine else {
            godot_warn!("MoveAdvisor.{what}: no engine attached (call attach(engine))");
            return None;
        };
        match Gd::<GuandanEngine>::try_from_instance_id(id) {
            Ok(e) => Some(e),
            Err(_) => {
                godot_warn!("MoveAdvisor.{what}: the attached engine was freed");
                None
            }
        }
    }

    /// The local player's view, or `None` (with a warning) when there is none.
    fn view(&self, what: &str) -> Option<PlayerView> {
        let engine = self.engine_gd(what)?;
        let Some(view) = engine.bind().v() else {
            godot_warn!("MoveAdvisor.{what}: the engine has no match");
            return None;
        };
        if view.seat.is_none() {
            godot_warn!("MoveAdvisor.{what}: the match has no human seat");
            return None;
        }
        Some(view)
    }

    fn selection_set(&self, what: &str, card_ids: &PackedInt32Array) -> Option<CardSet> {
        match args::card_set(card_ids.as_slice()) {
            Ok(set) => Some(set),
            Err(e) => {
                godot_warn!("MoveAdvisor.{what}: {e}");
                None
            }
        }
    }

    /// The readings of exactly `card_ids` in `view`: which may be played now, and which
    /// `GuandanEngine.play(card_ids)` would pick.
    fn readings_of(&self, what: &str, view: &PlayerView, card_ids: &PackedInt32Array) -> Option<Array<Gd<Reading>>> {
        let set = self.selection_set(what, card_ids)?;
        let readings = classify(set, view.level, &view.rules);
        let table = view.table.as_ref().map(|t| &t.1);
        let default = choose_reading(&readings, table, view.level, &view.rules);
        let playable = |p: &Play| table.is_none_or(|t| beats(p, t, view.level, &view.rules));
        let is_default = |p: &Play| default.is_some_and(|d| d.pattern == p.pattern);
        Some(readings.iter().enumerate().map(|(i, p)| Reading::make(i, p, playable(p), is_default(p))).collect())
    }

    fn selection_info(&self, what: &str, card_ids: &PackedInt32Array) -> Option<SelectionInfo> {
        let view = self.view(what)?;
        let set = self.selection_set(what, card_ids)?;
        Some(advisor::selection(&view, set))
    }
}

//! The match source: what `GuandanEngine` reads and acts on, whichever side holds the match —
//! a local [`Runtime`](guandan_runtime::Runtime) with AI seats on this machine
//! ([`crate::engine::local::LocalMatch`]), or the copy of a match a `guandan-server` holds
//! ([`crate::client::remote::RemoteMatch`], fed by a `GuandanClient`). The node declares its
//! signals, getters, play check and advice once over this trait, so the table, `MoveAdvisor` and
//! the replay never know which source they have.
//!
//! Everything a getter shows comes from the viewer's [`PlayerView`] (plus the hands the viewer
//! may see and the outcome), so a getter cannot show online what a player may not see.

use guandan_ai::AiProfile;
use guandan_core::card::CardSet;
use guandan_core::combo::{beats, choose_reading, classify, wild_set};
use guandan_core::error::ErrorCode;
use guandan_core::event::Outcome;
use guandan_core::game::{ActionKind, Phase, Seat};
use guandan_core::view::PlayerView;

use crate::args;
use crate::codes::Fail;
use crate::forward::Emit;

/// One match as its viewer sees it, and the viewer's actions on it. Actions return the
/// signals they cause at once (a remote source's answer comes later, through [`MatchSource::take_emits`]).
pub(crate) trait MatchSource {
    /// The viewer's view of the latest state (a spectator's view when the viewer has no seat);
    /// `None` before the first state of a remote match.
    fn view(&self) -> Option<PlayerView>;
    /// The seat the viewer acts for; `None` for a spectator or an AI-only table.
    fn local(&self) -> Option<Seat>;
    /// `seat`'s hand when the viewer may see it (their own; every hand on a local AI-only table
    /// or once a local match is over).
    fn seen_hand(&self, seat: Seat) -> Option<CardSet>;
    fn outcome(&self) -> Option<Outcome>;
    /// The match seed (0 when the source was not told it).
    fn seed(&self) -> u64;
    /// SHA-256 hex of the whole match after the last action the source knows.
    fn state_hash(&self) -> String;
    fn action_count(&self) -> u64;
    /// Seconds left on the viewer's current duty; `None` when no clock runs for it.
    fn time_left(&self) -> Option<f64>;
    /// Whether a person (not an AI seat) plays `seat`.
    fn is_human(&self, seat: Seat) -> bool;
    /// Whether the AI plays the viewer's seat now (auto-play, or online: hosted while away).
    fn is_auto_play(&self) -> bool;
    /// Applies (local) or sends (remote) the viewer's action.
    fn act(&mut self, kind: ActionKind) -> Result<Vec<Emit>, Fail>;
    /// Hands the viewer's seat to the AI (`profile`) or takes it back.
    fn set_auto_play(&mut self, on: bool, profile: AiProfile) -> Result<Vec<Emit>, Fail>;
    /// The table has drawn the viewer's prompt (the server starts its clock then); false when
    /// there was nothing to tell.
    fn prompt_seen(&mut self) -> bool {
        false
    }
    /// Signals that arrived since the last call (a remote source's server messages).
    fn take_emits(&mut self) -> Vec<Emit> {
        Vec::new()
    }
}

/// The action a selection of the viewer's hand makes, checked against the view, the same way for
/// both sources (a remote play that would be refused is never sent). `reading` indexes
/// `classify`'s readings (-1 = the strongest that beats the table).
pub(crate) fn play_kind(view: &PlayerView, card_ids: &[i32], reading: i64) -> Result<ActionKind, Fail> {
    let set = args::card_set(card_ids).map_err(|e| Fail::new(ErrorCode::InvalidCards, e.to_string()))?;
    if set.is_empty() {
        return Err(Fail::new(ErrorCode::InvalidCards, "no cards selected"));
    }
    let v = to_play(view)?;
    if !set.is_subset(v.hand) {
        return Err(Fail::new(ErrorCode::CardNotFound, "a card is not in the hand"));
    }
    let readings = classify(set, v.level, &v.rules);
    if readings.is_empty() {
        return Err(Fail::new(ErrorCode::InvalidCards, "these cards make no combination"));
    }
    let table = v.table.as_ref().map(|t| &t.1);
    let chosen = match reading {
        -1 => choose_reading(&readings, table, v.level, &v.rules)
            .ok_or_else(|| Fail::new(ErrorCode::CannotBeat, "the play does not beat the table"))?,
        r => *usize::try_from(r).ok().and_then(|i| readings.get(i)).ok_or_else(|| {
            Fail::bad_argument(format!(
                "reading {r} is out of range: the selection has {} reading(s) (-1 = default)",
                readings.len()
            ))
        })?,
    };
    if let Some(t) = table
        && !beats(&chosen, t, v.level, &v.rules)
    {
        return Err(Fail::new(ErrorCode::CannotBeat, "the play does not beat the table"));
    }
    Ok(ActionKind::Play { cards: set.ids(), reading: Some(chosen.pattern) })
}

/// The view, when its seat is the one to play now.
fn to_play(v: &PlayerView) -> Result<&PlayerView, Fail> {
    let seat = v.seat.ok_or_else(|| Fail::new(ErrorCode::NotHuman, "no seat of a person to act for"))?;
    match v.phase {
        Phase::MatchOver => Err(Fail::new(ErrorCode::GameOver, "the match is over")),
        Phase::Play if v.turn == seat => Ok(v),
        Phase::Play => Err(Fail::new(ErrorCode::NotYourTurn, "another seat is to play")),
        Phase::Tribute | Phase::Return => Err(Fail::new(ErrorCode::StateConflict, "cards are not being played now")),
    }
}

/// The wild cards of the view's deal.
pub(crate) fn wilds(v: &PlayerView) -> CardSet {
    wild_set(v.level, &v.rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_core::event::Action;
    use guandan_core::game::Match;
    use guandan_core::rules::RuleConfig;

    fn first_turn() -> (Match, PlayerView) {
        let (m, _) = Match::new(7, RuleConfig::competition()).expect("a match");
        let v = m.view(Some(m.turn()));
        (m, v)
    }

    #[test]
    fn a_default_reading_is_the_one_the_rules_apply() {
        let (m, v) = first_turn();
        let card = v.hand.iter().next().expect("a card");
        let kind = play_kind(&v, &[i32::from(card)], -1).expect("a single leads");
        let act = |kind| Action { seq: m.seq(), seat: m.turn(), kind };
        let after = m.play(&act(kind)).expect("legal");
        let plain = m.play(&act(ActionKind::Play { cards: vec![card], reading: None })).expect("legal");
        assert_eq!(after.state_hash(), plain.state_hash());
    }

    #[test]
    fn selections_the_rules_refuse_are_refused_with_their_code() {
        let (m, v) = first_turn();
        let mine: Vec<i32> = v.hand.iter().map(i32::from).collect();
        let other = (0..108).find(|c| !v.hand.contains(*c as u8)).expect("a card elsewhere");
        let code = |ids: &[i32], r: i64| play_kind(&v, ids, r).map(|_| ()).map_err(|f| f.code);
        assert_eq!(code(&[], -1), Err(ErrorCode::InvalidCards));
        assert_eq!(code(&[mine[0], mine[0]], -1), Err(ErrorCode::InvalidCards));
        assert_eq!(code(&[200], -1), Err(ErrorCode::InvalidCards));
        assert_eq!(code(&[other], -1), Err(ErrorCode::CardNotFound));
        assert_eq!(code(&[mine[0]], 5), Err(ErrorCode::BadArgument));
        let next = m.view(Some((m.turn() + 1) % 4));
        let theirs: Vec<i32> = next.hand.iter().take(1).map(i32::from).collect();
        assert_eq!(play_kind(&next, &theirs, -1).map(|_| ()).map_err(|f| f.code), Err(ErrorCode::NotYourTurn));
        let spectator = m.view(None);
        assert_eq!(play_kind(&spectator, &[mine[0]], -1).map(|_| ()).map_err(|f| f.code), Err(ErrorCode::NotHuman));
    }
}

//! Labels from L3's search (expert iteration): L3 plays arena deals at all four seats, and every
//! decision it searched becomes one record of its candidates' features, L2 scores, search means
//! and worlds.
//!
//! The file is JSON lines: a header (`"kind":"header"`), then per deal, in deal order, its
//! decisions (`"kind":"decision"`) followed by a deal line (`"kind":"deal"`) that closes it. A
//! deal without its closing line was cut off and is played again on resume.

use super::features::{self, Features};
use crate::AiProfile;
use crate::agent::{Budget, SearchConfig};
use crate::arena::deal_setup;
use crate::l3::L3;
use guandan_core::game::{Event, Match, Seat};
use guandan_core::rules::RuleConfig;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};

/// The label file's format version.
pub const FORMAT: u32 = 1;

/// One candidate of a searched decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidateLabel {
    /// Features, Q8 (`features::SHIFT`).
    pub f: Vec<i16>,
    /// L2's score.
    pub l2: f32,
    /// Mean playout outcome (levels, the decider's team).
    pub mean: f32,
    /// Worlds it was played out in.
    pub worlds: u32,
    /// Whether L3 played it.
    pub chosen: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecisionLabel {
    pub deal: u32,
    pub seat: Seat,
    /// The match's action count at the decision.
    pub seq: u64,
    pub candidates: Vec<CandidateLabel>,
}

/// What the labels were made with; a resumed file must match it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: u32,
    pub feature_version: u16,
    pub features: usize,
    pub seed: u64,
    pub rules: String,
    pub iterations: u32,
    /// The labelling L3's search switches (a later generation's L3 may use the ranker); absent
    /// in the file when they are the first generation's teacher's (`SearchConfig::V2`), so those
    /// files read back the same whatever today's default search is.
    #[serde(default = "first_teacher", skip_serializing_if = "is_first_teacher")]
    pub search: SearchConfig,
    /// The committed ranker generation the labelling search used (`search.prior_ranker` or
    /// `rollout_ranker`); absent when it is 1 (or no ranker is used), so the first two
    /// generations' files, written before the field, read back byte for byte.
    #[serde(default = "first_generation", skip_serializing_if = "is_first_generation")]
    pub ranker_generation: u8,
}

fn first_generation() -> u8 {
    1
}

fn is_first_generation(g: &u8) -> bool {
    *g == 1
}

fn first_teacher() -> SearchConfig {
    SearchConfig::V2
}

fn is_first_teacher(s: &SearchConfig) -> bool {
    *s == SearchConfig::V2
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Line {
    Header(Header),
    Decision(DecisionLabel),
    Deal { deal: u32, decisions: u32 },
}

/// A label file read back: its header, the decisions of its complete deals, how many deals
/// that is, and the byte length up to the last complete deal (what a resume keeps).
#[derive(Clone, Debug, Default)]
pub struct LabelFile {
    pub header: Option<Header>,
    pub decisions: Vec<DecisionLabel>,
    pub deals: u32,
    pub complete_len: usize,
}

/// Reads a label file. A deal cut off at the end (no closing line, or a torn last line) is
/// dropped; anything else out of place is an error naming the line.
pub fn read(text: &str) -> Result<LabelFile, String> {
    let mut out = LabelFile::default();
    let mut pending: Vec<DecisionLabel> = Vec::new();
    let mut at = 0usize;
    let mut lines = text.split_inclusive('\n').enumerate().peekable();
    while let Some((n, raw)) = lines.next() {
        at += raw.len();
        let last = lines.peek().is_none();
        let line: Line = match serde_json::from_str(raw.trim_end()) {
            Ok(l) => l,
            // A torn last line is an interrupted write, not damage.
            Err(_) if last && !raw.ends_with('\n') => break,
            Err(e) => return Err(format!("line {}: {e}", n + 1)),
        };
        match line {
            Line::Header(h) if n == 0 => {
                if h.format != FORMAT || h.feature_version != features::VERSION || h.features != features::COUNT {
                    return Err(format!(
                        "labels of format {} with {} features of version {}; this build reads format {FORMAT} with {} of version {}",
                        h.format,
                        h.features,
                        h.feature_version,
                        features::COUNT,
                        features::VERSION
                    ));
                }
                out.header = Some(h);
            }
            Line::Header(_) => return Err(format!("line {}: a second header", n + 1)),
            _ if out.header.is_none() => return Err("the first line is not a header".into()),
            Line::Decision(d) => {
                if d.deal != out.deals {
                    return Err(format!("line {}: deal {} where deal {} was expected", n + 1, d.deal, out.deals));
                }
                if let Some(c) = d.candidates.iter().find(|c| c.f.len() != features::COUNT) {
                    return Err(format!("line {}: {} features, expected {}", n + 1, c.f.len(), features::COUNT));
                }
                pending.push(d);
            }
            Line::Deal { deal, decisions } => {
                if deal != out.deals || decisions as usize != pending.len() {
                    return Err(format!(
                        "line {}: deal {deal} closes with {decisions} decisions, read {}",
                        n + 1,
                        pending.len()
                    ));
                }
                out.decisions.append(&mut pending);
                out.deals += 1;
                out.complete_len = at;
            }
        }
    }
    if out.header.is_some() && out.complete_len == 0 {
        out.complete_len = text.split_inclusive('\n').next().map_or(0, str::len);
    }
    Ok(out)
}

/// Plays arena deal `deal` (of `seed`) with L3 (`profile`, one thread) at all four seats and
/// labels every decision it searched. Deterministic: each decision's generator is seeded by the
/// deal and the action count, as the arena does.
pub fn label_deal(seed: u64, deal: u32, rules: &RuleConfig, profile: &AiProfile) -> Vec<DecisionLabel> {
    let setup = deal_setup(seed, deal, rules);
    let (mut m, _) = Match::from_deal(&setup).expect("arena setups are valid");
    let profile = AiProfile { threads: 1, trace: false, budget_ms: 0, ..profile.clone() };
    let mut l3 = L3::new(&profile);
    let mut out = Vec::new();
    let mut events = Vec::new();
    while let Some(&seat) = m.to_act().first() {
        let view = m.view(Some(seat));
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed ^ m.seq().wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let report = l3.decide_with_report(&view, &mut rng, &Budget::untimed());
        if !report.searched.is_empty() {
            let ranked = crate::l2::ranked_candidates(&view, &profile.weights);
            let feats: Vec<Features> = features::for_candidates(&view, &profile.weights, &ranked);
            let chosen = &report.decision.action;
            let candidates = report
                .searched
                .iter()
                .filter_map(|s| {
                    let i = ranked.iter().position(|c| c.play == s.candidate.play)?;
                    let kind = s.candidate.play.map_or(guandan_core::game::ActionKind::Pass, |p| Match::play_kind(&p));
                    Some(CandidateLabel {
                        f: feats[i].to_vec(),
                        // L2's own score, whatever the search's prior was.
                        l2: ranked[i].score,
                        mean: s.mean,
                        worlds: s.worlds,
                        chosen: &kind == chosen,
                    })
                })
                .collect();
            out.push(DecisionLabel { deal, seat, seq: m.seq(), candidates });
        }
        let action = m.action(seat, report.decision.action);
        events.clear();
        m.apply_into(&action, &mut events).expect("L3 plays legal moves");
        if events.iter().any(|e| matches!(e, Event::DealEnded { .. })) {
            break;
        }
    }
    out
}

/// The lines of one labelled deal, its closing line last.
pub fn deal_lines(deal: u32, decisions: &[DecisionLabel]) -> String {
    let mut s = String::new();
    for d in decisions {
        s.push_str(&serde_json::to_string(&Line::Decision(d.clone())).expect("labels serialize"));
        s.push('\n');
    }
    let close = Line::Deal { deal, decisions: decisions.len() as u32 };
    s.push_str(&serde_json::to_string(&close).expect("labels serialize"));
    s.push('\n');
    s
}

pub fn header_line(h: &Header) -> String {
    serde_json::to_string(&Line::Header(h.clone())).expect("labels serialize") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            format: FORMAT,
            feature_version: features::VERSION,
            features: features::COUNT,
            seed: 3,
            rules: "competition".into(),
            iterations: 24,
            search: SearchConfig::V2,
            ranker_generation: 1,
        }
    }

    /// The first generation's teacher (L3v3) leaves the header as it was written then; another search is
    /// written and read back, so a resume cannot mix two labellers.
    #[test]
    fn the_labellers_search_is_in_the_header_when_not_the_default() {
        let plain = header_line(&header());
        assert!(!plain.contains("search"), "{plain}");
        assert_eq!(read(&plain).unwrap().header, Some(header()));
        let ranked = Header { search: SearchConfig { rollout_ranker: true, ..SearchConfig::V2 }, ..header() };
        let line = header_line(&ranked);
        assert!(line.contains("\"rollout_ranker\":true"), "{line}");
        assert!(!line.contains("ranker_generation"), "{line}");
        assert_eq!(read(&line).unwrap().header, Some(ranked.clone()));
        // A later generation's teacher says which ranker it searched with: a resume with another
        // generation is refused by the header comparison.
        let later = Header { ranker_generation: 2, ..ranked };
        let line = header_line(&later);
        assert!(line.contains("\"ranker_generation\":2"), "{line}");
        assert_eq!(read(&line).unwrap().header, Some(later));
    }

    fn decision(deal: u32) -> DecisionLabel {
        let c = CandidateLabel { f: vec![1; features::COUNT], l2: 1.5, mean: -0.25, worlds: 4, chosen: true };
        DecisionLabel { deal, seat: Seat::ONE, seq: 9, candidates: vec![c] }
    }

    #[test]
    fn files_read_back_and_cut_deals_are_dropped() {
        let full =
            header_line(&header()) + &deal_lines(0, &[decision(0), decision(0)]) + &deal_lines(1, &[decision(1)]);
        let f = read(&full).unwrap();
        assert_eq!((f.deals, f.decisions.len(), f.complete_len), (2, 3, full.len()));
        // Cut inside deal 1: deal 0 stays, and a resume keeps exactly its bytes.
        let keep = header_line(&header()) + &deal_lines(0, &[decision(0), decision(0)]);
        for cut in [keep.len() + 5, full.len() - 3] {
            let f = read(&full[..cut]).unwrap();
            assert_eq!((f.deals, f.decisions.len(), f.complete_len), (1, 2, keep.len()));
        }
        let empty = read(&header_line(&header())).unwrap();
        assert_eq!((empty.deals, empty.complete_len), (0, header_line(&header()).len()));
    }

    #[test]
    fn damaged_files_are_errors() {
        let h = header_line(&header());
        assert!(read(&deal_lines(0, &[decision(0)])).unwrap_err().contains("header"));
        assert!(read(&(h.clone() + "{\"kind\":\"nonsense\"}\n" + &deal_lines(0, &[]))).is_err());
        assert!(read(&(h.clone() + &deal_lines(1, &[decision(1)]))).unwrap_err().contains("deal 0 was expected"));
        let mut short = decision(0);
        short.candidates[0].f.pop();
        assert!(read(&(h.clone() + &deal_lines(0, &[short]))).unwrap_err().contains("features"));
        let other = Header { feature_version: features::VERSION + 1, ..header() };
        assert!(read(&header_line(&other)).is_err());
    }

    /// Labelling a deal is deterministic, and every decision's labels are well formed.
    #[test]
    fn a_deal_is_labelled_the_same_twice() {
        let p = AiProfile { iterations: 16, ..AiProfile::level(crate::AiLevel::L3) };
        let rules = RuleConfig::competition();
        let a = label_deal(5, 0, &rules, &p);
        assert_eq!(a, label_deal(5, 0, &rules, &p));
        assert!(a.len() >= 10, "{} searched decisions", a.len());
        for d in &a {
            assert!(d.candidates.len() >= 2);
            assert_eq!(d.candidates.iter().filter(|c| c.chosen).count(), 1, "{d:?}");
            assert!(d.candidates.iter().all(|c| c.worlds >= 1 && c.mean.is_finite()));
        }
    }
}

//! `DealReviewer`: L3's review (复盘, `guandan_ai::review`) of one seat of a record, made on a
//! worker thread. The worker gets plain Rust data (the parsed record, the seat, the budget) and
//! replies over a channel; the node drains it in `process()` and emits typed signals with typed
//! results (`ReviewSummary`, `ReviewedDecision`), never a Dictionary of game data.

use crate::store;
use crate::user_dirs::user_dirs;
use crossbeam_channel::{Receiver, TryRecvError, unbounded};
use godot::prelude::*;
use guandan_ai::review::{
    Mark, Review, ReviewConfig, ReviewError, cache_path, load_cached, parse_record, review_deal_cancellable, reviewer,
    save_cached,
};
use guandan_core::card::CardId;
use guandan_core::log::MatchLog;
use guandan_core::seat::Seat;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What the worker sends back.
enum Reply {
    Progress(usize, usize),
    /// The review and whether it was read from its cache.
    Done(Box<Result<(Review, bool), String>>),
}

/// Reviews a record on a worker thread: `start()`, then `progress` signals and one `finished`
/// (or `failed`, with the message: a damaged or tampered record, a bad seat).
#[derive(GodotClass)]
#[class(init, base = Node)]
pub struct DealReviewer {
    base: Base<Node>,
    job: Option<Receiver<Reply>>,
    /// Set to stop the worker under way: it checks the flag before each decision.
    cancel: Arc<AtomicBool>,
    worker: Option<std::thread::JoinHandle<()>>,
    /// Decisions the last review's worker has valued (read by tests after a cancel).
    valued: Arc<AtomicUsize>,
}

#[godot_api]
impl DealReviewer {
    /// `done` of `total` decisions valued.
    #[signal]
    fn progress(done: i64, total: i64);
    #[signal]
    fn finished(review: Gd<ReviewSummary>);
    #[signal]
    fn failed(message: GString);

    /// Starts reviewing seat `seat` (0..3) of `record` (a record's JSON Lines, or a stored online
    /// match `{meta, log}`) with `worlds` worlds a set (1..4096) and `seed`. False (and `failed`
    /// at the next frame) when the input is refused; a review under way is replaced.
    #[func]
    pub fn start(&mut self, record: GString, seat: i64, worlds: i64, seed: i64) -> bool {
        self.launch(Ok(record.to_string()), seat, -1, worlds, seed, None)
    }

    /// `start` for deal `deal` only (0 = the first): the table's review after a deal. A deal the
    /// record does not hold is refused.
    #[func]
    pub fn start_deal(&mut self, record: GString, seat: i64, deal: i64, worlds: i64, seed: i64) -> bool {
        if deal < 0 {
            return self.launch(Err(format!("deal {deal} is not a deal number")), seat, -1, worlds, seed, None);
        }
        self.launch(Ok(record.to_string()), seat, deal, worlds, seed, None)
    }

    /// `start` of the saved record `name` (`user://records/<name>.jsonl`), kept beside it as
    /// `<name>.jsonl.review.json`: a review made before with the same seat, budget and record is
    /// read back at once (`ReviewSummary.cached`); a cache that cannot be used (damaged, of
    /// another version or record) is reviewed again and replaced.
    #[func]
    pub fn start_saved(&mut self, name: GString, seat: i64, worlds: i64, seed: i64) -> bool {
        let dir = user_dirs().records();
        let name = name.to_string();
        let text = store::read_record(&dir, &name).map_err(|f| f.message);
        let cache = store::check_name(&name).ok().map(|stem| cache_path(&store::record_path(&dir, stem)));
        self.launch(text, seat, -1, worlds, seed, cache)
    }

    /// Whether a review is under way (or its answer not yet emitted).
    #[func]
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// Stops the review under way: its worker ends before its next decision and nothing more
    /// is emitted.
    #[func]
    pub fn cancel(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.job = None;
    }

    /// Whether the last review's worker thread is still working (after `cancel()` it ends
    /// before its next decision).
    #[func]
    pub fn is_worker_alive(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// How many decisions the last review's worker valued (all of them once it finished; after
    /// `cancel()` at most one more than had been reported).
    #[func]
    pub fn decisions_valued(&self) -> i64 {
        self.valued.load(Ordering::Relaxed) as i64
    }
}

impl DealReviewer {
    /// Checks the input and starts the worker (or queues the refusal for the next frame).
    fn launch(
        &mut self,
        record: Result<String, String>,
        seat: i64,
        deal: i64,
        worlds: i64,
        seed: i64,
        cache: Option<PathBuf>,
    ) -> bool {
        self.cancel();
        let (tx, rx) = unbounded();
        self.job = Some(rx);
        let refuse = |message: String| {
            let _ = tx.send(Reply::Done(Box::new(Err(message))));
            false
        };
        let Some(seat) = Seat::try_from(seat).ok() else {
            return refuse(format!("seat {seat} is not 0..3"));
        };
        let Some(worlds) = u32::try_from(worlds).ok().filter(|w| (1..=4096).contains(w)) else {
            return refuse(format!("worlds must be 1..4096, not {worlds}"));
        };
        let log = match record.and_then(|text| parse_record(&text).map_err(|e| e.to_string())) {
            Ok(log) => log,
            Err(message) => return refuse(message),
        };
        let deal = u32::try_from(deal).ok();
        let cfg = ReviewConfig { worlds, seed: seed as u64, ..ReviewConfig::default() };
        let cancel = Arc::new(AtomicBool::new(false));
        self.cancel = cancel.clone();
        let valued = Arc::new(AtomicUsize::new(0));
        self.valued = valued.clone();
        self.worker = Some(std::thread::spawn(move || {
            if let Some(hit) = cache.as_deref().and_then(|path| cached(path, &log, seat, &cfg)) {
                let _ = tx.send(Reply::Done(Box::new(Ok((hit, true)))));
                return;
            }
            let l3 = reviewer(1);
            let result = review_deal_cancellable(&log, seat, deal, &cfg, &l3, &cancel, |done, total| {
                valued.store(done, Ordering::Relaxed);
                let _ = tx.send(Reply::Progress(done, total));
            });
            if let (Ok(review), Some(path)) = (&result, &cache)
                && let Err(e) = save_cached(path, review)
            {
                godot_warn!("DealReviewer: the review is not kept: {e}");
            }
            if !matches!(result, Err(ReviewError::Cancelled)) {
                let _ = tx.send(Reply::Done(Box::new(result.map(|r| (r, false)).map_err(|e| e.to_string()))));
            }
        }));
        true
    }
}

/// The review of `seat` kept at `path` for this record and budget, if there is one that can be
/// used (a damaged or stale cache is only reported: the caller reviews again).
fn cached(path: &Path, log: &MatchLog, seat: Seat, cfg: &ReviewConfig) -> Option<Review> {
    let hash = log.replay().ok()?.state_hash();
    match load_cached(path, &hash, seat, cfg) {
        Ok(hit) => hit,
        Err(e) => {
            godot_warn!("DealReviewer: {e} (reviewing again)");
            None
        }
    }
}

#[godot_api]
impl INode for DealReviewer {
    /// A reviewer that leaves the tree (its panel closed, the screen changed) stops its worker:
    /// nobody is left to read the review.
    fn exit_tree(&mut self) {
        self.cancel();
    }

    fn process(&mut self, _delta: f64) {
        let Some(rx) = &self.job else { return };
        let mut replies = Vec::new();
        loop {
            match rx.try_recv() {
                Ok(r) => replies.push(r),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    replies.push(Reply::Done(Box::new(Err("the review stopped".into()))));
                    break;
                }
            }
        }
        for r in replies {
            match r {
                Reply::Progress(done, total) => self.signals().progress().emit(done as i64, total as i64),
                Reply::Done(result) => {
                    self.job = None;
                    match *result {
                        Ok((review, cached)) => {
                            let summary = ReviewSummary::of(&review, cached);
                            self.signals().finished().emit(&summary);
                        }
                        Err(message) => self.signals().failed().emit(&GString::from(message.as_str())),
                    }
                    return;
                }
            }
        }
    }
}

/// A finished review: the counts per match and per deal, and every decision valued.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct ReviewSummary {
    #[var]
    seat: i64,
    /// Read back from the review kept beside the saved record (not made again).
    #[var]
    cached: bool,
    /// Worlds a set (the budget) and the seed.
    #[var]
    worlds: i64,
    #[var]
    seed: i64,
    #[var]
    inaccuracy: f64,
    #[var]
    mistake: f64,
    #[var]
    inaccuracies: i64,
    #[var]
    mistakes: i64,
    /// Cost of the marked decisions (L3's measure, levels).
    #[var]
    cost: f64,
    /// Index in `decisions` of the costliest marked decision, -1 when none is.
    #[var]
    biggest: i64,
    /// Per deal: deal numbers (0 = first), and each deal's inaccuracies, mistakes and cost.
    #[var]
    deal_numbers: PackedInt32Array,
    #[var]
    deal_inaccuracies: PackedInt32Array,
    #[var]
    deal_mistakes: PackedInt32Array,
    #[var]
    deal_costs: PackedFloat32Array,
    #[var]
    decisions: Array<Gd<ReviewedDecision>>,
}

impl ReviewSummary {
    fn of(r: &Review, cached: bool) -> Gd<ReviewSummary> {
        let mut decisions = Array::new();
        let mut biggest = -1;
        for (di, d) in r.deals.iter().enumerate() {
            for (mi, m) in d.moves.iter().enumerate() {
                if r.biggest == Some((di, mi)) {
                    biggest = decisions.len() as i64;
                }
                let cards = |ids: &[CardId]| ids.iter().map(|&i| i32::from(i)).collect::<PackedInt32Array>();
                let args: PackedStringArray = m.reason_args.iter().map(|a| GString::from(a.as_str())).collect();
                decisions.push(&Gd::from_object(ReviewedDecision {
                    action: m.action as i64,
                    deal_no: i64::from(m.deal_no),
                    played: cards(&m.played.cards),
                    played_kind: m.played.kind.as_str().into(),
                    played_rank: m.played.rank.as_str().into(),
                    best: cards(&m.best.cards),
                    best_kind: m.best.kind.as_str().into(),
                    best_rank: m.best.rank.as_str().into(),
                    value_played: f64::from(m.value_played),
                    value_best: f64::from(m.value_best),
                    cost: f64::from(m.cost),
                    mark: match m.mark {
                        Mark::Good => 0,
                        Mark::Inaccuracy => 1,
                        Mark::Mistake => 2,
                    },
                    reason: m.reason.as_str().into(),
                    reason_args: args,
                }));
            }
        }
        Gd::from_object(ReviewSummary {
            seat: i64::from(r.seat),
            cached,
            worlds: i64::from(r.config.worlds),
            seed: r.config.seed as i64,
            inaccuracy: f64::from(r.config.inaccuracy),
            mistake: f64::from(r.config.mistake),
            inaccuracies: i64::from(r.inaccuracies),
            mistakes: i64::from(r.mistakes),
            cost: f64::from(r.cost),
            biggest,
            deal_numbers: r.deals.iter().map(|d| d.deal_no as i32).collect(),
            deal_inaccuracies: r.deals.iter().map(|d| d.inaccuracies as i32).collect(),
            deal_mistakes: r.deals.iter().map(|d| d.mistakes as i32).collect(),
            deal_costs: r.deals.iter().map(|d| d.cost).collect(),
            decisions,
        })
    }
}

/// One reviewed decision: the play made, L3's best (card ids; empty = pass, `kind` "pass"), the
/// values, the cost and the mark (0 good, 1 inaccuracy, 2 mistake), the best play's reason key.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct ReviewedDecision {
    /// The record's action index (a replay seeks to it to show the position).
    #[var]
    action: i64,
    #[var]
    deal_no: i64,
    #[var]
    played: PackedInt32Array,
    #[var]
    played_kind: GString,
    #[var]
    played_rank: GString,
    #[var]
    best: PackedInt32Array,
    #[var]
    best_kind: GString,
    #[var]
    best_rank: GString,
    /// The team's expected level margin of the deal after the play made / after the best.
    #[var]
    value_played: f64,
    #[var]
    value_best: f64,
    #[var]
    cost: f64,
    #[var]
    mark: i64,
    #[var]
    reason: GString,
    #[var]
    reason_args: PackedStringArray,
}

//! The AI worker service: hosts post a snapshot (a seat's view) and get the decision back on a
//! channel, tagged with the request id. Results of an older generation (the game moved on) are
//! dropped; a request past the hard limit is answered by L1 so a game never stalls.
//!
//! No Godot here: the GDExtension only calls `submit` and drains `poll` from its main thread.

use crate::agent::{Budget, Decision, MAX_AI_DECISION_MS};
use crate::{AiProfile, l1, make_agent};
use crossbeam_channel::{Receiver, Sender, unbounded};
use guandan_core::seat::Seat;
use guandan_core::view::PlayerView;
use parking_lot::Mutex;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A decision to make.
#[derive(Clone, Debug)]
pub struct AiRequest {
    /// The host's game generation: bump it (`set_generation`) when a match restarts.
    pub generation: u64,
    pub view: PlayerView,
    pub profile: AiProfile,
    /// Seed of this decision's random choices (e.g. match seed ^ seq).
    pub seed: u64,
}

/// A finished decision.
#[derive(Clone, Debug)]
pub struct AiResult {
    pub id: u64,
    pub generation: u64,
    pub seat: Seat,
    /// The `seq` of the state the decision was made for.
    pub seq: u64,
    pub decision: Decision,
    pub elapsed: Duration,
    /// Answered by the L1 fallback (hard limit or worker failure).
    pub fell_back: bool,
}

struct Job {
    id: u64,
    req: AiRequest,
    cancel: Arc<AtomicBool>,
    hard: Duration,
}

struct Pending {
    req: AiRequest,
    started: Instant,
    cancel: Arc<AtomicBool>,
}

pub struct AiService {
    jobs: Option<Sender<Job>>,
    results: Receiver<AiResult>,
    workers: Vec<JoinHandle<()>>,
    pending: Mutex<BTreeMap<u64, Pending>>,
    next_id: Mutex<u64>,
    generation: Mutex<u64>,
    hard_limit: Duration,
}

fn run_job(job: &Job) -> AiResult {
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(job.req.seed);
    let budget = Budget {
        start: started,
        soft: (job.req.profile.budget_ms > 0).then(|| Duration::from_millis(job.req.profile.budget_ms as u64)),
        hard: job.hard,
        cancel: Some(job.cancel.clone()),
    };
    let mut agent = make_agent(&job.req.profile);
    // A panicking agent must not take the worker (or the host) down: answer with L1.
    let outcome =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| agent.decide(&job.req.view, &mut rng, &budget)));
    let (decision, fell_back) = match outcome {
        // Past the hard limit the search was cut short: the L1 answer is the predictable one.
        Ok(d) if started.elapsed() < job.hard => (d, false),
        Ok(_) | Err(_) => (l1::l1_decision(&job.req.view), true),
    };
    AiResult {
        id: job.id,
        generation: job.req.generation,
        seat: job.req.view.seat.unwrap_or(Seat::ZERO),
        seq: job.req.view.seq,
        decision,
        elapsed: started.elapsed(),
        fell_back,
    }
}

/// Makes one decision on the calling thread with the service's safeguards: a panicking agent,
/// or one still searching at `hard`, is answered by L1. For hosts without worker threads
/// (tests, the CLI, a server's blocking pool). The result's `id` is 0.
pub fn decide(req: &AiRequest, hard: Duration) -> AiResult {
    run_job(&Job { id: 0, req: req.clone(), cancel: Arc::new(AtomicBool::new(false)), hard })
}

impl AiService {
    /// A service with `threads` workers (at least one).
    pub fn new(threads: usize) -> Self {
        Self::with_hard_limit(threads, Duration::from_millis(MAX_AI_DECISION_MS))
    }

    pub fn with_hard_limit(threads: usize, hard_limit: Duration) -> Self {
        let (job_tx, job_rx) = unbounded::<Job>();
        let (res_tx, res_rx) = unbounded::<AiResult>();
        let workers = (0..threads.max(1))
            .map(|i| {
                let rx = job_rx.clone();
                let tx = res_tx.clone();
                std::thread::Builder::new()
                    .name(format!("guandan-ai-{i}"))
                    .spawn(move || {
                        for job in rx.iter() {
                            if job.cancel.load(Ordering::Relaxed) {
                                continue;
                            }
                            if tx.send(run_job(&job)).is_err() {
                                break;
                            }
                        }
                    })
                    .expect("spawning an AI worker thread")
            })
            .collect();
        AiService {
            jobs: Some(job_tx),
            results: res_rx,
            workers,
            pending: Mutex::new(BTreeMap::new()),
            next_id: Mutex::new(1),
            generation: Mutex::new(0),
            hard_limit,
        }
    }

    /// Marks a new game generation: pending work of older generations is cancelled and its results dropped.
    pub fn set_generation(&self, generation: u64) {
        *self.generation.lock() = generation;
        let mut pending = self.pending.lock();
        pending.retain(|_, p| {
            let keep = p.req.generation == generation;
            if !keep {
                p.cancel.store(true, Ordering::Relaxed);
            }
            keep
        });
    }

    pub fn generation(&self) -> u64 {
        *self.generation.lock()
    }

    /// Posts a request; returns its id.
    pub fn submit(&self, req: AiRequest) -> u64 {
        let id = {
            let mut n = self.next_id.lock();
            *n += 1;
            *n - 1
        };
        let cancel = Arc::new(AtomicBool::new(false));
        self.pending.lock().insert(id, Pending { req: req.clone(), started: Instant::now(), cancel: cancel.clone() });
        if let Some(tx) = &self.jobs {
            let _ = tx.send(Job { id, req, cancel, hard: self.hard_limit });
        }
        id
    }

    /// Cancels one request (its result, if any, is dropped).
    pub fn cancel(&self, id: u64) {
        if let Some(p) = self.pending.lock().remove(&id) {
            p.cancel.store(true, Ordering::Relaxed);
        }
    }

    pub fn cancel_all(&self) {
        let mut pending = self.pending.lock();
        for p in pending.values() {
            p.cancel.store(true, Ordering::Relaxed);
        }
        pending.clear();
    }

    pub fn pending_count(&self) -> usize {
        self.pending.lock().len()
    }

    /// Finished results of the current generation. Requests past the hard limit are answered by
    /// L1 here, on the caller's thread.
    pub fn poll(&self) -> Vec<AiResult> {
        let generation = self.generation();
        let mut out = Vec::new();
        let mut pending = self.pending.lock();
        for r in self.results.try_iter() {
            if pending.remove(&r.id).is_some() && r.generation == generation {
                out.push(r);
            }
        }
        let overdue: Vec<u64> =
            pending.iter().filter(|(_, p)| p.started.elapsed() > self.hard_limit).map(|(&id, _)| id).collect();
        for id in overdue {
            if let Some(p) = pending.remove(&id) {
                p.cancel.store(true, Ordering::Relaxed);
                out.push(AiResult {
                    id,
                    generation: p.req.generation,
                    seat: p.req.view.seat.unwrap_or(Seat::ZERO),
                    seq: p.req.view.seq,
                    decision: l1::l1_decision(&p.req.view),
                    elapsed: p.started.elapsed(),
                    fell_back: true,
                });
            }
        }
        out
    }

    /// Waits (blocking) for the result of one request, up to the hard limit, then falls back.
    pub fn wait(&self, id: u64) -> Option<AiResult> {
        loop {
            if !self.pending.lock().contains_key(&id) {
                return None;
            }
            for r in self.poll() {
                if r.id == id {
                    return Some(r);
                }
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }
}

impl Drop for AiService {
    fn drop(&mut self) {
        self.cancel_all();
        // Closing the job channel ends the workers' loops; join so no thread outlives the service.
        self.jobs.take();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AiLevel;
    use guandan_core::game::Match;
    use guandan_core::rules::RuleConfig;

    fn request(m: &Match, generation: u64, level: AiLevel) -> AiRequest {
        let seat = m.to_act()[0];
        AiRequest { generation, view: m.view(Some(seat)), profile: AiProfile::level(level), seed: 1 }
    }

    #[test]
    fn results_come_back_with_their_id_and_are_legal() {
        let svc = AiService::new(2);
        let (m, _) = Match::new(4, RuleConfig::competition()).unwrap();
        let id = svc.submit(request(&m, 0, AiLevel::L2));
        let r = svc.wait(id).unwrap();
        assert_eq!(r.id, id);
        assert_eq!(r.seat, m.turn());
        let mut next = m.clone();
        next.apply(&m.action(r.seat, r.decision.action)).unwrap();
    }

    #[test]
    fn stale_generation_results_are_dropped() {
        let svc = AiService::new(1);
        let (m, _) = Match::new(4, RuleConfig::competition()).unwrap();
        let id = svc.submit(request(&m, 0, AiLevel::L1));
        svc.set_generation(1);
        assert_eq!(svc.pending_count(), 0);
        assert!(svc.wait(id).is_none());
        std::thread::sleep(Duration::from_millis(20));
        assert!(svc.poll().is_empty());
    }

    #[test]
    fn overdue_requests_fall_back_to_l1() {
        let svc = AiService::with_hard_limit(1, Duration::from_millis(0));
        let (m, _) = Match::new(4, RuleConfig::competition()).unwrap();
        let id = svc.submit(request(&m, 0, AiLevel::L2));
        std::thread::sleep(Duration::from_millis(1));
        let r = svc.wait(id).unwrap();
        assert!(r.fell_back);
        assert_eq!(r.decision.action, l1::l1_decision(&m.view(Some(m.turn()))).action);
    }

    #[test]
    fn dropping_the_service_joins_its_workers() {
        let svc = AiService::new(2);
        let (m, _) = Match::new(4, RuleConfig::competition()).unwrap();
        for _ in 0..5 {
            svc.submit(request(&m, 0, AiLevel::L2));
        }
        drop(svc); // must not hang or panic
    }
}

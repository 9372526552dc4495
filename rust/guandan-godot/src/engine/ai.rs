//! The engine's AI worker: the runtime says which decision is due ([`Runtime::ai_request`]), a
//! guandan-ai worker thread makes it, `process()` drains the answer and hands it back to the
//! runtime ([`Runtime::ai_result`], which drops stale answers). Workers see plain Rust data only.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use godot::prelude::*;
use guandan_ai::agent::MAX_AI_DECISION_MS;
use guandan_ai::service::{AiResult, AiService};

use super::GuandanEngine;
use crate::forward::Emit;

/// Worker services alive in this process (each owns its threads); see `live_ai_services()`.
static LIVE_SERVICES: AtomicI64 = AtomicI64::new(0);

pub(crate) fn live_services() -> i64 {
    LIVE_SERVICES.load(Ordering::SeqCst)
}

/// An `AiService` that is counted while alive; dropping it cancels and joins its workers.
struct Service(AiService);

impl Service {
    fn new(hard_limit_ms: u64) -> Self {
        LIVE_SERVICES.fetch_add(1, Ordering::SeqCst);
        Service(AiService::with_hard_limit(1, Duration::from_millis(hard_limit_ms)))
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        self.0.cancel_all();
        LIVE_SERVICES.fetch_sub(1, Ordering::SeqCst);
        // AiService's own Drop (right after this) closes the job channel and joins the workers.
    }
}

/// A request on a worker.
struct Job {
    id: u64,
    seq: u64,
    submitted: Instant,
}

/// An answer waiting for `ai_min_think_ms`.
struct Ready {
    result: AiResult,
    at: Instant,
}

#[derive(Default)]
pub(super) struct Driver {
    service: Option<Service>,
    job: Option<Job>,
    ready: Option<Ready>,
}

impl Driver {
    /// Drops the worker (joins its thread) and whatever it was doing.
    pub(super) fn stop_service(&mut self) {
        self.job = None;
        self.ready = None;
        self.service = None;
    }

    /// A new match (`generation`): work for the old one is cancelled and its answers ignored.
    pub(super) fn discard(&mut self, generation: u64) {
        if let Some(svc) = &self.service {
            svc.0.set_generation(generation);
            svc.0.cancel_all();
        }
        self.job = None;
        self.ready = None;
    }

    /// Forgets work for another state than `seq` (the runtime drops such answers anyway).
    pub(super) fn drop_stale(&mut self, seq: Option<u64>) {
        if let Some(job) = &self.job
            && Some(job.seq) != seq
        {
            if let Some(svc) = &self.service {
                svc.0.cancel(job.id);
            }
            self.job = None;
        }
        if self.ready.as_ref().is_some_and(|r| Some(r.result.seq) != seq) {
            self.ready = None;
        }
    }

    pub(super) fn busy(&self) -> bool {
        self.job.is_some() || self.ready.is_some()
    }
}

impl GuandanEngine {
    /// Posts the runtime's next AI decision to a worker, if none is in flight.
    pub(super) fn schedule_ai(&mut self) {
        if self.ai.busy() || !self.base().is_inside_tree() {
            return;
        }
        let generation = self.generation;
        let limit = self.ai_hard_limit_ms.clamp(0, MAX_AI_DECISION_MS as i64) as u64;
        let Some(rt) = self.local.as_mut().map(|l| &mut l.rt) else { return };
        let Some(request) = rt.ai_request(generation) else { return };
        let Some((seat, seq)) = rt.pending_ai() else { return };
        let svc = self.ai.service.get_or_insert_with(|| Service::new(limit));
        svc.0.set_generation(generation);
        let id = svc.0.submit(request);
        self.ai.job = Some(Job { id, seq, submitted: Instant::now() });
        self.queue.push_back(Emit::AiThinking { seat });
    }

    /// Moves the finished decision into `ready` (answers of other jobs are dropped).
    fn collect_results(&mut self) {
        let Some(svc) = &self.ai.service else { return };
        let min_think = Duration::from_millis(self.ai_min_think_ms.clamp(0, 60_000) as u64);
        for result in svc.0.poll() {
            let Some(job) = &self.ai.job else { continue };
            if job.id != result.id {
                continue;
            }
            let at = job.submitted + min_think;
            self.ai.job = None;
            self.ai.ready = Some(Ready { result, at });
        }
    }

    /// Hands the ready decision to the runtime once its time has come; true if it was applied.
    fn apply_ready(&mut self) -> bool {
        if self.ai.ready.as_ref().is_none_or(|r| Instant::now() < r.at) {
            return false;
        }
        let Some(Ready { result, .. }) = self.ai.ready.take() else { return false };
        let Some(rt) = self.local.as_mut().map(|l| &mut l.rt) else { return false };
        let (seat, trace) = (result.seat, result.decision.trace.clone());
        let notices = rt.ai_result(result);
        if notices.is_empty() {
            return false; // stale: the runtime dropped it
        }
        if let Some(trace) = trace {
            self.traces[seat.index()] = Some(trace);
        }
        self.forward_notices(&notices);
        self.after_change();
        true
    }

    /// AI turns for up to `ai_frame_budget_ms`, emitting signals after each action.
    pub(super) fn run_ai(&mut self) {
        let budget = Duration::from_secs_f64(self.ai_frame_budget_ms.clamp(0.0, 1000.0) / 1000.0);
        let start = Instant::now();
        loop {
            if self.local.is_none() || self.paused {
                break;
            }
            self.schedule_ai();
            self.collect_results();
            if self.apply_ready() {
                self.flush();
                if start.elapsed() >= budget {
                    break;
                }
                continue;
            }
            // Nothing in flight (a human must act, or the match is over), or waiting for the
            // minimum think time, or out of budget: next frame.
            if self.ai.job.is_none() || self.ai.ready.is_some() || start.elapsed() >= budget {
                break;
            }
            std::thread::sleep(Duration::from_micros(100));
        }
    }

    /// Whether an AI decision is being made (or waits for `ai_min_think_ms`).
    pub(super) fn ai_busy(&self) -> bool {
        self.ai.busy()
    }
}

/// The AI threads as leak tests see them.
#[godot_api(secondary)]
impl GuandanEngine {
    /// AI worker services alive in this process (one per engine with AI work); for leak tests.
    #[func]
    pub fn live_ai_services() -> i64 {
        live_services()
    }

    /// AI worker threads alive in this process (Linux: the threads of /proc/self/task named
    /// `guandan-ai-N`), -1 where unknown; for leak tests. Only ours are counted: Godot starts
    /// threads of its own whenever it likes (a count of all of them made a leak test flaky).
    #[func]
    pub fn ai_thread_count() -> i64 {
        let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return -1 };
        tasks
            .filter_map(Result::ok)
            .filter(|t| {
                std::fs::read_to_string(t.path().join("comm")).is_ok_and(|name| name.starts_with("guandan-ai-"))
            })
            .count() as i64
    }
}

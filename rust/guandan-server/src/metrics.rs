//! Counters for `/metrics` (Prometheus text format).

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};

/// Upper bounds (ms) of the action latency histogram: intent received → every recipient queued.
const BUCKETS_MS: [f64; 10] = [0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 250.0, 1000.0];
/// Upper bounds of the quick-match tables' rating spread (mu points between the table's
/// strongest and weakest player; a new player's mu is 25, sigma 8.3).
const BUCKETS_SPREAD: [f64; 10] = [0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 13.0, 21.0, 34.0];

/// A Prometheus histogram of fixed bounds.
#[derive(Default)]
pub struct Histogram {
    buckets: [AtomicU64; 10],
    count: AtomicU64,
    /// The sum of the observed values, in thousandths.
    sum_milli: AtomicU64,
}

impl Histogram {
    fn observe(&self, bounds: &[f64; 10], v: f64) {
        for (b, le) in self.buckets.iter().zip(bounds) {
            if v <= *le {
                b.fetch_add(1, Relaxed);
            }
        }
        self.count.fetch_add(1, Relaxed);
        self.sum_milli.fetch_add((v.max(0.0) * 1000.0) as u64, Relaxed);
    }

    fn render(&self, s: &mut String, name: &str, help: &str, bounds: &[f64; 10]) {
        s.push_str(&format!("# HELP {name} {help}\n# TYPE {name} histogram\n"));
        for (b, le) in self.buckets.iter().zip(bounds) {
            s.push_str(&format!("{name}_bucket{{le=\"{le}\"}} {}\n", b.load(Relaxed)));
        }
        let count = self.count.load(Relaxed);
        s.push_str(&format!("{name}_bucket{{le=\"+Inf\"}} {count}\n"));
        s.push_str(&format!("{name}_sum {:.3}\n", self.sum_milli.load(Relaxed) as f64 / 1000.0));
        s.push_str(&format!("{name}_count {count}\n"));
    }
}

#[derive(Default)]
pub struct Metrics {
    pub rooms: AtomicI64,
    pub connections: AtomicI64,
    pub actions: AtomicU64,
    pub matches_finished: AtomicU64,
    pub protocol_errors: AtomicU64,
    pub rooms_taken_over: AtomicU64,
    /// A room read its match's stored actions back and replayed them (catch-up, finished record).
    pub log_replays: AtomicU64,
    /// Rooms closed because nobody was in them (idle, emptied lobby).
    pub rooms_closed_empty: AtomicU64,
    /// Rooms created (each counts once).
    pub rooms_created: AtomicU64,
    /// Room creations refused: the account has `--rooms-per-account` rooms already.
    pub rooms_refused: AtomicU64,
    /// Guest accounts refused: the address made `--accounts-per-ip-per-minute` already.
    pub accounts_refused: AtomicU64,
    /// Public HTTP reads refused: the address was over `--public-rate`.
    pub public_refused: AtomicU64,
    /// TCP connections open (HTTP and WebSocket).
    pub tcp_connections: AtomicI64,
    /// Connections that have not said hello (or are plain HTTP requests).
    pub unauthenticated: AtomicI64,
    /// Connections closed at once: too many from one address.
    pub conns_refused_per_ip: AtomicU64,
    /// Unauthenticated connections closed to make room for newer ones.
    pub conns_evicted: AtomicU64,
    /// Connections closed because their HTTP request head did not arrive in time.
    pub header_timeouts: AtomicU64,
    /// `seen` messages for a seat's current duty (its clock restarted from the sight).
    pub prompts_seen: AtomicU64,
    /// Quick-match tables this instance formed (and started).
    pub queue_tables: AtomicU64,
    /// Connections of this instance waiting in the quick-match queue.
    pub queued: AtomicI64,
    /// WebSocket connections closed for a message in more frames than allowed.
    pub ws_fragments_refused: AtomicU64,
    /// Times a WebSocket connection's reading paused: its frame budget was spent.
    pub ws_frame_pauses: AtomicU64,
    /// Connections told `session_replaced` and closed: a newer connection of the account took
    /// its seat.
    pub sessions_replaced: AtomicU64,
    /// Seats or queue places refused with `already_seated` (one seat per account).
    pub seats_refused: AtomicU64,
    latency: Histogram,
    /// Rating spread of the quick-match tables this instance formed.
    table_spread: Histogram,
    started: std::sync::OnceLock<std::time::Instant>,
}

impl Metrics {
    pub fn new() -> Self {
        let m = Metrics::default();
        let _ = m.started.set(std::time::Instant::now());
        m
    }

    pub fn action(&self, latency: std::time::Duration) {
        self.actions.fetch_add(1, Relaxed);
        self.latency.observe(&BUCKETS_MS, latency.as_secs_f64() * 1000.0);
    }

    /// A quick-match table was formed whose players' ratings (mu) lie `spread` apart.
    pub fn table_formed(&self, spread: f64) {
        self.queue_tables.fetch_add(1, Relaxed);
        self.table_spread.observe(&BUCKETS_SPREAD, spread);
    }

    pub fn render(&self) -> String {
        let mut s = String::new();
        let up = self.started.get().map_or(0.0, |t| t.elapsed().as_secs_f64());
        let actions = self.actions.load(Relaxed);
        let mut gauge = |name: &str, help: &str, kind: &str, v: String| {
            s.push_str(&format!("# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}\n"));
        };
        gauge("guandan_rooms", "Rooms on this instance.", "gauge", self.rooms.load(Relaxed).to_string());
        gauge(
            "guandan_connections",
            "Open WebSocket connections.",
            "gauge",
            self.connections.load(Relaxed).to_string(),
        );
        gauge("guandan_actions_total", "Applied match actions.", "counter", actions.to_string());
        gauge(
            "guandan_actions_per_second",
            "Applied actions per second since start.",
            "gauge",
            format!("{:.3}", if up > 0.0 { actions as f64 / up } else { 0.0 }),
        );
        gauge(
            "guandan_matches_finished_total",
            "Matches finished and stored.",
            "counter",
            self.matches_finished.load(Relaxed).to_string(),
        );
        gauge(
            "guandan_protocol_errors_total",
            "Client messages refused with an error code.",
            "counter",
            self.protocol_errors.load(Relaxed).to_string(),
        );
        gauge(
            "guandan_rooms_taken_over_total",
            "Rooms this instance took over from instances whose lease had run out.",
            "counter",
            self.rooms_taken_over.load(Relaxed).to_string(),
        );
        for (name, help, v) in [
            (
                "guandan_log_replays_total",
                "Stored match logs a room read back and replayed (a seat's catch-up, the finished record).",
                &self.log_replays,
            ),
            ("guandan_rooms_created_total", "Rooms created on this instance.", &self.rooms_created),
            (
                "guandan_rooms_closed_empty_total",
                "Rooms closed because nobody was left in them (idle or emptied); their directory rows deleted.",
                &self.rooms_closed_empty,
            ),
            (
                "guandan_rooms_refused_total",
                "Room creations refused: the account already has --rooms-per-account rooms.",
                &self.rooms_refused,
            ),
            (
                "guandan_accounts_refused_total",
                "Guest accounts refused: the address made --accounts-per-ip-per-minute already.",
                &self.accounts_refused,
            ),
            (
                "guandan_public_requests_refused_total",
                "Public HTTP reads answered 429: the address was over --public-rate.",
                &self.public_refused,
            ),
            (
                "guandan_connections_refused_per_ip_total",
                "Connections closed at once: --max-conns-per-ip from their address were open.",
                &self.conns_refused_per_ip,
            ),
            (
                "guandan_connections_evicted_total",
                "Unauthenticated connections closed to make room for newer ones (--max-unauthenticated).",
                &self.conns_evicted,
            ),
            (
                "guandan_header_timeouts_total",
                "Connections closed because their HTTP request head did not arrive within --header-timeout-ms.",
                &self.header_timeouts,
            ),
            (
                "guandan_prompts_seen_total",
                "Players' `seen` for their current duty (the duty's clock restarted from the sight, within --seen-grace-ms).",
                &self.prompts_seen,
            ),
            ("guandan_queue_tables_total", "Quick-match tables this instance formed and started.", &self.queue_tables),
            (
                "guandan_ws_fragments_refused_total",
                "WebSocket connections closed for a message sent in more frames than allowed.",
                &self.ws_fragments_refused,
            ),
            (
                "guandan_ws_frame_pauses_total",
                "Pauses in reading a WebSocket connection whose frame budget was spent (any frame kind).",
                &self.ws_frame_pauses,
            ),
            (
                "guandan_sessions_replaced_total",
                "Connections closed with session_replaced: a newer connection of the account took the seat.",
                &self.sessions_replaced,
            ),
            (
                "guandan_seats_refused_total",
                "Seats and quick-match places refused with already_seated (one seat per account).",
                &self.seats_refused,
            ),
        ] {
            gauge(name, help, "counter", v.load(Relaxed).to_string());
        }
        gauge(
            "guandan_queued_players",
            "Connections of this instance waiting in the quick-match queue.",
            "gauge",
            self.queued.load(Relaxed).to_string(),
        );
        gauge(
            "guandan_tcp_connections",
            "Open TCP connections (HTTP and WebSocket).",
            "gauge",
            self.tcp_connections.load(Relaxed).to_string(),
        );
        gauge(
            "guandan_unauthenticated_connections",
            "Open connections that have not said hello (or carry plain HTTP requests).",
            "gauge",
            self.unauthenticated.load(Relaxed).to_string(),
        );
        self.latency.render(
            &mut s,
            "guandan_action_latency_ms",
            "Intent received to broadcast queued (persisted first).",
            &BUCKETS_MS,
        );
        self.table_spread.render(
            &mut s,
            "guandan_queue_table_rating_spread",
            "Quick-match tables formed: rating (mu) between the table's strongest and weakest player.",
            &BUCKETS_SPREAD,
        );
        s
    }
}

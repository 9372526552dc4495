//! What `/metrics` shows (OpenMetrics text, by the `prometheus-client` crate): counters and
//! gauges the server's parts update, histograms of action latency, journal commits and
//! quick-match tables, and at each scrape the process's resident memory and what a room costs.

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

/// Upper bounds (ms) of the action latency histogram: intent received → every recipient queued.
const BUCKETS_MS: [f64; 10] = [0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 250.0, 1000.0];
/// Upper bounds of the quick-match tables' rating spread (mu points between the table's
/// strongest and weakest player; a new player's mu is 25, sigma 8.3).
const BUCKETS_SPREAD: [f64; 10] = [0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 13.0, 21.0, 34.0];
/// Rows in one journal commit (the group commit's batches).
const BUCKETS_BATCH: [f64; 10] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0];
/// Time (ms) one journal commit takes in the database.
const BUCKETS_COMMIT_MS: [f64; 10] = [0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 25.0, 100.0, 1000.0];

type FloatGauge = Gauge<f64, AtomicU64>;
/// Counters told apart by one label (`result="ok"`, `reason="timeout"`).
type Labelled = Family<[(&'static str, &'static str); 1], Counter>;

pub struct Metrics {
    pub rooms: Gauge,
    /// Open WebSocket connections.
    pub connections: Gauge,
    pub actions: Counter,
    pub matches_finished: Counter,
    pub protocol_errors: Counter,
    pub rooms_taken_over: Counter,
    /// A room read its match's stored actions back and replayed them (catch-up, finished record).
    pub log_replays: Counter,
    /// Rooms closed because nobody was in them (idle, emptied lobby).
    pub rooms_closed_empty: Counter,
    /// Rooms created (each counts once).
    pub rooms_created: Counter,
    /// Room creations refused: the account has `--rooms-per-account` rooms already.
    pub rooms_refused: Counter,
    /// Guest accounts refused: the address made `--accounts-per-ip-per-minute` already.
    pub accounts_refused: Counter,
    /// Public HTTP reads refused: the address was over `--public-rate`.
    pub public_refused: Counter,
    /// TCP connections open (HTTP and WebSocket).
    pub tcp_connections: Gauge,
    /// Connections that have not said hello (or are plain HTTP requests).
    pub unauthenticated: Gauge,
    /// Connections closed at once: too many from one address.
    pub conns_refused_per_ip: Counter,
    /// Requests from a trusted proxy without a usable `X-Forwarded-For` (counted as the proxy's).
    pub forwarded_missing: Counter,
    /// Unauthenticated connections closed to make room for newer ones.
    pub conns_evicted: Counter,
    /// Connections closed because their HTTP request head did not arrive in time.
    pub header_timeouts: Counter,
    /// `seen` messages for a seat's current duty (its clock restarted from the sight).
    pub prompts_seen: Counter,
    /// Quick-match tables this instance formed (and started).
    pub queue_tables: Counter,
    /// Connections of this instance waiting in the quick-match queue.
    pub queued: Gauge,
    /// WebSocket connections closed for a message in more frames than allowed.
    pub ws_fragments_refused: Counter,
    /// Times a WebSocket connection's reading paused: its frame budget was spent.
    pub ws_frame_pauses: Counter,
    /// Connections told `session_replaced` and closed: a newer connection of the account took
    /// its seat.
    pub sessions_replaced: Counter,
    /// Seats or queue places refused with `already_seated` (one seat per account).
    pub seats_refused: Counter,
    /// A room found one of its seated players holding a seat in another room (one seat per
    /// account broken by a race the claims did not catch): 0 is the invariant.
    pub seat_conflicts: Counter,
    /// The TLS certificate's notAfter (Unix seconds); registered only with TLS.
    pub tls_not_after: Gauge,
    tls_handshake_ms: Histogram,
    tls_handshake_failures: Labelled,
    tls_reloads: Labelled,
    /// Logins, claims, transfers and sessions (crate::accounts).
    pub accounts: crate::accounts::AccountMetrics,
    latency: Histogram,
    /// Rating spread of the quick-match tables this instance formed.
    table_spread: Histogram,
    journal_rows: Histogram,
    journal_commit: Histogram,
    actions_per_second: FloatGauge,
    resident_bytes: Gauge,
    bytes_per_room: FloatGauge,
    registry: Registry,
    started: Instant,
}

impl Metrics {
    pub fn new() -> Self {
        let m = Metrics {
            rooms: Gauge::default(),
            connections: Gauge::default(),
            actions: Counter::default(),
            matches_finished: Counter::default(),
            protocol_errors: Counter::default(),
            rooms_taken_over: Counter::default(),
            log_replays: Counter::default(),
            rooms_closed_empty: Counter::default(),
            rooms_created: Counter::default(),
            rooms_refused: Counter::default(),
            accounts_refused: Counter::default(),
            public_refused: Counter::default(),
            tcp_connections: Gauge::default(),
            unauthenticated: Gauge::default(),
            conns_refused_per_ip: Counter::default(),
            forwarded_missing: Counter::default(),
            conns_evicted: Counter::default(),
            header_timeouts: Counter::default(),
            prompts_seen: Counter::default(),
            queue_tables: Counter::default(),
            queued: Gauge::default(),
            ws_fragments_refused: Counter::default(),
            ws_frame_pauses: Counter::default(),
            sessions_replaced: Counter::default(),
            seats_refused: Counter::default(),
            seat_conflicts: Counter::default(),
            tls_not_after: Gauge::default(),
            tls_handshake_ms: Histogram::new(BUCKETS_MS),
            tls_handshake_failures: Labelled::default(),
            tls_reloads: Labelled::default(),
            accounts: Default::default(),
            latency: Histogram::new(BUCKETS_MS),
            table_spread: Histogram::new(BUCKETS_SPREAD),
            journal_rows: Histogram::new(BUCKETS_BATCH),
            journal_commit: Histogram::new(BUCKETS_COMMIT_MS),
            actions_per_second: FloatGauge::default(),
            resident_bytes: Gauge::default(),
            bytes_per_room: FloatGauge::default(),
            registry: Registry::with_prefix("guandan"),
            started: Instant::now(),
        };
        m.register()
    }

    /// Every metric under its name (counters gain `_total` in the text).
    fn register(mut self) -> Self {
        let r = &mut self.registry;
        self.accounts.register(r);
        r.register("rooms", "Rooms on this instance", self.rooms.clone());
        r.register("connections", "Open WebSocket connections", self.connections.clone());
        r.register("actions", "Applied match actions", self.actions.clone());
        r.register("actions_per_second", "Applied actions per second since start", self.actions_per_second.clone());
        r.register("matches_finished", "Matches finished and stored", self.matches_finished.clone());
        r.register("protocol_errors", "Client messages refused with an error code", self.protocol_errors.clone());
        r.register(
            "rooms_taken_over",
            "Rooms this instance took over from instances whose lease had run out",
            self.rooms_taken_over.clone(),
        );
        r.register(
            "log_replays",
            "Stored match logs a room read back and replayed (a seat's catch-up, the finished record)",
            self.log_replays.clone(),
        );
        r.register("rooms_created", "Rooms created on this instance", self.rooms_created.clone());
        r.register(
            "rooms_closed_empty",
            "Rooms closed because nobody was left in them (idle or emptied); their directory rows deleted",
            self.rooms_closed_empty.clone(),
        );
        r.register(
            "rooms_refused",
            "Room creations refused: the account already has --rooms-per-account rooms",
            self.rooms_refused.clone(),
        );
        r.register(
            "accounts_refused",
            "Guest accounts refused: the address made --accounts-per-ip-per-minute already",
            self.accounts_refused.clone(),
        );
        r.register(
            "public_requests_refused",
            "Public HTTP reads answered 429: the address was over --public-rate",
            self.public_refused.clone(),
        );
        r.register(
            "connections_refused_per_ip",
            "Connections closed at once: --max-conns-per-ip from their address were open",
            self.conns_refused_per_ip.clone(),
        );
        r.register(
            "forwarded_missing",
            "Requests from a --trusted-proxy address with no usable X-Forwarded-For: limited as the proxy's own",
            self.forwarded_missing.clone(),
        );
        r.register(
            "connections_evicted",
            "Unauthenticated connections closed to make room for newer ones (--max-unauthenticated)",
            self.conns_evicted.clone(),
        );
        r.register(
            "header_timeouts",
            "Connections closed because their HTTP request head did not arrive within --header-timeout-ms",
            self.header_timeouts.clone(),
        );
        r.register(
            "prompts_seen",
            "Players' seen for their current duty (the duty's clock restarted from the sight, within --seen-grace-ms)",
            self.prompts_seen.clone(),
        );
        r.register("queue_tables", "Quick-match tables this instance formed and started", self.queue_tables.clone());
        r.register(
            "ws_fragments_refused",
            "WebSocket connections closed for a message sent in more frames than allowed",
            self.ws_fragments_refused.clone(),
        );
        r.register(
            "ws_frame_pauses",
            "Pauses in reading a WebSocket connection whose frame budget was spent (any frame kind)",
            self.ws_frame_pauses.clone(),
        );
        r.register(
            "sessions_replaced",
            "Connections closed with session_replaced: a newer connection of the account took the seat",
            self.sessions_replaced.clone(),
        );
        r.register(
            "seats_refused",
            "Seats and quick-match places refused with already_seated (one seat per account)",
            self.seats_refused.clone(),
        );
        r.register(
            "seat_conflicts",
            "Seated players a room found holding a seat in another room (should stay 0)",
            self.seat_conflicts.clone(),
        );
        r.register(
            "queued_players",
            "Connections of this instance waiting in the quick-match queue",
            self.queued.clone(),
        );
        r.register("tcp_connections", "Open TCP connections (HTTP and WebSocket)", self.tcp_connections.clone());
        r.register(
            "unauthenticated_connections",
            "Open connections that have not said hello (or carry plain HTTP requests)",
            self.unauthenticated.clone(),
        );
        r.register("action_latency_ms", "Intent received to broadcast queued (persisted first)", self.latency.clone());
        r.register(
            "queue_table_rating_spread",
            "Quick-match tables formed: rating (mu) between the table's strongest and weakest player",
            self.table_spread.clone(),
        );
        r.register(
            "journal_batch_rows",
            "Actions in one journal commit (the group commit of every room's actions)",
            self.journal_rows.clone(),
        );
        r.register("journal_commit_ms", "Time one journal commit took in the database", self.journal_commit.clone());
        r.register("resident_bytes", "The server process's resident memory", self.resident_bytes.clone());
        r.register(
            "resident_bytes_per_room",
            "The server process's resident memory divided by its rooms (0 without rooms)",
            self.bytes_per_room.clone(),
        );
        self
    }

    /// The metrics of a server whose listener speaks TLS: [`Metrics::new`]'s and the TLS
    /// handshakes and certificate's (absent without TLS, so no expiry alert fires on a plain
    /// listener's zero).
    pub fn with_tls() -> Self {
        let mut m = Metrics::new();
        let r = &mut m.registry;
        r.register(
            "tls_handshake_ms",
            "TLS handshakes completed: first byte to the handshake's end",
            m.tls_handshake_ms.clone(),
        );
        r.register(
            "tls_handshake_failures",
            "TLS handshakes that failed (reason=error: not TLS, no common cipher, bad message) or did not finish within --header-timeout-ms (reason=timeout)",
            m.tls_handshake_failures.clone(),
        );
        r.register(
            "tls_certificate_reloads",
            "Certificate reloads (SIGHUP or a change of the files); result=failed kept the previous certificate",
            m.tls_reloads.clone(),
        );
        r.register(
            "tls_certificate_not_after_seconds",
            "The served certificate's notAfter (Unix time): alert well before it",
            m.tls_not_after.clone(),
        );
        m
    }

    pub fn tls_handshake(&self, took: Duration) {
        self.tls_handshake_ms.observe(took.as_secs_f64() * 1000.0);
    }

    /// A handshake failed: `reason` is `error` or `timeout`.
    pub fn tls_handshake_failed(&self, reason: &'static str) {
        self.tls_handshake_failures.get_or_create(&[("reason", reason)]).inc();
    }

    pub fn tls_reload(&self, ok: bool) {
        self.tls_reloads.get_or_create(&[("result", if ok { "ok" } else { "failed" })]).inc();
    }

    pub fn action(&self, latency: Duration) {
        self.actions.inc();
        self.latency.observe(latency.as_secs_f64() * 1000.0);
    }

    /// A quick-match table was formed whose players' ratings (mu) lie `spread` apart.
    pub fn table_formed(&self, spread: f64) {
        self.queue_tables.inc();
        self.table_spread.observe(spread);
    }

    /// The journal committed `rows` actions in `took`.
    pub fn journal_commit(&self, rows: usize, took: Duration) {
        self.journal_rows.observe(rows as f64);
        self.journal_commit.observe(took.as_secs_f64() * 1000.0);
    }

    pub fn render(&self) -> String {
        let up = self.started.elapsed().as_secs_f64();
        let actions = self.actions.get();
        self.actions_per_second.set(if up > 0.0 { actions as f64 / up } else { 0.0 });
        let resident = resident_bytes().unwrap_or(0);
        self.resident_bytes.set(i64::try_from(resident).unwrap_or(i64::MAX));
        let rooms = self.rooms.get();
        self.bytes_per_room.set(if rooms > 0 { resident as f64 / rooms as f64 } else { 0.0 });
        let mut s = String::new();
        if let Err(e) = encode(&mut s, &self.registry) {
            tracing::error!(error = %e, "metrics not encoded");
        }
        s
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

/// This process's resident memory (`VmRSS` of `/proc/self/status`, Linux); `None` elsewhere.
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str, name: &str) -> Option<f64> {
        text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
    }

    #[test]
    fn the_text_names_counters_gauges_and_histograms() {
        let m = Metrics::new();
        m.rooms.inc();
        m.rooms.inc();
        m.action(Duration::from_micros(700));
        m.action(Duration::from_millis(30));
        m.journal_commit(3, Duration::from_micros(400));
        m.journal_commit(40, Duration::from_millis(3));
        let t = m.render();
        assert_eq!(value(&t, "guandan_rooms"), Some(2.0), "{t}");
        assert_eq!(value(&t, "guandan_actions_total"), Some(2.0), "{t}");
        assert_eq!(value(&t, "guandan_action_latency_ms_bucket{le=\"1.0\"}"), Some(1.0), "{t}");
        assert_eq!(value(&t, "guandan_action_latency_ms_bucket{le=\"50.0\"}"), Some(2.0), "{t}");
        assert_eq!(value(&t, "guandan_journal_batch_rows_count"), Some(2.0), "{t}");
        assert_eq!(value(&t, "guandan_journal_batch_rows_sum"), Some(43.0), "{t}");
        assert_eq!(value(&t, "guandan_journal_batch_rows_bucket{le=\"4.0\"}"), Some(1.0), "{t}");
        assert!(value(&t, "guandan_resident_bytes").is_some_and(|b| b > 0.0), "{t}");
        let per_room = value(&t, "guandan_resident_bytes_per_room").expect("bytes a room");
        assert!((per_room - value(&t, "guandan_resident_bytes").unwrap() / 2.0).abs() < 1.0, "{t}");
        assert!(t.contains("# TYPE guandan_actions counter"), "{t}");
        assert!(t.trim_end().ends_with("# EOF"), "{t}");
        assert!(!t.contains("tls_"), "no TLS metrics without TLS: {t}");
    }

    #[test]
    fn tls_metrics_carry_their_labels() {
        let m = Metrics::with_tls();
        m.tls_not_after.set(1_900_000_000);
        m.tls_handshake(Duration::from_micros(1500));
        m.tls_handshake_failed("timeout");
        m.tls_reload(true);
        m.tls_reload(false);
        m.tls_reload(false);
        let t = m.render();
        assert_eq!(value(&t, "guandan_tls_certificate_not_after_seconds"), Some(1.9e9), "{t}");
        assert_eq!(value(&t, "guandan_tls_handshake_ms_bucket{le=\"2.0\"}"), Some(1.0), "{t}");
        assert_eq!(value(&t, "guandan_tls_handshake_failures_total{reason=\"timeout\"}"), Some(1.0), "{t}");
        assert_eq!(value(&t, "guandan_tls_certificate_reloads_total{result=\"ok\"}"), Some(1.0), "{t}");
        assert_eq!(value(&t, "guandan_tls_certificate_reloads_total{result=\"failed\"}"), Some(2.0), "{t}");
    }
}

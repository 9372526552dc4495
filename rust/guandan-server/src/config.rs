//! Server settings: the command line (`guandan-server --help`) and the timings of the room rules.

use clap::Parser;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Debug, Parser)]
#[command(
    name = "guandan-server",
    about = "The authoritative Guandan server (HTTP + WebSocket).",
    args_override_self = true
)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:7878")]
    pub listen: SocketAddr,
    /// sqlite://PATH or postgres://USER@HOST:PORT/DB. Default: SQLite in the user's data folder.
    #[arg(long)]
    pub database_url: Option<String>,
    /// This instance's name in the room directory (stable across restarts: rooms are restored
    /// from the log by the instance that owned them).
    #[arg(long, default_value = "main")]
    pub instance: String,
    /// URL clients use to reach this instance (redirects point here). Default: http://LISTEN,
    /// or https://LISTEN with `--tls-cert`. Behind a host name, give it: https://NAME[:PORT].
    #[arg(long)]
    pub public_url: Option<String>,
    /// PEM file with the certificate chain (the server's certificate first). With `--tls-key`
    /// the listener speaks HTTPS and WSS only. Read again on SIGHUP and when the file changes.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// PEM file with the certificate's private key (PKCS#8, PKCS#1 or SEC1).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Certificates from ACME (Let's Encrypt by default) for this name (repeatable: one
    /// certificate for all). The listener speaks HTTPS and WSS only and proves the name with
    /// TLS-ALPN-01 on its own port, so the CA must reach it on port 443. Not with `--tls-cert`.
    #[arg(long = "acme-domain", value_name = "NAME", conflicts_with_all = ["tls_cert", "tls_key"])]
    pub acme_domain: Vec<String>,
    /// The ACME CA's directory URL.
    #[arg(long, value_name = "URL", default_value = "https://acme-v02.api.letsencrypt.org/directory")]
    pub acme_directory: String,
    /// Where the ACME account and certificate are kept (owner-only files). Default:
    /// `acme/` beside the default SQLite database (`$XDG_DATA_HOME/guandan/acme`).
    #[arg(long, value_name = "DIR")]
    pub acme_cache: Option<PathBuf>,
    /// Contact for the CA's expiry notices, e.g. mailto:ops@example.com (repeatable).
    #[arg(long, value_name = "URI")]
    pub acme_contact: Vec<String>,
    /// A CA certificate (PEM) the ACME directory's own HTTPS is signed by, for a private or test
    /// CA such as Pebble. Default: Mozilla's roots.
    #[arg(long, value_name = "FILE")]
    pub acme_directory_ca: Option<PathBuf>,
    /// Share of a certificate's lifetime after which it is renewed.
    #[arg(long, default_value_t = 2.0 / 3.0, value_parser = renew_share)]
    pub acme_renew_after: f64,
    /// How often the certificate and key files are checked for a change (ms).
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(10..))]
    pub tls_poll_ms: u64,
    /// Silence after which a seated player is hosted by the AI (ms).
    #[arg(long, default_value_t = 15_000)]
    pub heartbeat_timeout_ms: u64,
    /// A connection that has not said hello by then is closed (ms).
    #[arg(long, default_value_t = 5_000)]
    pub auth_timeout_ms: u64,
    /// READY_CHECK falls back to WAITING after this long (ms).
    #[arg(long, default_value_t = 60_000)]
    pub ready_timeout_ms: u64,
    /// Quick match: after this wait a player's table is completed with the server's AI (ms).
    #[arg(long, default_value_t = 30_000)]
    pub queue_ai_fill_ms: u64,
    /// Quick match: the queue this instance takes players from and forms tables for; instances
    /// sharing a database match players across one pool (e.g. one per region).
    #[arg(long, default_value = "main")]
    pub queue_pool: String,
    /// Quick match: how often this instance forms tables from the queue (ms).
    #[arg(long, default_value_t = 250)]
    pub queue_tick_ms: u64,
    /// The journal's group commit: a batch takes every action queued while the last commit ran
    /// and those queued by the rooms woken with its first (one pass of the scheduler). A value
    /// above 0 also waits this long after the first action for more (fewer commits, each action
    /// announced this much later at most: measured, the pass alone costs less CPU and latency).
    #[arg(long, default_value_t = 0)]
    pub journal_batch_ms: u64,
    /// VOTE_PHASE closes after this long (ms).
    #[arg(long, default_value_t = 30_000)]
    pub vote_timeout_ms: u64,
    /// A player who drops out of a lobby (not a match) keeps the seat this long (ms).
    #[arg(long, default_value_t = 60_000)]
    pub lobby_grace_ms: u64,
    /// After a reconnect the AI does not act for that seat for this long (ms).
    #[arg(long, default_value_t = 2_000)]
    pub reconnect_grace_ms: u64,
    /// Sustained messages per second one connection may send.
    #[arg(long, default_value_t = 20.0)]
    pub rate: f64,
    /// Burst of messages above the rate. (An intent answering a prompt the server sent is
    /// never counted: the server paces those.)
    #[arg(long, default_value_t = 40.0)]
    pub burst: f64,
    /// Messages queued for one client before it counts as too slow and is disconnected with
    /// `slow_consumer`.
    #[arg(long, default_value_t = 1024, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub outbox: usize,
    /// This instance's lease on its rooms (ms), renewed every third of it. When it runs out (the
    /// instance died), another instance that a player reaches takes the room over.
    #[arg(long, default_value_t = 15_000, value_parser = clap::value_parser!(u64).range(30..))]
    pub lease_ms: u64,
    /// The room's pacing: an AI seat or a hosted seat in a room with people acts no sooner than
    /// this long after the previous action (ms), so the players can follow the table and a player
    /// who drops out has a match to come back to. 0: at once (benchmarks, tests).
    #[arg(long, default_value_t = 1_000)]
    pub ai_pace_ms: u64,
    /// The break after a deal ends, in a room with people: the result is read (and a player on
    /// auto-play takes the seat back) before anything of the next deal happens. No AI or hosted
    /// seat acts and no clock runs until it is over; a player may pay or return a card in it.
    /// Clients are told its length (`deal_break_ms` of the room) and count it down. 0: none.
    #[arg(long, default_value_t = 6_000)]
    pub deal_break_ms: u64,
    /// Most a player's `seen` gives back of a turn's time that ran before the client drew the
    /// prompt (ms): the player then has the whole limit from the sight, and a client that claims
    /// to see late stretches a turn by this much at most. 0: `seen` is ignored.
    #[arg(long, default_value_t = 5_000)]
    pub seen_grace_ms: u64,
    /// A present player who lets this many of its duties in a row time out is handed to the AI
    /// (auto-play, shown to the room as hosting) until it acts again: any intent, or
    /// `auto_play` off, takes the seat back. 0: never (such a player holds every duty for the
    /// whole turn limit, all match long).
    #[arg(long, default_value_t = 2)]
    pub auto_play_after_timeouts: u32,
    /// AI level that plays for a hosted (disconnected) human.
    #[arg(long, default_value_t = 2)]
    pub hosting_ai: u8,
    /// Practice/development only: honour a seed sent with `create_room` (a deal its sender can
    /// know). Such rooms and their stored matches are marked `practice`. Without this flag every
    /// match's seed comes from the OS's random generator and a client's seed is refused.
    #[arg(long)]
    pub practice_seeds: bool,
    /// Tests only (hidden): every room created here is ranked, as the quick-match queue's rooms
    /// are, so a test can finish a ranked match without the queue.
    #[arg(long, hide = true)]
    pub test_ranked_rooms: bool,
    /// A connection must send a whole HTTP request head within this (ms); slower ones are closed.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout_ms: u64,
    /// A plain HTTP request (not a WebSocket) must be read and answered within this (ms).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub request_timeout_ms: u64,
    /// Open connections from one source address; more are closed at once.
    #[arg(long, default_value_t = 64, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_conns_per_ip: usize,
    /// Connections that have not said hello yet (HTTP requests, WebSockets before `hello`), in
    /// total; beyond it the oldest of them is closed.
    #[arg(long, default_value_t = 512, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_unauthenticated: usize,
    /// Rooms one account may have created that still exist on this instance.
    #[arg(long, default_value_t = 4, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub rooms_per_account: usize,
    /// Reverse proxies (addresses or CIDR blocks, repeatable or comma-separated) whose
    /// `X-Forwarded-For` names the player: the per-address limits then apply to the player's
    /// address. Nothing is trusted by default; never list an address clients can reach from.
    #[arg(long = "trusted-proxy", value_delimiter = ',', value_parser = crate::forwarded::parse_proxy)]
    pub trusted_proxy: Vec<ipnet::IpNet>,
    /// Guest accounts one source address may create per minute.
    #[arg(long, default_value_t = 20, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub accounts_per_ip_per_minute: usize,
    /// Public HTTP reads (leaderboard, profiles, finished matches, room directory, metrics) one
    /// source address may make per second; above it (after the burst) it is answered 429.
    #[arg(long, default_value_t = 5.0)]
    pub public_rate: f64,
    /// Burst of public HTTP reads above the rate, per source address.
    #[arg(long, default_value_t = 20.0)]
    pub public_burst: f64,
    /// Rated matches a player needs under a rule preset to be listed on its leaderboard (new
    /// accounts stay off it until they have played).
    #[arg(long, default_value_t = 5)]
    pub leaderboard_min_matches: u32,
    /// Quick match may seat accounts from one source address at one table. Off by default:
    /// one machine playing several seats could trade rating between them. For LAN parties and
    /// load tests from one machine.
    #[arg(long)]
    pub allow_same_address_tables: bool,
    /// A room with nobody in it and no match running closes after this long (ms); its
    /// directory row is deleted.
    #[arg(long, default_value_t = 600_000)]
    pub room_idle_ms: u64,
    /// A session (a device logged in to an account) that is not used for this many days
    /// expires: the device must log in again (a guest that never claimed its account loses it).
    #[arg(long, default_value_t = 180, value_parser = clap::value_parser!(u32).range(1..=36_500))]
    pub session_idle_days: u32,
    /// A session token is never accepted longer than this many days after it was issued. Clients
    /// that store rotated tokens never meet it; an old game that ignores rotation logs in again.
    #[arg(long, default_value_t = 365, value_parser = clap::value_parser!(u32).range(1..=36_500))]
    pub session_max_days: u32,
    /// At `hello`, a session token older than this many days is replaced by a new one (sent in
    /// `welcome`); the old one works until the new one is first used.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=36_500))]
    pub session_rotate_days: u32,
    /// Failed logins one login name may have an hour (a burst of this many, then one every
    /// hour / N), counted whether the name exists or not.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub login_failures_per_name_per_hour: u32,
    /// Logins and account claims one source address may try an hour (each costs a password
    /// hash): a burst of this many, then one every hour / N.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    pub logins_per_ip_per_hour: u32,
    /// Transfer codes one source address may try to redeem an hour: a burst of this many, then
    /// one every hour / N.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    pub transfers_per_ip_per_hour: u32,
    /// A transfer code is valid this long after it was made (s).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(30..=86_400))]
    pub transfer_code_ttl_s: u64,
    /// Password hashes (argon2id, 19 MiB each) computed at once; 0: one fewer than the cores
    /// (at least one), so a flood of logins leaves a core to the rooms.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub password_hashers: u32,
    /// Logins and claims of addresses or names in doubt (one that failed or is trying already)
    /// that may wait for a hash, one an address; past that such a login is refused as busy
    /// (429, nothing spent) while clean ones still go first.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub password_queue: u32,
}

fn renew_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if f > 0.0 && f < 1.0 => Ok(f),
        _ => Err(format!("{s:?}: a share of the lifetime between 0 and 1, e.g. 0.66")),
    }
}

impl Config {
    /// `--password-hashers`, with 0 read as one fewer than the cores (at least one).
    pub fn password_hashers(&self) -> usize {
        match self.password_hashers {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1)).max(1),
            n => n as usize,
        }
    }

    /// The ACME settings, with `--acme-domain`.
    pub fn acme(&self) -> Option<crate::acme::AcmeSettings> {
        if self.acme_domain.is_empty() {
            return None;
        }
        let cache = self.acme_cache.clone().unwrap_or_else(|| data_dir().join("acme"));
        Some(crate::acme::AcmeSettings {
            domains: self.acme_domain.iter().map(|d| d.trim().to_ascii_lowercase()).collect(),
            directory: self.acme_directory.clone(),
            cache,
            contact: self.acme_contact.clone(),
            directory_ca: self.acme_directory_ca.clone(),
            renew_after: self.acme_renew_after,
        })
    }

    pub fn heartbeat_timeout(&self) -> Duration {
        Duration::from_millis(self.heartbeat_timeout_ms)
    }
    pub fn auth_timeout(&self) -> Duration {
        Duration::from_millis(self.auth_timeout_ms)
    }
    pub fn ready_timeout(&self) -> Duration {
        Duration::from_millis(self.ready_timeout_ms)
    }
    /// How the quick-match queue forms tables.
    pub fn queue_rules(&self) -> crate::queue::tables::Rules {
        crate::queue::tables::Rules {
            ai_fill_ms: self.queue_ai_fill_ms,
            distinct_sources: !self.allow_same_address_tables,
            ..Default::default()
        }
    }
    pub fn vote_timeout(&self) -> Duration {
        Duration::from_millis(self.vote_timeout_ms)
    }
    pub fn lobby_grace(&self) -> Duration {
        Duration::from_millis(self.lobby_grace_ms)
    }
    pub fn lease_renewal(&self) -> Duration {
        Duration::from_millis(self.lease_ms / 3)
    }
    pub fn header_timeout(&self) -> Duration {
        Duration::from_millis(self.header_timeout_ms)
    }
    pub fn request_timeout(&self) -> Duration {
        Duration::from_millis(self.request_timeout_ms)
    }
    pub fn room_idle(&self) -> Duration {
        Duration::from_millis(self.room_idle_ms)
    }
    pub fn ai_pace(&self) -> Duration {
        Duration::from_millis(self.ai_pace_ms)
    }
    pub fn deal_break(&self) -> Duration {
        Duration::from_millis(self.deal_break_ms)
    }
    pub fn seen_grace(&self) -> Duration {
        Duration::from_millis(self.seen_grace_ms)
    }
    pub fn grace(&self) -> Duration {
        Duration::from_millis(self.reconnect_grace_ms)
    }

    /// The database URL: the flag, or SQLite in `$XDG_DATA_HOME/guandan` (`~/.local/share/guandan`).
    pub fn database_url(&self) -> String {
        if let Some(url) = &self.database_url {
            return url.clone();
        }
        format!("sqlite://{}", data_dir().join("server.db").display())
    }
}

/// `$XDG_DATA_HOME/guandan` (`~/.local/share/guandan`).
fn data_dir() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::var_os("HOME").map_or_else(|| ".".into(), PathBuf::from).join(".local/share"));
    base.join("guandan")
}

//! One live process per instance name and database. `--instance` names the rooms, the lease and
//! the queue rows a process owns; a second process started under the same name on the same
//! database (a likely misconfiguration: a service started twice, a copied unit file) would
//! restore the first's running rooms, delete its queued players and write beside it. So before
//! it touches the database, [`InstanceLock::acquire`] takes a lock that only a live process holds
//! and the OS or the database frees when that process dies (kill -9 and an immediate restart
//! work):
//!
//! - SQLite: an exclusive advisory lock (`flock`) on a file beside the database, one per instance
//!   name (`server.db.NAME.lock`), holding the PID for the refusal message. Per name, not per
//!   database file: several instances on one SQLite file (different names) are a supported setup
//!   (`tests/takeover.rs` runs two processes on one file and moves a dead one's rooms).
//! - PostgreSQL: a session-level advisory lock `pg_try_advisory_lock(key)`, the key the first 8
//!   bytes of SHA-256 of the name, held on a connection of its own kept open for the process's
//!   life. The connection is checked every few seconds; if it drops, the lock is gone with it:
//!   an error is logged and the lock is taken again on a new connection. If by then another
//!   process holds it (it started meanwhile and restored this instance's rooms), this process
//!   must stop writing: [`InstanceLock::lost`] turns true and the binary exits at once, as if
//!   killed (`main.rs`). While the database is unreachable the server keeps running (its own
//!   writes fail the same way): a database blip does not take the matches down.
//!
//! A refused start fails with [`LockError::Held`]: "instance 'NAME' is already running (another
//! guandan-server holds its lock on …); stop it or choose another --instance".

use sha2::{Digest, Sha256};
use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{ConnectOptions, Connection, Row};
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// How often the PostgreSQL lock's connection is checked, and how long a check may take.
const CHECK: Duration = Duration::from_secs(5);
/// A dead process's session may take a moment to end on the database server: a start that finds
/// the lock held tries again for this long before it refuses.
const PG_RETRY: Duration = Duration::from_millis(1500);

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "instance '{instance}' is already running (another guandan-server holds its lock on {on}); stop it or choose another --instance"
    )]
    Held { instance: String, on: String },
    #[error("instance lock file {path}: {source}")]
    File { path: String, source: std::io::Error },
    #[error("instance lock on PostgreSQL: {0}")]
    Sql(#[from] sqlx::Error),
}

/// The key of an instance's PostgreSQL advisory lock: the first 8 bytes of SHA-256 of its name
/// (prefixed, so other advisory locks of the schema, e.g. the migrations' 7878, stay apart).
pub fn pg_key(instance: &str) -> i64 {
    let digest = Sha256::new().chain_update(b"guandan-server instance\0").chain_update(instance.as_bytes()).finalize();
    i64::from_be_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// The lock file of `instance` beside the SQLite database at `db`: the name itself when it is
/// plain (letters, digits, `-`, `_`, `.`; at most 64, not starting with a dot), else `+` and 16
/// hex digits of its SHA-256 (`+` never appears in a plain name, so the two never meet).
pub fn lock_file_path(db: &Path, instance: &str) -> PathBuf {
    let plain = !instance.is_empty()
        && instance.len() <= 64
        && !instance.starts_with('.')
        && instance.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
    let tag = if plain { instance.to_string() } else { format!("+{}", hex::encode(&Sha256::digest(instance)[..8])) };
    let mut name = db.file_name().map(|n| n.to_os_string()).unwrap_or_else(|| "server.db".into());
    name.push(format!(".{tag}.lock"));
    db.with_file_name(name)
}

/// This process's hold on its instance name; released by [`InstanceLock::release`] (or when
/// dropped, or when the process dies).
pub struct InstanceLock {
    /// SQLite: the locked file (the lock lives as long as this descriptor).
    _file: Option<File>,
    /// PostgreSQL: the task keeping the lock's connection.
    keeper: Option<(watch::Sender<bool>, JoinHandle<()>)>,
    lost_tx: Option<watch::Sender<bool>>,
    lost: watch::Receiver<bool>,
}

impl InstanceLock {
    /// Takes `instance`'s lock on the database at `url` (the `--database-url` forms of
    /// [`crate::db::Db::connect`]); refuses with [`LockError::Held`] while another live process
    /// (or another server in this process) holds it. URLs this cannot lock (in-memory SQLite,
    /// unsupported schemes, which `Db::connect` refuses anyway) get no lock.
    pub async fn acquire(url: &str, instance: &str) -> Result<InstanceLock, LockError> {
        let (lost_tx, lost) = watch::channel(false);
        if let Some(rest) = url.strip_prefix("sqlite://") {
            let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
            let file = if path.is_empty() || path == ":memory:" || query.contains("mode=memory") {
                None
            } else {
                Some(lock_file(Path::new(path), instance)?)
            };
            return Ok(InstanceLock { _file: file, keeper: None, lost_tx: Some(lost_tx), lost });
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let opts = PgConnectOptions::from_str(url)?.application_name(&session_name());
            let key = pg_key(instance);
            let deadline = tokio::time::Instant::now() + PG_RETRY;
            let conn = loop {
                match pg_lock(&opts, key).await? {
                    Ok(conn) => break conn,
                    Err(holder) if tokio::time::Instant::now() >= deadline => {
                        return Err(LockError::Held { instance: instance.into(), on: holder });
                    }
                    Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
                }
            };
            tracing::info!(instance, key, "instance lock held on PostgreSQL");
            let (stop, stopped) = watch::channel(false);
            let task = tokio::spawn(keep(conn, opts, key, instance.to_string(), stopped, lost_tx));
            return Ok(InstanceLock { _file: None, keeper: Some((stop, task)), lost_tx: None, lost });
        }
        Ok(InstanceLock { _file: None, keeper: None, lost_tx: Some(lost_tx), lost })
    }

    /// Becomes true when another process took this instance's lock while this one had lost its
    /// connection to the database (PostgreSQL only): this process must stop writing at once.
    pub fn lost(&self) -> watch::Receiver<bool> {
        self.lost.clone()
    }

    /// Releases the lock (graceful shutdown, after the lease ended): the name may start again
    /// at once.
    pub async fn release(mut self) {
        if let Some((stop, task)) = self.keeper.take() {
            let _ = stop.send(true);
            let _ = task.await;
        }
        drop(self.lost_tx.take());
    }
}

impl Drop for InstanceLock {
    fn drop(&mut self) {
        // Not released (a start that failed later): the connection closes with its task.
        if let Some((_, task)) = self.keeper.take() {
            task.abort();
        }
    }
}

/// Opens (never truncates: the holder's PID is in it) and locks the lock file; writes our PID.
/// The database's path is resolved first (symbolic links, `..`), so two spellings of one file
/// meet at one lock file.
fn lock_file(db: &Path, instance: &str) -> Result<File, LockError> {
    let dir = db.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|source| LockError::File { path: dir.display().to_string(), source })?;
    let db = std::fs::canonicalize(db)
        .or_else(|_| std::fs::canonicalize(dir).map(|d| d.join(db.file_name().unwrap_or("server.db".as_ref()))))
        .unwrap_or_else(|_| db.to_path_buf());
    let path = lock_file_path(&db, instance);
    let io = |source| LockError::File { path: path.display().to_string(), source };
    let mut file =
        std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path).map_err(io)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            let holder = if holder.is_empty() { "pid unknown".to_string() } else { holder.to_string() };
            return Err(LockError::Held { instance: instance.into(), on: format!("{} ({holder})", path.display()) });
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
    }
    file.set_len(0).map_err(io)?;
    file.rewind().map_err(io)?;
    file.write_all(format!("pid {} on {}\n", std::process::id(), hostname()).as_bytes()).map_err(io)?;
    tracing::info!(instance, file = %path.display(), "instance lock held");
    Ok(file)
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "?".into())
}

/// The lock session's `application_name`: says who holds a lock (the refusal message) and lets
/// this process recognize a stale session of its own. A random tag first (PostgreSQL keeps 63
/// bytes): PIDs repeat across containers.
fn session_name() -> String {
    static NAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    NAME.get_or_init(|| {
        let tag = getrandom::u64().unwrap_or(0) as u32;
        let mut name = format!("guandan-server {tag:08x} pid {} on {}", std::process::id(), hostname());
        while name.len() > 63 {
            name.pop();
        }
        name
    })
    .clone()
}

/// One attempt: a new session holding the lock, or who holds it (for the message).
async fn pg_lock(opts: &PgConnectOptions, key: i64) -> Result<Result<PgConnection, String>, LockError> {
    let mut conn = opts.connect().await?;
    let got: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)").bind(key).fetch_one(&mut conn).await?;
    if got {
        return Ok(Ok(conn));
    }
    let holder = holder(&mut conn, key).await.unwrap_or_else(|e| format!("holder not readable: {e}"));
    let _ = conn.close().await;
    Ok(Err(holder))
}

/// Where the lock is held and by which session: "PostgreSQL database 'D', session 'NAME' from ADDR".
async fn holder(conn: &mut PgConnection, key: i64) -> Result<String, sqlx::Error> {
    let (hi, lo) = ((key as u64 >> 32) as i64, (key as u64 & 0xffff_ffff) as i64);
    let db: String = sqlx::query_scalar("SELECT current_database()").fetch_one(&mut *conn).await?;
    let row = sqlx::query(
        "SELECT a.application_name, host(a.client_addr) AS addr, a.pid
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND l.classid::bigint = $1 AND l.objid::bigint = $2
         LIMIT 1",
    )
    .bind(hi)
    .bind(lo)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(match row {
        Some(r) => {
            let app: Option<String> = r.try_get("application_name").ok().flatten();
            let addr: Option<String> = r.try_get("addr").ok().flatten();
            let pid: i32 = r.try_get("pid").unwrap_or(0);
            format!(
                "PostgreSQL database '{db}', session '{}' from {} (backend pid {pid})",
                app.filter(|a| !a.is_empty()).unwrap_or_else(|| "?".into()),
                addr.unwrap_or_else(|| "a local socket".into())
            )
        }
        None => format!("PostgreSQL database '{db}'"),
    })
}

/// Keeps the lock's session: checks it every [`CHECK`], takes the lock again on a new session if
/// it dropped, unlocks and closes it at release.
async fn keep(
    mut conn: PgConnection,
    opts: PgConnectOptions,
    key: i64,
    instance: String,
    mut stop: watch::Receiver<bool>,
    lost: watch::Sender<bool>,
) {
    loop {
        tokio::select! {
            _ = tokio::time::sleep(CHECK) => {}
            _ = stop.wait_for(|s| *s) => break,
        }
        match tokio::time::timeout(CHECK, conn.ping()).await {
            Ok(Ok(())) => continue,
            Ok(Err(e)) => {
                tracing::error!(instance, error = %e, "instance lock: its database session is lost; taking the lock again")
            }
            Err(_) => {
                tracing::error!(instance, "instance lock: its database session does not answer; taking the lock again")
            }
        }
        // The old session may still hold the lock on the server's side (a network cut): it is
        // recognized by its application_name, and the lock is tried again until it ends.
        let me = session_name();
        conn = loop {
            let attempt = tokio::time::timeout(CHECK, pg_lock(&opts, key)).await;
            match attempt {
                Ok(Ok(Ok(c))) => {
                    tracing::warn!(instance, "instance lock taken again");
                    break c;
                }
                Ok(Ok(Err(holder))) if holder.contains(&format!("session '{me}'")) => {
                    tracing::warn!(
                        instance,
                        "instance lock: still held by this process's old session; waiting for it to end"
                    )
                }
                Ok(Ok(Err(holder))) if holder.contains("session '") => {
                    tracing::error!(
                        instance,
                        holder = %holder,
                        "instance lock taken by another process while this one was cut off: this process must stop"
                    );
                    let _ = lost.send(true);
                    return;
                }
                Ok(Ok(Err(holder))) => {
                    tracing::error!(instance, holder = %holder, "instance lock held by a session that cannot be identified; trying again")
                }
                Ok(Err(e)) => tracing::error!(instance, error = %e, "instance lock not taken again; trying again"),
                Err(_) => tracing::error!(instance, "instance lock: the database does not answer; trying again"),
            }
            tokio::select! {
                _ = tokio::time::sleep(CHECK) => {}
                _ = stop.wait_for(|s| *s) => return,
            }
        };
    }
    let _ = sqlx::query("SELECT pg_advisory_unlock($1)").bind(key).execute(&mut conn).await;
    let _ = conn.close().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_file_names_are_deterministic_and_apart() {
        assert_eq!(pg_key("main"), pg_key("main"));
        assert_ne!(pg_key("main"), pg_key("main2"));
        assert_ne!(pg_key("main"), 7878);
        let db = Path::new("/var/lib/guandan/server.db");
        assert_eq!(lock_file_path(db, "main"), Path::new("/var/lib/guandan/server.db.main.lock"));
        let odd = lock_file_path(db, "../etc/x");
        assert_eq!(odd.parent(), db.parent(), "{odd:?}");
        assert!(odd.to_string_lossy().contains("server.db.+"), "{odd:?}");
        assert_ne!(lock_file_path(db, "a/b"), lock_file_path(db, "a:b"));
        assert_eq!(lock_file_path(Path::new("s.db"), "x"), Path::new("s.db.x.lock"));
    }

    #[tokio::test]
    async fn a_file_lock_refuses_a_second_holder_until_released() {
        let dir = std::env::temp_dir().join(format!("guandan-lock-unit-{}", std::process::id()));
        let url = format!("sqlite://{}/server.db", dir.display());
        let a = InstanceLock::acquire(&url, "main").await.expect("first");
        let err = InstanceLock::acquire(&url, "main").await.err().expect("second refused").to_string();
        assert!(
            err.starts_with("instance 'main' is already running (another guandan-server holds its lock on "),
            "{err}"
        );
        assert!(err.contains(&format!("pid {} on", std::process::id())), "{err}");
        let spelled =
            format!("sqlite://{}/../{}/server.db?mode=rwc", dir.display(), dir.file_name().unwrap().display());
        assert!(InstanceLock::acquire(&spelled, "main").await.is_err(), "another spelling of the same file");
        let other = InstanceLock::acquire(&url, "other").await.expect("another name");
        a.release().await;
        InstanceLock::acquire(&url, "main").await.expect("again after release").release().await;
        other.release().await;
        let _ = std::fs::remove_dir_all(dir);
    }
}

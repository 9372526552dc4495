//! When the certificate is read again: on SIGHUP, and when either file changes (`--tls-poll-ms`).
//!
//! The files are polled (their modification time, size and inode), not watched with inotify:
//! certbot swaps symbolic links in `live/`, Kubernetes swaps a `..data` link over a mounted
//! secret, and other tools rename a new file over the old one. inotify sees none of these on the
//! watched path without watching directories up every link, and nothing at all on network file
//! systems; two `stat`s every few seconds cost nothing and see them all.

use super::Tls;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// What tells a file changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
    inode: u64,
}

fn stamp(path: &Path) -> Option<Stamp> {
    // `metadata` follows symbolic links: a swapped link shows as the new target's stamp.
    let m = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&m);
    #[cfg(not(unix))]
    let inode = 0;
    Some(Stamp { modified: m.modified().ok(), len: m.len(), inode })
}

type Stamps = (Option<Stamp>, Option<Stamp>);

fn stamps(tls: &Tls) -> Stamps {
    (stamp(&tls.cert_path), stamp(&tls.key_path))
}

/// Starts watching. The SIGHUP handler is installed before this returns: from then on a SIGHUP
/// reloads instead of ending the process.
pub fn spawn(tls: Arc<Tls>, every: Duration, mut shutdown: watch::Receiver<bool>) -> std::io::Result<JoinHandle<()>> {
    #[cfg(unix)]
    let mut hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())?;
    let mut loaded = stamps(&tls);
    Ok(tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut last = loaded;
        loop {
            #[cfg(unix)]
            let hup = hangup.recv();
            #[cfg(not(unix))]
            let hup = std::future::pending::<Option<()>>();
            tokio::select! {
                _ = tick.tick() => {
                    let now = stamps(&tls);
                    // Read once the change has settled (the same at two polls in a row), so a
                    // chain written before its key is not read half-way. A failed reload is not
                    // retried until the files change again (or SIGHUP).
                    if now != loaded && now == last {
                        let _ = tls.reload("the files changed");
                        loaded = now;
                    }
                    last = now;
                }
                _ = hup => {
                    let _ = tls.reload("SIGHUP");
                    loaded = stamps(&tls);
                    last = loaded;
                }
                _ = shutdown.wait_for(|s| *s) => break,
            }
        }
    }))
}

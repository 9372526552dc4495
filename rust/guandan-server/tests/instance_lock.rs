//! One live process per instance name and database (`src/instance_lock.rs`). A second
//! `guandan-server` started with the `--instance` of a running one on the same database (SQLite
//! file or PostgreSQL database) exits non-zero at once, before it touches anything: the first
//! keeps serving, its running room and its queued player untouched. Another instance name on the
//! same database starts; after kill -9 of the first a restart under its name starts at once.

mod common;

use common::*;
use guandan_proto::{ClientMsg, ServerMsg};
use guandan_server::Server;
use guandan_server::config::Config;
use guandan_server::db::Db;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Every client's view has the same state hash (a second writer would fork the room).
async fn one_state(c: &mut [Client]) -> String {
    let first = c[0].resync_hash().await;
    for x in c[1..].iter_mut() {
        assert_eq!(x.resync_hash().await, first, "{}: the same state as north", x.name);
    }
    first
}

/// Starts the server binary expecting it to refuse: its exit status and stderr. Fails the test
/// if it starts listening instead, or neither listens nor exits within [`WAIT`].
fn start_refused(url: &str, instance: &str) -> (ExitStatus, String) {
    let mut args: Vec<&str> = vec!["--listen", "127.0.0.1:0", "--database-url", url, "--instance", instance];
    args.extend_from_slice(TEST_DEFAULTS);
    let mut child = Command::new(env!("CARGO_BIN_EXE_guandan-server"))
        .args(&args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start guandan-server");
    let stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    match rx.recv_timeout(WAIT) {
        Ok(line) if line.starts_with("listening on") => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("a second copy of instance {instance:?} started: {line:?}");
        }
        Ok(_) => {}
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("a second copy of instance {instance:?} neither listened nor exited within {WAIT:?}");
        }
    }
    let status = child.wait().expect("wait");
    (status, err.join().expect("stderr"))
}

/// The first copy runs a match and has a player waiting in its quick-match queue; a second copy
/// under the same name is refused with the message and changes nothing (same room owner, every
/// client at one state, stored actions = applied actions, the queued player still queued, the
/// match goes on); another name on the same database starts; kill -9 of the first and a restart
/// under its name: it starts at once and the match goes on from the stored log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_copy_of_a_running_instance_is_refused_and_changes_nothing() {
    for db_name in databases() {
        let url = database_url(&db_name);
        let tag = if db_name == "sqlite" { "sq" } else { "pg" };
        let name = format!("lock-{}-{tag}", std::process::id());
        let flags = ["--queue-pool", &name, "--queue-ai-fill-ms", "600000"];
        let mut a = ServerProc::start(&url, &name, "127.0.0.1:0", &flags);
        let (code, mut c) = four_player_room(a.addr, 4242).await;
        play(&mut c, 30).await;
        let mut waiter = Client::new(a.addr, "waiter").await;
        waiter.send(&ClientMsg::QueueJoin { rules: Some("competition".into()) }).await;
        waiter.until("queued", |m| matches!(m, ServerMsg::QueueStatus { queued: true, .. })).await;
        let db = Db::connect(&url).await.expect("database");
        let row = db.room(&code).await.unwrap().expect("the room's row");
        assert_eq!((row.instance.as_str(), row.url.as_str()), (name.as_str(), a.url().as_str()));
        let queued = |rows: Vec<guandan_server::queue::store::QueueRow>| {
            rows.iter().any(|r| r.player_id == waiter.player_id && r.instance == name)
        };
        assert!(queued(db.queue_waiting(&name).await.unwrap()), "the waiter is queued");

        let (status, err) = start_refused(&url, &name);
        assert!(!status.success(), "the second copy must fail: {status:?}\n{err}");
        let expected = format!("instance '{name}' is already running (another guandan-server holds its lock on ");
        assert!(err.contains(&expected), "the refusal names the instance and the lock: {err}");
        assert!(err.contains("stop it or choose another --instance"), "{err}");

        // The first copy is untouched: its room, its queued player, one state, one writer.
        let row = db.room(&code).await.unwrap().expect("the room's row");
        assert_eq!((row.instance.as_str(), row.url.as_str()), (name.as_str(), a.url().as_str()));
        assert!(queued(db.queue_waiting(&name).await.unwrap()), "the waiter is still queued");
        let played = play(&mut c, 30).await;
        one_state(&mut c).await;
        let stored = db.actions(&code, row.match_no).await.unwrap().len() as u64;
        assert_eq!(stored, played, "stored actions = applied actions (one writer)");

        // Another instance name on the same database starts.
        let other = format!("{name}-other");
        let b = ServerProc::start(&url, &other, "127.0.0.1:0", &["--queue-pool", &other]);
        assert_eq!(http(b.addr, "GET", "/healthz", "").0, 200);
        drop(b);

        // kill -9: the dead process's lock goes with it, a restart under its name starts at once.
        let t = std::time::Instant::now();
        a.kill_and_restart();
        eprintln!("[{db_name}] restarted after kill -9 in {:?}", t.elapsed());
        let seq = c[0].last_seq;
        for x in c.iter_mut() {
            x.reconnect(a.addr).await;
            x.prompt = None;
            let last = x.last_seq;
            x.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: Some(last) }).await;
            x.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
        }
        one_state(&mut c).await;
        assert_eq!(c[0].last_seq, seq);
        let played = play(&mut c, 20).await;
        assert!(played > seq, "the match goes on after the restart");
        one_state(&mut c).await;
        drop(waiter);
        db.close().await;
        eprintln!("[{db_name}] second copy refused: {}", err.lines().last().unwrap_or(""));
    }
}

fn config(url: &str, instance: &str) -> Config {
    use clap::Parser;
    Config::parse_from(["guandan-server", "--listen", "127.0.0.1:0", "--database-url", url, "--instance", instance])
}

/// Servers started inside one process (the library's `Server::start`) follow the same rule: a
/// second server under a running name is refused; another name on the same database (the same
/// SQLite file too) starts; once the first shut down, its name starts again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_process_servers_follow_the_same_rule() {
    for db_name in databases() {
        let url = database_url(&db_name);
        let tag = if db_name == "sqlite" { "sq" } else { "pg" };
        let name = format!("lock-inproc-{}-{tag}", std::process::id());
        let first = Server::start(config(&url, &name)).await.expect("the first server");
        let err = match Server::start(config(&url, &name)).await {
            Ok(s) => {
                s.shutdown().await;
                panic!("a second server under {name:?} started in the same process");
            }
            Err(e) => e.to_string(),
        };
        assert!(err.contains(&format!("instance '{name}' is already running")), "{err}");
        let other = Server::start(config(&url, &format!("{name}-other"))).await.expect("another name starts");
        other.shutdown().await;
        first.shutdown().await;
        let again = Server::start(config(&url, &name)).await.expect("its name starts again after shutdown");
        again.shutdown().await;
    }
}

/// PostgreSQL: the lock lives on a session of its own. When that session ends under a running
/// server (here: `pg_terminate_backend`), the server takes the lock again on a new session and
/// goes on serving. When another process took the lock meanwhile (here: the test, as a second
/// copy would), the server exits non-zero at once: it must not write beside the new owner.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_postgres_lock_is_taken_again_or_the_server_stops() {
    use sqlx::Connection;
    let Some(pg) = databases().into_iter().find(|d| d != "sqlite") else {
        eprintln!("no GUANDAN_TEST_POSTGRES: skipped");
        return;
    };
    let name = format!("lock-lost-{}", std::process::id());
    let key = guandan_server::instance_lock::pg_key(&name);
    let (hi, lo) = ((key as u64 >> 32) as i64, (key as u64 & 0xffff_ffff) as i64);
    let mut conn = sqlx::PgConnection::connect(&pg).await.expect("postgres");
    let holder = async |conn: &mut sqlx::PgConnection| -> Option<i32> {
        sqlx::query_scalar(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
             AND classid::bigint = $1 AND objid::bigint = $2",
        )
        .bind(hi)
        .bind(lo)
        .fetch_optional(conn)
        .await
        .expect("pg_locks")
    };
    let mut args: Vec<&str> = vec!["--listen", "127.0.0.1:0", "--database-url", &pg, "--instance", &name];
    args.extend_from_slice(TEST_DEFAULTS);
    let mut child = Command::new(env!("CARGO_BIN_EXE_guandan-server"))
        .args(&args)
        .env("RUST_LOG", "warn,guandan_server::instance_lock=info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start guandan-server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("stdout");
    let addr: std::net::SocketAddr =
        line.trim().strip_prefix("listening on ").unwrap_or_else(|| panic!("{line:?}")).parse().expect("addr");
    let mut stderr = child.stderr.take().expect("stderr");
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let first = holder(&mut conn).await.expect("the server holds its lock");

    // Its session ends: the server takes the lock again on a new one and keeps serving.
    sqlx::query("SELECT pg_terminate_backend($1)").bind(first).execute(&mut conn).await.unwrap();
    let deadline = std::time::Instant::now() + WAIT;
    let second = loop {
        match holder(&mut conn).await {
            Some(p) if p != first => break p,
            _ => assert!(std::time::Instant::now() < deadline, "the lock was not taken again within {WAIT:?}"),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(child.try_wait().unwrap().is_none(), "the server goes on");
    assert_eq!(http(addr, "GET", "/healthz", "").0, 200);

    // Its session ends and another process takes the lock first: the server exits.
    let mut held = false;
    let mut current = second;
    for _ in 0..20 {
        sqlx::query("SELECT pg_terminate_backend($1)").bind(current).execute(&mut conn).await.unwrap();
        held = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)").bind(key).fetch_one(&mut conn).await.unwrap();
        if held {
            break;
        }
        // The server's retry won the race this time: end its new session too.
        tokio::time::sleep(Duration::from_millis(50)).await;
        current = holder(&mut conn).await.unwrap_or(current);
    }
    assert!(held, "the test never got the lock");
    let deadline = std::time::Instant::now() + WAIT;
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(std::time::Instant::now() < deadline, "the server did not stop within {WAIT:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(!status.success(), "{status:?}");
    let err = err.join().unwrap();
    assert!(err.contains(&format!("instance '{name}' was taken by another process")), "{err}");
    eprintln!("the server's log:\n{err}");
    let _ = sqlx::query("SELECT pg_advisory_unlock($1)").bind(key).execute(&mut conn).await;
    let _ = conn.close().await;
}

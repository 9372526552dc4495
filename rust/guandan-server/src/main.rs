use clap::Parser;
use guandan_server::Server;
use guandan_server::config::Config;

/// Threads for blocking work (only L3 AI decisions: L1/L2 are decided in the room's task).
/// Tokio's default (512 threads of 2 MiB stacks) lets a burst of slow decisions grow memory.
const MAX_BLOCKING_THREADS: usize = 8;

fn main() {
    one_arena_on_one_core();
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("guandan-server: cannot start the async runtime: {e}");
            std::process::exit(1);
        }
    };
    rt.block_on(serve());
}

async fn serve() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,guandan_server=info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cfg = Config::parse();
    let server = match Server::start(cfg).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("guandan-server: {e}");
            std::process::exit(1);
        }
    };
    println!("listening on {}", server.addr);
    #[cfg(feature = "agones")]
    guandan_server::agones_sdk::spawn(server.app.clone());
    let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("guandan-server: cannot watch SIGTERM: {e}");
            std::process::exit(1);
        }
    };
    let mut lost = server.instance_lock_lost();
    let lost = async move {
        match lost.wait_for(|l| *l).await {
            Ok(_) => {}
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
        _ = lost => {
            // Another process runs this instance now (it restored its rooms): stop writing at
            // once, as if killed. No graceful shutdown: ending the lease would end the other's.
            eprintln!(
                "guandan-server: instance '{}' was taken by another process while this one was cut off from the database; exiting",
                server.app.cfg().instance
            );
            std::process::exit(1);
        }
    }
    tracing::info!("shutting down");
    server.shutdown().await;
}

/// On one core, glibc's malloc keeps an arena per thread that ever allocated (the runtime's
/// worker, SQLite's, the blocking pool's): memory freed in one is not reused by the others.
/// One arena measured 12 % less resident memory a room (2,000 rooms, `tools/swarm-bench`) and
/// no more CPU: nothing runs in parallel to contend for it. `MALLOC_ARENA_MAX` still decides
/// when set; with more cores glibc's default stays.
fn one_arena_on_one_core() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let one_core = std::thread::available_parallelism().is_ok_and(|n| n.get() == 1);
        if one_core && std::env::var_os("MALLOC_ARENA_MAX").is_none() {
            // SAFETY: mallopt only sets a malloc parameter; called before any other thread exists.
            unsafe {
                libc::mallopt(libc::M_ARENA_MAX, 1);
            }
        }
    }
}

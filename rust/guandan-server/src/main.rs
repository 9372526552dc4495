use clap::Parser;
use guandan_server::Server;
use guandan_server::config::Config;

#[tokio::main]
async fn main() {
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
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
    tracing::info!("shutting down");
    server.shutdown().await;
}

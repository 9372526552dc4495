//! Agones integration (cargo feature `agones`): tells the Agones sidecar that this game server is
//! Ready, keeps its Health pings going, marks it Allocated while it hosts rooms (and Ready again
//! when empty, so the FleetAutoscaler may scale it down), and reports player and room counts as
//! labels and through the player-tracking API. Shutdown is reported on SIGTERM.

use crate::App;
use std::sync::Arc;
use std::time::Duration;

/// Most connections one instance is sized for (the Fleet's player capacity).
const PLAYER_CAPACITY: i64 = 4000;

pub fn spawn(app: Arc<App>) {
    tokio::spawn(async move {
        let mut sdk = match agones::Sdk::new(None, Some(Duration::from_secs(30))).await {
            Ok(sdk) => sdk,
            Err(e) => {
                tracing::error!(error = %e, "agones: no SDK sidecar; running without it");
                return;
            }
        };
        if let Err(e) = sdk.ready().await {
            tracing::error!(error = %e, "agones: Ready failed");
        }
        // Redirects must name the address Agones gave this game server (node address + host port).
        if let Ok(gs) = sdk.get_gameserver().await
            && let Some(status) = gs.status
            && let Some(port) = status.ports.first()
        {
            let scheme = if app.tls().is_some() { "https" } else { "http" };
            *app.public_url().lock() = format!("{scheme}://{}:{}", status.address, port.port);
            tracing::info!(url = %app.public_url().lock(), "agones: public address");
        }
        let mut alpha = sdk.alpha().clone();
        if let Err(e) = alpha.set_player_capacity(PLAYER_CAPACITY).await {
            tracing::warn!(error = %e, "agones: player tracking unavailable (alpha feature off?)");
        }
        let health = sdk.health_check();
        let mut shutdown = app.shutdown().clone();
        let mut allocated = false;
        loop {
            let stopping = tokio::select! {
                _ = tokio::time::sleep(Duration::from_secs(2)) => false,
                r = shutdown.wait_for(|v| *v) => r.is_ok(),
            };
            if stopping {
                let _ = sdk.shutdown().await;
                return;
            }
            let _ = health.send(()).await;
            let rooms = app.metrics().rooms.get();
            let players = app.metrics().connections.get();
            let _ = sdk.set_label("rooms", rooms.to_string()).await;
            let _ = sdk.set_label("players", players.to_string()).await;
            if rooms > 0 && !allocated {
                allocated = sdk.allocate().await.is_ok();
            } else if rooms == 0 && allocated {
                allocated = sdk.ready().await.is_err();
            }
        }
    });
}

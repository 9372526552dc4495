//! What `/metrics` shows of the accounts: counts only (never a name, token or code).

use prometheus_client::metrics::counter::Counter;
use prometheus_client::registry::Registry;

#[derive(Default)]
pub struct AccountMetrics {
    pub logins: Counter,
    pub login_failures: Counter,
    pub claims: Counter,
    pub transfers: Counter,
    pub transfer_failures: Counter,
    pub limited: Counter,
    pub busy: Counter,
    pub rotations: Counter,
    pub ended: Counter,
    pub expired: Counter,
}

impl AccountMetrics {
    pub fn register(&self, r: &mut Registry) {
        r.register("account_logins", "Logins with a name and password that succeeded", self.logins.clone());
        r.register(
            "account_login_failures",
            "Logins refused: unknown name or wrong password (one answer for both)",
            self.login_failures.clone(),
        );
        r.register("accounts_claimed", "Guest accounts claimed with a login name and password", self.claims.clone());
        r.register(
            "account_transfers",
            "Transfer codes redeemed (a new session on another device)",
            self.transfers.clone(),
        );
        r.register(
            "account_transfer_failures",
            "Transfer codes refused: wrong, used or expired",
            self.transfer_failures.clone(),
        );
        r.register(
            "account_attempts_limited",
            "Logins, claims and transfer redemptions refused by the per-name or per-address limits",
            self.limited.clone(),
        );
        r.register(
            "account_attempts_busy",
            "Logins and claims refused as busy: the password-hash queue's rest lane was full (nothing spent)",
            self.busy.clone(),
        );
        r.register("sessions_rotated", "Session tokens replaced at hello as they aged", self.rotations.clone());
        r.register("sessions_ended", "Sessions ended by log out or log out everywhere", self.ended.clone());
        r.register("sessions_expired", "Sessions refused and deleted as expired when presented", self.expired.clone());
    }
}

//! One seat's client until the match is stored: acts on prompts (at once or after thinking),
//! heartbeats, drops and rejoins, and records what it saw.

use super::link::Server;
use super::link::{HEARTBEAT, Link, rejoin};
use super::tally::{Seen, Totals};
use guandan_ai::{AiLevel, AiProfile, Budget, make_agent};
use guandan_core::event::ActionKind;
use guandan_core::seat::Seat;
use guandan_proto::{ClientMsg, ServerMsg, WireOut};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

/// How a seat's client plays.
pub(crate) struct Client {
    pub(crate) level: AiLevel,
    pub(crate) drop_rate: f64,
    pub(crate) think: Duration,
    pub(crate) seed: u64,
    pub(crate) totals: Arc<Totals>,
}

/// One seat's client until the match is stored: acts on prompts, heartbeats, drops and rejoins.
/// A connection the server closed (restart, shutdown, too slow to read) is come back to the
/// same way as a drop, with backoff ([`rejoin`]).
pub(crate) async fn play(addr: Server, mut link: Link, seat: Seat, how: Client) -> Result<(Seen, u32, Link), String> {
    let Client { level, drop_rate, think, seed, totals } = how;
    let mut agent = make_agent(&AiProfile::level(level));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut jitter = ChaCha8Rng::seed_from_u64(seed ^ 0x6a09_e667_f3bc_c908);
    let mut seen = Seen::arriving();
    let mut sent: Option<(u64, Instant)> = None;
    let mut quiet = 0;
    let mut lost = 0;
    // A prompt being thought about: (when to answer, the view).
    let mut thinking: Option<(Instant, guandan_proto::TableView)> = None;
    let mut ending = Ending::default();
    loop {
        match step(&mut link, &mut agent, &mut rng, &mut thinking, &mut sent).await {
            Step::Message(m) => {
                quiet = 0;
                let mut prompt = None;
                match *m {
                    ServerMsg::Applied { action_seq, actions, state_hash, prompt: p, seat: actor, events } => {
                        // Counted as received (the server's losses and repeats are what is measured).
                        for seq in action_seq.saturating_sub(u64::from(actions)) + 1..=action_seq {
                            seen.count(seq);
                        }
                        if seat == Seat::ZERO {
                            totals.latency.actions_heard(u64::from(actions));
                        }
                        for e in &events {
                            ending.heard(seat, e);
                        }
                        seen.hash(action_seq, &state_hash);
                        // Our own intent is confirmed by our own action (two payers act side by side).
                        if let Some((seq, at)) = sent
                            && action_seq > seq
                            && actor == seat
                        {
                            totals.latency.record(at.elapsed().as_micros() as u64);
                            sent = None;
                        }
                        prompt = p;
                    }
                    ServerMsg::State { action_seq, state_hash, view, .. } => {
                        seen.hash(action_seq, &state_hash);
                        seen.state(action_seq);
                        if view.seat.is_some_and(|s| view.to_act.contains(&s)) {
                            prompt = Some(view);
                        }
                    }
                    ServerMsg::MatchStored { match_no, .. } => return Ok((seen, match_no, link)),
                    // Back after a restart that caught the room between the stored match and its
                    // announcement: the room came back as a lobby; the match is the last stored.
                    ServerMsg::Room { room } if !room.state.locked() && room.matches > 0 && lost > 0 => {
                        let _ = link.send(&ClientMsg::Leave).await;
                        return Ok((seen, room.matches - 1, link));
                    }
                    ServerMsg::Error { code: err, message, .. } => {
                        if ending.in_flight() {
                            // Ending the match raced another seat's action (a stale seq): sent
                            // again when due. The server did right; no protocol error.
                            ending.refused();
                            totals.ending_retries.fetch_add(1, Relaxed);
                        } else {
                            let phase = totals.latency.phase();
                            if phase == super::latency::Phase::Steady {
                                totals.steady_errors.fetch_add(1, Relaxed);
                            }
                            if seen.errors < 3 {
                                eprintln!("protocol error {err}: {message} (seat {seat}, {phase:?})");
                            }
                            seen.errors += 1;
                        }
                        // Refused: ask for the state and decide again.
                        sent = None;
                        prompt = None;
                        if let Err(e) = link.send(&ClientMsg::Resync).await {
                            link = reconnect(addr.clone(), link, &mut jitter, &mut lost, seat, &e).await?;
                            seen.rejoined();
                            thinking = None;
                        }
                    }
                    _ => {}
                }
                // A drop: gone without a word, then back with the last action seq.
                if drop_rate > 0.0 && prompt.is_none() && (rng.next_u64() as f64 / u64::MAX as f64) < drop_rate {
                    link.close().await;
                    link = rejoin(addr.clone(), link, &mut jitter).await?;
                    seen.rejoined();
                    sent = None;
                    thinking = None;
                    continue;
                }
                // The run is over: this table ends its match (beside the play, one intent at a time).
                if sent.is_none()
                    && totals.stop.load(Relaxed)
                    && let Some(kind) = ending.next(seat)
                {
                    let at = link.session.last_seq().unwrap_or(0);
                    let intent = link.session.intent(at, kind);
                    match link.send(&intent).await {
                        Ok(()) => {
                            sent = Some((at, Instant::now()));
                            // A duty being thought about is asked again after this action.
                            thinking = None;
                            prompt = None;
                        }
                        Err(e) => {
                            link = reconnect(addr.clone(), link, &mut jitter, &mut lost, seat, &e).await?;
                            seen.rejoined();
                            thinking = None;
                        }
                    }
                }
                // One intent at a time: a prompt while ours is in flight is for the same duty.
                if let Some(view) = prompt.filter(|_| sent.is_none()) {
                    if think.is_zero() {
                        let d = agent.decide(&view, &mut rng, &Budget::unlimited());
                        let intent = link.session.intent(view.seq, d.action);
                        match link.send(&intent).await {
                            Ok(()) => sent = Some((view.seq, Instant::now())),
                            Err(e) => {
                                link = reconnect(addr.clone(), link, &mut jitter, &mut lost, seat, &e).await?;
                                seen.rejoined();
                                thinking = None;
                            }
                        }
                    } else {
                        // The newest prompt replaces one still being thought about (same duty,
                        // newer state).
                        let at = thinking.as_ref().map_or_else(|| Instant::now() + think, |(at, _)| *at);
                        thinking = Some((at, view));
                    }
                }
            }
            Step::Quiet => {
                quiet += 1;
                if quiet > 15 {
                    let at = link.session.last_seq().unwrap_or(0);
                    return Err(format!("seat {seat}: nothing for 60 s at action {at}"));
                }
            }
            Step::Busy => {}
            Step::Lost(e) => {
                link = reconnect(addr.clone(), link, &mut jitter, &mut lost, seat, &e).await?;
                seen.rejoined();
                sent = None;
                thinking = None;
            }
        }
    }
}

/// The connection is gone (the server closed it, or died): rejoin, a bounded number of times.
async fn reconnect(
    addr: Server,
    link: Link,
    jitter: &mut ChaCha8Rng,
    lost: &mut u32,
    seat: Seat,
    why: &str,
) -> Result<Link, String> {
    *lost += 1;
    if *lost > 20 {
        return Err(format!("seat {seat}: connection lost {lost} times, last: {why}"));
    }
    rejoin(addr, link, jitter).await.map_err(|e| format!("seat {seat}: {e}"))
}

/// What one turn of a seat's loop gave.
enum Step {
    Message(Box<ServerMsg>),
    /// Four seconds without a message (a heartbeat was sent).
    Quiet,
    /// Something was sent (a thought-out intent); nothing received.
    Busy,
    /// The connection failed.
    Lost(String),
}

/// Waits for the next message, answering a thought-about prompt when its time comes and
/// heartbeating when the table is quiet.
async fn step(
    link: &mut Link,
    agent: &mut Box<dyn guandan_ai::Agent>,
    rng: &mut ChaCha8Rng,
    thinking: &mut Option<(Instant, guandan_proto::TableView)>,
    sent: &mut Option<(u64, Instant)>,
) -> Step {
    let wait = thinking.as_ref().map_or(HEARTBEAT, |(at, _)| at.saturating_duration_since(Instant::now()));
    let m = match tokio::time::timeout(wait, link.recv()).await {
        Ok(Ok((m, _))) => m,
        Ok(Err(e)) => return Step::Lost(e),
        Err(_) => {
            if let Some((_, view)) = thinking.take() {
                let d = agent.decide(&view, rng, &Budget::unlimited());
                let intent = link.session.intent(view.seq, d.action);
                if let Err(e) = link.send(&intent).await {
                    return Step::Lost(e);
                }
                *sent = Some((view.seq, Instant::now()));
                return Step::Busy;
            }
            // Quiet table (others thinking, or a reconnect in progress): stay alive.
            if let Err(e) = link.send(&ClientMsg::Heartbeat).await {
                return Step::Lost(e);
            }
            return Step::Quiet;
        }
    };
    // A heartbeat when nothing was sent for a while (the session keeps the time).
    if let Ok(Some(beat)) = link.session.tick(Instant::now())
        && let Err(e) = link.send(&beat).await
    {
        return Step::Lost(e);
    }
    Step::Message(Box::new(m))
}

/// How a seat ends its match once the run is over (`--duration-s`): seat 0 proposes that its
/// team surrenders; its partner (seat 2) and one opponent (seat 1) accept. Seat 3 stays out of
/// the vote: once the match is over a fourth answer would only be refused.
#[derive(Default)]
struct Ending {
    /// A proposal is open (announced, not yet closed by a refusal).
    vote_open: bool,
    /// This seat's part is in flight.
    sent: bool,
    /// This seat's part was announced.
    confirmed: bool,
}

impl Ending {
    /// What this seat sends now, if anything (and marks it sent).
    fn next(&mut self, seat: Seat) -> Option<ActionKind> {
        if self.sent || self.confirmed {
            return None;
        }
        let kind = match seat {
            Seat::ZERO if !self.vote_open => ActionKind::ProposeSurrender,
            Seat::ONE | Seat::TWO if self.vote_open => ActionKind::SurrenderVote { accept: true },
            _ => return None,
        };
        self.sent = true;
        Some(kind)
    }

    /// An announcement: the vote's course, and this seat's part in it.
    fn heard(&mut self, seat: Seat, e: &WireOut) {
        match e {
            WireOut::SurrenderProposed { seat: s } => {
                self.vote_open = true;
                if *s == seat {
                    self.confirmed = true;
                }
            }
            WireOut::SurrenderVoted { seat: s, accept: true } if *s == seat => self.confirmed = true,
            // Closed by a refusal: the proposer proposes again.
            WireOut::SurrenderVoted { accept: false, .. } => *self = Ending::default(),
            _ => {}
        }
    }

    /// This seat's part was sent and is not answered yet.
    fn in_flight(&self) -> bool {
        self.sent && !self.confirmed
    }

    /// The server refused this seat's part: it is sent again when due.
    fn refused(&mut self) {
        self.sent = false;
    }
}

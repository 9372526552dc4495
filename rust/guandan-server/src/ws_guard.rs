//! A guard on what a WebSocket client sends, below the WebSocket layer: it reads the client's
//! frame headers as the bytes pass on their way to tungstenite (which assembles fragments and
//! answers pings by itself, out of the connection's sight).
//!
//! - Frames of every kind (data, continuation, ping, pong, close) spend a per-connection budget
//!   (a token bucket, [`Limits::frames_per_sec`] and [`Limits::frame_burst`]). An empty budget
//!   pauses reading until it refills: a flood waits in the socket's buffers at no cost to the
//!   server, while a client sending messages at the rate the connection allows never meets it.
//! - A message may come in at most [`Limits::max_fragments`] frames. One that needs more is
//!   refused: reading stops at the frame that went over, the connection learns of it through
//!   [`GuardSignal::refused`] (and answers `frame_too_large` before it closes), and what the
//!   client still sends is read and dropped — up to [`DISCARD_LIMIT`] bytes, then the stream
//!   ends — so that the final message is not lost to a reset.
//!
//! Header layout (RFC 6455 §5.2): byte 0 = FIN, RSV1-3, opcode; byte 1 = MASK, 7-bit length;
//! 126 → a 16-bit length follows, 127 → a 64-bit one; then the 4-byte masking key when MASK is
//! set (a client's frames always are; tungstenite refuses unmasked ones). Headers and payloads
//! may be split across reads anywhere.

use crate::App;
use crate::limiter::TokenBucket;
use parking_lot::Mutex;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio::time::{Instant, Sleep};

/// Bytes read and dropped after a refusal before the stream ends.
pub const DISCARD_LIMIT: usize = 64 * 1024;

/// What the guard allows one connection.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Sustained frames per second (all kinds).
    pub frames_per_sec: f64,
    /// Frames above the sustained rate.
    pub frame_burst: f64,
    /// Frames one message may be sent in (its first frame and its continuations).
    pub max_fragments: u32,
}

/// Frames one message may be split into. Clients send each message in one frame; 16 leaves
/// room for a client library that fragments a large message, and bounds the work of a message.
pub const MAX_FRAGMENTS: u32 = 16;
/// The frame budget is this many times the connection's message rate (and burst): pings,
/// pongs and fragments besides one frame per message, and intents that answer a prompt (which
/// spend no message token).
pub const FRAMES_PER_MESSAGE: f64 = 10.0;

impl Limits {
    /// The limits for a server's `--rate` and `--burst` (messages).
    pub fn for_rate(rate: f64, burst: f64) -> Limits {
        Limits {
            frames_per_sec: (rate * FRAMES_PER_MESSAGE).max(FRAMES_PER_MESSAGE),
            frame_burst: (burst * FRAMES_PER_MESSAGE).max(FRAMES_PER_MESSAGE),
            max_fragments: MAX_FRAGMENTS,
        }
    }
}

/// Why the guard stopped reading a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A message came in more than [`Limits::max_fragments`] frames.
    TooManyFragments(u32),
}

/// A client frame's header, as far as the guard cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub fin: bool,
    pub opcode: u8,
    pub len: u64,
}

impl Header {
    pub fn is_control(&self) -> bool {
        self.opcode >= 8
    }
}

/// Reads frame headers out of a byte stream, across any split, and counts the frames of the
/// message in progress.
#[derive(Debug, Default)]
pub struct FrameParser {
    /// The header read so far (at most 2 + 8 + 4 bytes).
    head: [u8; 14],
    have: usize,
    /// Payload bytes of the current frame still to pass.
    payload_left: u64,
    /// Frames of the data message in progress (0: none in progress).
    fragments: u32,
}

impl FrameParser {
    /// Header length once its first two bytes are known.
    fn head_len(b1: u8) -> usize {
        let ext = match b1 & 0x7f {
            126 => 2,
            127 => 8,
            _ => 0,
        };
        let mask = if b1 & 0x80 != 0 { 4 } else { 0 };
        2 + ext + mask
    }

    fn header(&self) -> Header {
        let (b0, b1) = (self.head[0], self.head[1]);
        let len = match b1 & 0x7f {
            126 => u64::from(u16::from_be_bytes([self.head[2], self.head[3]])),
            127 => u64::from_be_bytes(self.head[2..10].try_into().expect("8 bytes")),
            n => u64::from(n),
        };
        Header { fin: b0 & 0x80 != 0, opcode: b0 & 0x0f, len }
    }

    /// Frames of the message in progress, after `h`; a refusal when it is one too many.
    fn count(&mut self, h: &Header, max_fragments: u32) -> Result<(), Refusal> {
        if h.is_control() {
            // Control frames may come between fragments; they belong to no message.
            return Ok(());
        }
        // A continuation adds to the message in progress; a new data frame starts one (a
        // continuation without a start, or a new start within a message, is tungstenite's to
        // refuse as a protocol error).
        self.fragments = if h.opcode == 0 { self.fragments.saturating_add(1).max(1) } else { 1 };
        if self.fragments > max_fragments {
            return Err(Refusal::TooManyFragments(self.fragments));
        }
        if h.fin {
            self.fragments = 0;
        }
        Ok(())
    }

    /// Reads `bytes` (the next part of the stream); `on_frame` is called with each complete
    /// header. On a refusal (of the message count, or of `on_frame`), returns the offset in
    /// `bytes` where the refused frame's header began (0 when it began in an earlier part):
    /// what comes before it may pass, nothing from it on.
    pub fn feed(
        &mut self,
        bytes: &[u8],
        max_fragments: u32,
        mut on_frame: impl FnMut(&Header) -> Result<(), Refusal>,
    ) -> Result<(), (usize, Refusal)> {
        let mut i = 0;
        while i < bytes.len() {
            if self.payload_left > 0 {
                let skip = self.payload_left.min((bytes.len() - i) as u64);
                self.payload_left -= skip;
                i += skip as usize;
                continue;
            }
            let start = i.saturating_sub(self.have);
            self.head[self.have] = bytes[i];
            self.have += 1;
            i += 1;
            if self.have < 2 || self.have < Self::head_len(self.head[1]) {
                continue;
            }
            let h = self.header();
            self.have = 0;
            self.payload_left = h.len;
            if let Err(r) = self.count(&h, max_fragments).and_then(|()| on_frame(&h)) {
                return Err((start, r));
            }
        }
        Ok(())
    }
}

/// What the guard tells the connection.
#[derive(Default)]
struct Shared {
    refused: Mutex<Option<Refusal>>,
    notify: Notify,
}

/// The connection's end of its guard.
#[derive(Clone)]
pub struct GuardSignal {
    shared: Arc<Shared>,
}

impl GuardSignal {
    /// Resolves when the guard has refused the client's input (reading has stopped).
    pub async fn refused(&self) -> Refusal {
        loop {
            if let Some(r) = *self.shared.refused.lock() {
                return r;
            }
            self.shared.notify.notified().await;
        }
    }
}

/// The upgraded connection's reads pass through [`FrameParser`] and the frame budget; writes
/// pass untouched.
pub struct WsGuard<S> {
    inner: S,
    parser: FrameParser,
    /// Frames; it may go into debt by the frames of one read.
    budget: TokenBucket,
    max_fragments: u32,
    pause: Option<Pin<Box<Sleep>>>,
    /// Refused: what the client sends is dropped (this many bytes so far).
    discarding: Option<usize>,
    shared: Arc<Shared>,
    app: Option<Arc<App>>,
}

impl<S> WsGuard<S> {
    /// Guards `inner`; `app` (when given) counts pauses and refusals in its metrics.
    pub fn new(inner: S, limits: Limits, app: Option<Arc<App>>) -> (WsGuard<S>, GuardSignal) {
        let shared = Arc::new(Shared::default());
        let budget = TokenBucket::new(limits.frames_per_sec, limits.frame_burst);
        let guard = WsGuard {
            inner,
            parser: FrameParser::default(),
            budget,
            max_fragments: limits.max_fragments,
            pause: None,
            discarding: None,
            shared: shared.clone(),
            app,
        };
        (guard, GuardSignal { shared })
    }

    fn refuse(&mut self, r: Refusal) {
        tracing::info!(?r, "client input refused below the WebSocket layer");
        if let Some(app) = &self.app {
            match r {
                Refusal::TooManyFragments(_) => app.metrics().ws_fragments_refused.inc(),
            };
        }
        self.discarding = Some(0);
        *self.shared.refused.lock() = Some(r);
        self.shared.notify.notify_one();
    }
}

impl<S: AsyncRead + Unpin> WsGuard<S> {
    /// After a refusal: reads and drops; `Ready` (the end of the stream) at the client's end or
    /// past [`DISCARD_LIMIT`].
    fn poll_discard(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut scratch = [0u8; 4096];
        loop {
            let dropped = self.discarding.unwrap_or(0);
            if dropped >= DISCARD_LIMIT {
                return Poll::Ready(Ok(()));
            }
            let mut b = ReadBuf::new(&mut scratch);
            ready!(Pin::new(&mut self.inner).poll_read(cx, &mut b))?;
            if b.filled().is_empty() {
                return Poll::Ready(Ok(()));
            }
            self.discarding = Some(dropped + b.filled().len());
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WsGuard<S> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.discarding.is_some() {
            return this.poll_discard(cx);
        }
        loop {
            if let Some(p) = this.pause.as_mut() {
                ready!(p.as_mut().poll(cx));
                this.pause = None;
            }
            match this.budget.wait_until(Instant::now()) {
                None => break,
                Some(until) => {
                    if let Some(app) = &this.app {
                        app.metrics().ws_frame_pauses.inc();
                    }
                    this.pause = Some(Box::pin(tokio::time::sleep_until(until)));
                }
            }
        }
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        let (budget, max) = (&mut this.budget, this.max_fragments);
        let fed = this.parser.feed(&buf.filled()[before..], max, |_| {
            budget.spend(1.0);
            Ok(())
        });
        if let Err((at, r)) = fed {
            buf.set_filled(before + at);
            this.refuse(r);
            if at == 0 {
                // Nothing of this read may pass: wait (dropping input) for the connection to close.
                return this.poll_discard(cx);
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WsGuard<S> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// A client's frame as RFC 6455 has clients send it: FIN, opcode, the payload's length (7, 16
/// or 64 bits) and the payload masked with `mask`. For tests that speak WebSocket by hand (this
/// file's, `tests/hostile_conn.rs`); the server never sends one.
#[doc(hidden)]
pub fn client_frame(fin: bool, opcode: u8, payload: &[u8], mask: [u8; 4]) -> Vec<u8> {
    let mut v = vec![(u8::from(fin) << 7) | opcode];
    let n = payload.len();
    if n < 126 {
        v.push(0x80 | n as u8);
    } else if n <= 0xffff {
        v.push(0x80 | 126);
        v.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        v.push(0x80 | 127);
        v.extend_from_slice(&(n as u64).to_be_bytes());
    }
    v.extend_from_slice(&mask);
    v.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// A client frame: FIN, opcode, masked payload (the mask's bytes are arbitrary; the guard
    /// never unmasks).
    fn frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
        client_frame(fin, opcode, payload, [0x12, 0x34, 0x56, 0x78])
    }

    /// Every header `bytes` holds when fed in parts of `step` bytes, and the refusal: where in
    /// the stream it stopped what may pass (the refused header's start, or the start of the
    /// part it ends in when it began in an earlier one).
    fn headers(bytes: &[u8], step: usize, max: u32) -> (Vec<Header>, Option<(usize, Refusal)>) {
        let mut p = FrameParser::default();
        let mut seen = Vec::new();
        for (k, part) in bytes.chunks(step).enumerate() {
            if let Err((at, r)) = p.feed(part, max, |h| {
                seen.push(*h);
                Ok(())
            }) {
                return (seen, Some((k * step + at, r)));
            }
        }
        (seen, None)
    }

    #[test]
    fn headers_are_read_across_any_split() {
        let mut stream = frame(true, 1, br#"{"type":"heartbeat"}"#);
        stream.extend(frame(true, 9, b"ping"));
        stream.extend(frame(true, 2, &vec![7u8; 300]));
        stream.extend(frame(true, 1, &vec![b'x'; 70_000]));
        stream.extend(frame(true, 10, b""));
        let want = vec![
            Header { fin: true, opcode: 1, len: 20 },
            Header { fin: true, opcode: 9, len: 4 },
            Header { fin: true, opcode: 2, len: 300 },
            Header { fin: true, opcode: 1, len: 70_000 },
            Header { fin: true, opcode: 10, len: 0 },
        ];
        for step in [1, 2, 3, 5, 7, 13, 1024, stream.len()] {
            let (seen, refused) = headers(&stream, step, MAX_FRAGMENTS);
            assert_eq!(seen, want, "parts of {step} bytes");
            assert_eq!(refused, None);
        }
    }

    #[test]
    fn extended_lengths_of_16_and_64_bits() {
        for n in [125usize, 126, 127, 65_535, 65_536, 200_000] {
            let f = frame(true, 2, &vec![0u8; n]);
            let (seen, _) = headers(&f, 3, MAX_FRAGMENTS);
            assert_eq!(seen, vec![Header { fin: true, opcode: 2, len: n as u64 }]);
        }
        // A 64-bit length is taken whole (the WebSocket layer refuses what is too large).
        let mut p = FrameParser::default();
        let mut head = vec![0x82, 0x80 | 127];
        head.extend_from_slice(&(1u64 << 40).to_be_bytes());
        head.extend_from_slice(&[1, 2, 3, 4]);
        let mut got = None;
        p.feed(&head, MAX_FRAGMENTS, |h| {
            got = Some(h.len);
            Ok(())
        })
        .unwrap();
        assert_eq!(got, Some(1 << 40));
        assert_eq!(p.payload_left, 1 << 40);
    }

    #[test]
    fn unmasked_headers_are_two_bytes_shorter_by_four() {
        // Server-style frames (no mask): 2-byte header, then the payload.
        let stream = [0x81, 0x02, b'h', b'i', 0x89, 0x00, 0x81, 0x01, b'x'];
        let (seen, _) = headers(&stream, 1, MAX_FRAGMENTS);
        assert_eq!(seen.iter().map(|h| (h.opcode, h.len)).collect::<Vec<_>>(), vec![(1, 2), (9, 0), (1, 1)]);
    }

    #[test]
    fn fragments_count_per_message_and_control_frames_between_them_do_not() {
        let mut stream = frame(false, 1, b"{\"type\":");
        stream.extend(frame(true, 9, b"p"));
        stream.extend(frame(false, 0, b"\"heart"));
        stream.extend(frame(true, 0, b"beat\"}"));
        // The next message starts the count again.
        for k in 0..4 {
            stream.extend(frame(k == 3, if k == 0 { 1 } else { 0 }, b"."));
        }
        let (seen, refused) = headers(&stream, 4, 4);
        assert_eq!(seen.len(), 8);
        assert_eq!(refused, None);
        // One frame too many.
        let (_, refused) = headers(&stream, stream.len(), 3);
        let fourth_frame = stream.len() - frame(true, 0, b".").len();
        assert_eq!(refused, Some((fourth_frame, Refusal::TooManyFragments(4))));
    }

    #[test]
    fn an_endless_run_of_empty_continuations_is_refused_at_the_limit() {
        let mut stream = frame(false, 1, b"{");
        let one = frame(false, 0, b"");
        for _ in 0..1000 {
            stream.extend_from_slice(&one);
        }
        // The 17th frame: the opening one (7 bytes) and 15 continuations (6 bytes each) pass.
        let at = 7 + 15 * 6;
        for step in [1, 6, 1000] {
            let (seen, refused) = headers(&stream, step, 16);
            assert_eq!(seen.len(), 16, "parts of {step}");
            let (stop, r) = refused.expect("refused");
            assert_eq!(r, Refusal::TooManyFragments(17));
            // At the header's start, or within the header (its first bytes passed with their part).
            assert!((at..at + 6).contains(&stop), "parts of {step}: {stop}");
        }
        let (_, refused) = headers(&stream, stream.len(), 16);
        assert_eq!(refused, Some((at, Refusal::TooManyFragments(17))));
    }

    /// A reader that hands out its bytes in fixed parts.
    struct Parts {
        data: Vec<u8>,
        at: usize,
        step: usize,
    }

    impl AsyncRead for Parts {
        fn poll_read(self: Pin<&mut Self>, _: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
            let this = self.get_mut();
            let n = this.step.min(this.data.len() - this.at).min(buf.remaining());
            buf.put_slice(&this.data[this.at..this.at + n]);
            this.at += n;
            Poll::Ready(Ok(()))
        }
    }

    fn limits(max_fragments: u32) -> Limits {
        Limits { frames_per_sec: 1e9, frame_burst: 1e9, max_fragments }
    }

    #[tokio::test]
    async fn the_guard_passes_what_comes_before_a_refused_frame_and_nothing_after() {
        let mut data = frame(true, 1, b"ok");
        let ok_len = data.len();
        data.extend(frame(false, 1, b"a"));
        data.extend(frame(false, 0, b"b"));
        data.extend(frame(true, 0, b"c"));
        let (mut g, signal) = WsGuard::new(Parts { data: data.clone(), at: 0, step: 5 }, limits(2), None);
        let mut got = Vec::new();
        g.read_to_end(&mut got).await.unwrap();
        // The first message and the first two frames of the second pass; of the third at most
        // the part of its header read with them (5-byte reads).
        let third = data.len() - frame(true, 0, b"c").len();
        assert_eq!(got, data[..got.len()]);
        assert!((third..third + 5).contains(&got.len()), "{} bytes passed, the third frame at {third}", got.len());
        assert!(got.len() > ok_len);
        assert_eq!(signal.refused().await, Refusal::TooManyFragments(3));
    }

    #[tokio::test]
    async fn after_a_refusal_input_is_dropped_up_to_the_limit() {
        let mut data = frame(false, 1, b"");
        for _ in 0..30_000 {
            data.extend(frame(false, 0, b""));
        }
        let (mut g, _) = WsGuard::new(Parts { data, at: 0, step: 1024 }, limits(16), None);
        let mut got = Vec::new();
        g.read_to_end(&mut got).await.unwrap();
        assert_eq!(got.len(), 6 + 15 * 6);
        let dropped = g.discarding.expect("refused");
        assert!((DISCARD_LIMIT..DISCARD_LIMIT + 4096).contains(&dropped), "{dropped}");
    }

    #[tokio::test]
    async fn an_empty_budget_pauses_reading_until_it_refills() {
        let mut data = Vec::new();
        for _ in 0..100 {
            data.extend(frame(true, 9, b""));
        }
        let lim = Limits { frames_per_sec: 100.0, frame_burst: 20.0, max_fragments: 16 };
        let (mut g, _) = WsGuard::new(Parts { data: data.clone(), at: 0, step: 60 }, lim, None);
        let t0 = Instant::now();
        let mut got = Vec::new();
        g.read_to_end(&mut got).await.unwrap();
        assert_eq!(got, data);
        // 100 frames: 20 at once, then 100 a second (read 10 at a time, each read going into
        // debt for its frames): never sooner than 0.7 s.
        let took = t0.elapsed().as_secs_f64();
        assert!((0.7..30.0).contains(&took), "{took} s");
    }
}

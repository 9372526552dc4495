//! The socket's two ends of a connection: the writer that sends what the outbox queued, and the
//! close that lets the last messages out and reads the client's close.

use super::WebSocket;
use futures_util::{SinkExt, StreamExt};
use guandan_proto::{ErrorCode, ServerMsg, encode_server};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// The connection's writer: everything queued goes out with one flush; a client too slow to
/// read gets `slow_consumer` and the close.
pub(super) async fn write(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut inbox: crate::outbox::Inbox,
) {
    let mut batch = Vec::new();
    'write: while inbox.recv_all(&mut batch).await {
        if inbox.overflowed() {
            // The backlog is dropped: the client reconnects and catches up from its last action.
            let bye = ServerMsg::error(ErrorCode::SlowConsumer, "too slow to receive; reconnect and rejoin");
            let _ = sink.send(Message::Text(encode_server(&bye).into())).await;
            break;
        }
        // Everything queued goes out with one flush (one write when it fits the buffer).
        for text in batch.drain(..) {
            if sink.feed(Message::Text(text.as_ref().into())).await.is_err() {
                break 'write;
            }
        }
        if sink.flush().await.is_err() {
            break;
        }
    }
    let _ = sink.close().await;
}

/// The end of a connection: what is queued (a final error or bye) goes out, the client's
/// close is read.
pub(super) async fn close(
    mut stream: futures_util::stream::SplitStream<WebSocket>,
    writer: tokio::task::JoinHandle<()>,
) {
    // Let queued messages (a final error or bye) go out, but never wait on a stuck client: a
    // writer blocked on a client that does not read is stopped, closing the socket. Meanwhile
    // what the client still sends is read and dropped: closing a socket with unread input
    // resets the connection, and the client would lose the final message.
    let stop = writer.abort_handle();
    let grace = tokio::time::sleep(Duration::from_secs(2));
    tokio::pin!(grace, writer);
    // The closing handshake: the writer's last frame is a Close; the client answers with its own.
    // Reading waits until that Close is out: the WebSocket layer answers each ping it reads until
    // then, and a client flooding pings must get no answers while its connection closes. After it,
    // everything is read and dropped up to the client's Close — stopping earlier would leave
    // input unread, and the reset that follows would destroy the final messages before the
    // client reads them.
    let (mut writing, mut open) = (true, true);
    while writing || open {
        tokio::select! {
            _ = &mut writer, if writing => writing = false,
            _ = &mut grace => {
                stop.abort();
                break;
            }
            f = stream.next(), if open && !writing => {
                open = matches!(f, Some(Ok(ref m)) if !matches!(m, Message::Close(_)));
            }
        }
    }
}

//! A client connection's socket, shared by the gate, which reads and writes
//! it for hyper, and by a request's watcher, which only peeks at it to learn
//! that the client has gone.
//!
//! hyper reads nothing while a request is being answered (the server lets
//! clients half-close), so a search could not otherwise notice that the
//! client who asked for it closed the connection: it would run to the end
//! for nobody. The watcher waits for the socket to become readable without
//! taking any byte, so hyper still reads everything the client sends.

use std::io;
use std::net::Shutdown;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// A connection's socket; clones share it.
#[derive(Clone, Debug)]
pub struct Socket(Arc<TcpStream>);

impl Socket {
    /// Shares `stream`.
    pub fn new(stream: TcpStream) -> Socket {
        Socket(Arc::new(stream))
    }

    /// Completes when the client has closed the connection, or reset it.
    ///
    /// A client that sends more (a pipelined request) is still there, and
    /// its bytes are hyper's to read: the watch then never completes. A
    /// client that only shuts down its sending side looks the same as one
    /// that has gone; HTTP clients waiting for an answer do not do that.
    pub async fn closed(&self) {
        let mut byte = [0u8; 1];
        match self.0.peek(&mut byte).await {
            Ok(0) | Err(_) => {}
            Ok(_) => std::future::pending().await,
        }
    }

    /// Runs `op` once the socket is ready for `ready`'s direction, until it
    /// stops reporting that it would block.
    fn poll_io<T>(
        &self,
        cx: &mut Context<'_>,
        ready: fn(&TcpStream, &mut Context<'_>) -> Poll<io::Result<()>>,
        mut op: impl FnMut(&TcpStream) -> io::Result<T>,
    ) -> Poll<io::Result<T>> {
        loop {
            ready!(ready(&self.0, cx))?;
            match op(&self.0) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                done => return Poll::Ready(done),
            }
        }
    }
}

impl AsyncRead for Socket {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, out: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let n = ready!(self.poll_io(cx, TcpStream::poll_read_ready, |s| s
            .try_read(out.initialize_unfilled())))?;
        out.advance(n);
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Socket {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.poll_io(cx, TcpStream::poll_write_ready, |s| s.try_write(buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.poll_io(cx, TcpStream::poll_write_ready, |s| s.try_write_vectored(bufs))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        // Writes go straight to the socket: nothing is buffered here.
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(socket2::SockRef::from(&*self.0).shutdown(Shutdown::Write))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    async fn pair() -> (Socket, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).await.unwrap();
        let (server, _) = listener.accept().await.unwrap();
        (Socket::new(server), client)
    }

    #[tokio::test]
    async fn the_watch_sees_a_close_and_leaves_the_bytes_to_the_reader() {
        let (mut socket, mut client) = pair().await;
        let watch = socket.clone();
        let waiting = tokio::time::timeout(Duration::from_millis(100), watch.closed()).await;
        assert!(waiting.is_err(), "a quiet client is still there");
        client.write_all(b"GET / HTTP/1.1\r\n\r\n").await.unwrap();
        let more = tokio::time::timeout(Duration::from_millis(100), watch.closed()).await;
        assert!(more.is_err(), "a client sending more is still there");
        drop(client);
        let mut got = Vec::new();
        socket.read_to_end(&mut got).await.unwrap();
        assert_eq!(got, b"GET / HTTP/1.1\r\n\r\n", "the watch took no byte");
        tokio::time::timeout(Duration::from_secs(5), watch.closed())
            .await
            .expect("the close is seen");
    }

    #[tokio::test]
    async fn writes_and_shutdown_reach_the_client() {
        let (mut socket, mut client) = pair().await;
        socket.write_all(b"answer").await.unwrap();
        socket.shutdown().await.unwrap();
        let mut got = Vec::new();
        client.read_to_end(&mut got).await.unwrap();
        assert_eq!(got, b"answer");
    }
}

//! The gate between a client's socket and hyper: every request head is read
//! and checked here before hyper sees it, so that a request hyper would
//! refuse with a bare status (a malformed head: 400; a head too large: 431;
//! a request target too long: 414) gets, like every other error, a JSON
//! object with `error` and the CORS header. hyper is handed only the heads
//! it accepts; at the first bad one the gate ends hyper's input there, and
//! once hyper has answered everything before it, the connection writes the
//! refusal and closes.
//!
//! The gate also decides how a connection ends when the server stops (or
//! the connection has been idle too long): the requests already received,
//! or being received, are answered, the last with `Connection: close`; a
//! connection that is quiet gets a short last call (a client in the middle
//! of a keep-alive exchange sends its next request within it) and is then
//! closed before the client has sent any byte of a new request.
//!
//! Heads are framed with httparse, the parser hyper uses, with the checks
//! hyper adds (request target, `Content-Length`, `Transfer-Encoding`). A
//! request with a body (this API takes none) is passed through whole, and
//! its connection is closed after the answer.
//!
//! Why a gate and not hyper's limits with a tower(-http) layer: hyper
//! answers a head it refuses itself, before any service or layer sees a
//! request, and offers no hook to word that answer. Measured on
//! 2026-11-29 with hyper 1.12.0 and hyper-util 0.1.21, a bare
//! `http1::Builder` (`max_buf_size` 16 KiB) answered a malformed request
//! line with `400 Bad Request`, and a 20 KB header, a 70 KB request target
//! or 101 header fields alike with `431 Request Header Fields Too Large`:
//! each with `content-length: 0` and no `access-control-allow-origin`, so
//! a page of another origin (GamesmanUni) reads only a network error, and
//! a long target is not told 414. The test
//! `hyper_alone_answers_a_refused_head_bare` below repeats the
//! measurement on the hyper this is built with; when it fails, hyper has
//! changed, and the gate may be reconsidered.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use hyper::StatusCode;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};

use crate::socket::Socket;

/// The longest request target answered; GamesmanUni's are under 100 bytes.
pub const MAX_URI: usize = 2048;
/// The largest request head accepted.
pub const MAX_HEAD: usize = 16 * 1024;
/// Header fields per request at most (as hyper).
pub const MAX_HEADERS: usize = 100;
/// A request line longer than this has a target over [`MAX_URI`] bytes.
const MAX_LINE: usize = MAX_URI + 64;
/// Bytes read from the socket at a time.
const READ_CHUNK: usize = 8 * 1024;
/// After a refusal, how long and how much the client's remaining input is
/// read and discarded so that closing does not reset the connection
/// before the client has read the answer.
const LINGER: Duration = Duration::from_secs(2);
const LINGER_BYTES: usize = 4 << 20;

/// A request refused by the gate (or unfinished when time ran out): the
/// error to answer with, and the request's beginning for the access log.
#[derive(Clone, Debug)]
pub struct Refusal {
    /// The status.
    pub status: StatusCode,
    /// The `error` text.
    pub message: String,
    /// The method, as far as it could be read (for the log).
    pub method: String,
    /// The request target's beginning (for the log).
    pub target: String,
}

impl Refusal {
    fn new(status: StatusCode, message: impl Into<String>, head: &[u8]) -> Refusal {
        let line = &head[..head.iter().position(|&b| b == b'\n').unwrap_or(head.len())];
        let mut words = line.splitn(3, |&b| b == b' ');
        Refusal {
            status,
            message: message.into(),
            method: printable(words.next().unwrap_or_default(), 16),
            target: printable(words.next().unwrap_or_default(), 100),
        }
    }

    /// The whole HTTP response: the JSON error with CORS, closing.
    pub fn response(&self) -> Vec<u8> {
        let body = serde_json::json!({ "error": self.message }).to_string();
        format!(
            "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\naccess-control-allow-origin: *\r\n\
             connection: close\r\ncontent-length: {}\r\n\r\n{body}",
            self.status.as_u16(),
            self.status.canonical_reason().unwrap_or(""),
            body.len()
        )
        .into_bytes()
    }
}

/// `bytes` as log text: printable ASCII, others as `?`, at most `max`
/// characters (then `…`); `-` when empty.
fn printable(bytes: &[u8], max: usize) -> String {
    if bytes.is_empty() {
        return "-".into();
    }
    let mut s: String = bytes
        .iter()
        .take(max)
        .map(|&b| if b.is_ascii_graphic() { b as char } else { '?' })
        .collect();
    if bytes.len() > max {
        s.push('…');
    }
    s
}

/// What the gate, the request handler and the connection's task share.
pub struct ConnState {
    born: Instant,
    /// Request heads handed to hyper.
    released: AtomicU64,
    /// Requests answered.
    answered: AtomicU64,
    /// The gate holds the beginning of a request head.
    partial: AtomicBool,
    /// The connection is to end (server stopping, or idle).
    closing: AtomicBool,
    /// While closing: how long after the last activity a quiet connection
    /// may still send a request (milliseconds).
    last_call_ms: AtomicU64,
    /// Milliseconds from `born` to the last bytes received or answer made.
    active_ms: AtomicU64,
    refusal: Mutex<Option<Refusal>>,
}

impl ConnState {
    /// The state of a new connection.
    pub fn new() -> Arc<ConnState> {
        Arc::new(ConnState {
            born: Instant::now(),
            released: AtomicU64::new(0),
            answered: AtomicU64::new(0),
            partial: AtomicBool::new(false),
            closing: AtomicBool::new(false),
            last_call_ms: AtomicU64::new(u64::MAX),
            active_ms: AtomicU64::new(0),
            refusal: Mutex::new(None),
        })
    }

    fn touch(&self) {
        self.active_ms
            .store(self.born.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    /// Time since bytes were last received or an answer made.
    pub fn quiet(&self) -> Duration {
        let active = Duration::from_millis(self.active_ms.load(Ordering::Relaxed));
        self.born.elapsed().saturating_sub(active)
    }

    /// Ends the connection: the requests received or being received are
    /// answered, the last with `Connection: close`; when it is quiet, it
    /// is closed once `last_call` has passed since its last activity.
    pub fn close(&self, last_call: Duration) {
        self.last_call_ms
            .fetch_min(last_call.as_millis() as u64, Ordering::Relaxed);
        self.closing.store(true, Ordering::Release);
    }

    fn closing(&self) -> bool {
        self.closing.load(Ordering::Acquire)
    }

    fn last_call(&self) -> Duration {
        Duration::from_millis(self.last_call_ms.load(Ordering::Relaxed))
    }

    /// Counts a request answered; whether its answer is the connection's
    /// last (closing, and nothing more received).
    pub fn answer(&self) -> bool {
        let n = self.answered.fetch_add(1, Ordering::AcqRel) + 1;
        self.touch();
        self.closing() && n >= self.released.load(Ordering::Acquire) && !self.partial.load(Ordering::Acquire)
    }

    fn refuse(&self, r: Refusal) {
        *self.refusal.lock().unwrap_or_else(PoisonError::into_inner) = Some(r);
    }
}

/// How the gate treats input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Checking request heads.
    Heads,
    /// A request with a body came: the rest goes through unchecked (the
    /// connection closes after its answer).
    Body,
    /// No more input for hyper: a head was refused, or the connection is
    /// closing.
    Done,
}

/// Verdict on the bytes at the start of a request head.
enum Head {
    /// A whole, acceptable head of `len` bytes; whether a body follows.
    Complete {
        len: usize,
        body: bool,
    },
    /// Not all there yet.
    Partial,
    Refused(Refusal),
}

/// A client's socket as hyper reads it: request heads only once checked.
pub struct Gate {
    io: Socket,
    /// Bytes read and not yet handed to hyper.
    buf: Vec<u8>,
    /// `buf[..cleared]` may go to hyper.
    cleared: usize,
    mode: Mode,
    /// The client has closed its side.
    eof: bool,
    state: Arc<ConnState>,
    last_call: Option<Pin<Box<tokio::time::Sleep>>>,
    /// Where the socket is read into (kept, so that no read zeroes it).
    scratch: Box<[u8]>,
}

impl Gate {
    /// The gate of `io`, sharing `state` with the request handler.
    pub fn new(io: Socket, state: Arc<ConnState>) -> Gate {
        Gate {
            io,
            buf: Vec::new(),
            cleared: 0,
            mode: Mode::Heads,
            eof: false,
            state,
            last_call: None,
            scratch: vec![0; READ_CHUNK].into_boxed_slice(),
        }
    }

    /// Reads what the socket has (a chunk at most) and checks it.
    fn pull(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut rb = ReadBuf::new(&mut self.scratch[..]);
        let polled = Pin::new(&mut self.io).poll_read(cx, &mut rb);
        let n = rb.filled().len();
        self.buf.extend_from_slice(&self.scratch[..n]);
        match polled {
            Poll::Ready(Ok(())) if n == 0 => self.eof = true,
            Poll::Ready(Ok(())) => {
                self.state.touch();
                self.scan();
            }
            other => return other,
        }
        Poll::Ready(Ok(()))
    }

    /// Checks the heads in `buf` after `cleared`.
    fn scan(&mut self) {
        while self.mode == Mode::Heads && self.cleared < self.buf.len() {
            match check_head(&self.buf[self.cleared..]) {
                Head::Complete { len, body } => {
                    self.cleared += len;
                    self.state.released.fetch_add(1, Ordering::AcqRel);
                    if body {
                        self.mode = Mode::Body;
                        self.cleared = self.buf.len();
                    }
                }
                Head::Partial => break,
                Head::Refused(r) => {
                    self.buf.truncate(self.cleared);
                    self.mode = Mode::Done;
                    self.state.refuse(r);
                }
            }
        }
        let partial = self.mode == Mode::Heads && self.cleared < self.buf.len();
        self.state.partial.store(partial, Ordering::Release);
    }

    /// While closing and quiet: whether the last call is over (else the
    /// timer will wake the task).
    fn last_call_over(&mut self, cx: &mut Context<'_>) -> bool {
        let (window, quiet) = (self.state.last_call(), self.state.quiet());
        if quiet >= window {
            return true;
        }
        let Some(deadline) = tokio::time::Instant::now().checked_add(window - quiet) else {
            // Beyond what the clock can say: never over.
            return false;
        };
        let sleep = self
            .last_call
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        sleep.as_mut().reset(deadline);
        sleep.as_mut().poll(cx).is_ready()
    }

    /// Ends the connection once hyper is done with it: writes the refusal
    /// (or, when hyper's head timeout ended a head half received, a 408)
    /// and closes. Returns what was written, for the access log.
    pub async fn finish(mut self, timed_out: Option<Duration>) -> Option<(Refusal, usize)> {
        let refusal = self
            .state
            .refusal
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let refusal = refusal.or_else(|| {
            let partial = self.mode == Mode::Heads && self.cleared < self.buf.len();
            timed_out.filter(|_| partial).map(|limit| {
                Refusal::new(
                    StatusCode::REQUEST_TIMEOUT,
                    format!("request head not received within {} s", limit.as_secs()),
                    &self.buf[self.cleared..],
                )
            })
        });
        let Some(refusal) = refusal else {
            let _ = self.io.shutdown().await;
            return None;
        };
        let response = refusal.response();
        let written = tokio::time::timeout(LINGER, self.io.write_all(&response)).await;
        let _ = self.io.shutdown().await;
        if matches!(written, Ok(Ok(()))) {
            self.linger().await;
        }
        Some((refusal, response.len()))
    }

    /// Reads and discards the client's input for a while, so that its
    /// unread bytes do not make the close a reset.
    async fn linger(&mut self) {
        let mut sink = vec![0; READ_CHUNK];
        let mut total = 0;
        let _ = tokio::time::timeout(LINGER, async {
            while let Ok(n @ 1..) = self.io.read(&mut sink).await {
                total += n;
                if total > LINGER_BYTES {
                    break;
                }
            }
        })
        .await;
    }
}

impl AsyncRead for Gate {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.cleared > 0 {
                if this.state.closing() && this.mode == Mode::Heads && !this.eof {
                    // Take in what has arrived, so that the last answer
                    // knows whether another request follows. Nothing to
                    // wait for: a pending read only registers the task.
                    if let Poll::Ready(Err(e)) = this.pull(cx) {
                        return Poll::Ready(Err(e));
                    }
                }
                let n = this.cleared.min(out.remaining());
                out.put_slice(&this.buf[..n]);
                this.buf.drain(..n);
                this.cleared -= n;
                return Poll::Ready(Ok(()));
            }
            match this.mode {
                Mode::Done => return Poll::Ready(Ok(())),
                Mode::Body if this.buf.is_empty() => return Pin::new(&mut this.io).poll_read(cx, out),
                Mode::Body => {
                    this.cleared = this.buf.len();
                    continue;
                }
                Mode::Heads => {}
            }
            if this.eof {
                // The client stopped sending: a head it began is dropped.
                return Poll::Ready(Ok(()));
            }
            match this.pull(cx) {
                Poll::Ready(Ok(())) => continue,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => {
                    if this.state.closing() && this.buf.is_empty() && this.last_call_over(cx) {
                        this.mode = Mode::Done;
                        return Poll::Ready(Ok(()));
                    }
                    return Poll::Pending;
                }
            }
        }
    }
}

impl AsyncWrite for Gate {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// Checks the request head at the start of `bytes`.
fn check_head(bytes: &[u8]) -> Head {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    let refuse = |status, message: String| Head::Refused(Refusal::new(status, message, bytes));
    match req.parse(bytes) {
        Ok(httparse::Status::Complete(len)) => {
            let target = req.path.unwrap_or_default();
            if target.len() > MAX_URI {
                refuse(StatusCode::URI_TOO_LONG, too_long())
            } else if len > MAX_HEAD {
                refuse(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, too_large())
            } else {
                match framing(&req) {
                    Ok(body) => Head::Complete { len, body },
                    Err(message) => refuse(StatusCode::BAD_REQUEST, message),
                }
            }
        }
        Ok(httparse::Status::Partial) => {
            let line = bytes.iter().position(|&b| b == b'\n').unwrap_or(bytes.len());
            if line > MAX_LINE {
                refuse(StatusCode::URI_TOO_LONG, too_long())
            } else if bytes.len() > MAX_HEAD {
                refuse(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, too_large())
            } else {
                Head::Partial
            }
        }
        Err(httparse::Error::TooManyHeaders) => refuse(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("request header fields too large: more than {MAX_HEADERS} header fields"),
        ),
        Err(e) => refuse(StatusCode::BAD_REQUEST, format!("malformed request: {e}")),
    }
}

fn too_long() -> String {
    format!("request target longer than {MAX_URI} bytes")
}

fn too_large() -> String {
    format!(
        "request header fields too large: the request head is over {} KB",
        MAX_HEAD / 1024
    )
}

/// hyper's checks beyond httparse's: whether the request has a body, or
/// why it is malformed.
fn framing(req: &httparse::Request<'_, '_>) -> Result<bool, String> {
    if hyper::Uri::try_from(req.path.unwrap_or_default()).is_err() {
        return Err("malformed request: invalid request target".into());
    }
    let mut chunked = None;
    let mut length: Option<u64> = None;
    for h in req.headers.iter() {
        if h.name.eq_ignore_ascii_case("transfer-encoding") {
            if req.version == Some(0) {
                return Err("malformed request: Transfer-Encoding in an HTTP/1.0 request".into());
            }
            let last = h.value.rsplit(|&b| b == b',').next().unwrap_or_default();
            chunked = Some(last.trim_ascii().eq_ignore_ascii_case(b"chunked"));
        } else if h.name.eq_ignore_ascii_case("content-length") {
            let n = digits(h.value)
                .filter(|&n| n < u64::MAX - 1)
                .ok_or("malformed request: invalid Content-Length")?;
            if length.is_some_and(|m| m != n) {
                return Err("malformed request: conflicting Content-Length values".into());
            }
            length = Some(n);
        }
    }
    if chunked == Some(false) {
        return Err("malformed request: Transfer-Encoding does not end in chunked".into());
    }
    Ok(chunked.is_some() || length.is_some_and(|n| n > 0))
}

/// A decimal number of digits only.
fn digits(value: &[u8]) -> Option<u64> {
    if value.is_empty() {
        return None;
    }
    value.iter().try_fold(0u64, |n, &b| {
        b.is_ascii_digit()
            .then_some(())
            .and_then(|()| n.checked_mul(10)?.checked_add(u64::from(b - b'0')))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// hyper on its own, no gate: the answer to a head it refuses has no
    /// body and no CORS header (the module's text says why that matters).
    #[test]
    fn hyper_alone_answers_a_refused_head_bare() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            tokio::spawn(async move {
                while let Ok((s, _)) = listener.accept().await {
                    let svc = hyper::service::service_fn(|_| async {
                        hyper::Response::builder()
                            .header("access-control-allow-origin", "*")
                            .body(http_body_util::Full::new(hyper::body::Bytes::from("{}")))
                    });
                    tokio::spawn(
                        hyper::server::conn::http1::Builder::new()
                            .max_buf_size(MAX_HEAD)
                            .serve_connection(hyper_util::rt::TokioIo::new(s), svc),
                    );
                }
            });
            let long_target = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000));
            for (head, status) in [
                ("GET /\x01 HTTP/1.1\r\nHost: x\r\n\r\n".to_string(), "400"),
                (long_target, "431"),
            ] {
                let mut c = tokio::net::TcpStream::connect(addr).await.unwrap();
                let _ = c.write_all(head.as_bytes()).await;
                let mut answer = Vec::new();
                let _ = c.read_to_end(&mut answer).await;
                let answer = String::from_utf8_lossy(&answer).to_ascii_lowercase();
                assert!(answer.starts_with(&format!("http/1.1 {status}")), "{answer}");
                assert!(answer.contains("content-length: 0"), "{answer}");
                assert!(!answer.contains("access-control-allow-origin"), "{answer}");
            }
        });
    }

    fn verdict(head: &str) -> Result<(usize, bool), (u16, String)> {
        match check_head(head.as_bytes()) {
            Head::Complete { len, body } => Ok((len, body)),
            Head::Partial => Err((0, "partial".into())),
            Head::Refused(r) => Err((r.status.as_u16(), r.message)),
        }
    }

    #[test]
    fn heads_hyper_would_refuse_are_refused_with_a_reason() {
        let long = |n: usize| format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(n));
        let many: String = (0..=MAX_HEADERS).map(|i| format!("X-{i}: 1\r\n")).collect();
        for (head, status, needle) in [
            ("NOT HTTP AT ALL\r\n\r\n", 400, "malformed"),
            ("GET / HTTP/1.1\r\nNo Colon\r\n\r\n", 400, "malformed"),
            ("GET /a b HTTP/1.1\r\n\r\n", 400, "malformed"),
            (
                "GET / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n",
                400,
                "Content-Length",
            ),
            (
                "GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
                400,
                "Content-Length",
            ),
            (
                "GET / HTTP/1.1\r\nContent-Length: 1\r\ncontent-length: 2\r\n\r\n",
                400,
                "conflicting",
            ),
            (
                "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
                400,
                "HTTP/1.0",
            ),
            (
                "POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
                400,
                "chunked",
            ),
            (&format!("GET / HTTP/1.1\r\n{many}\r\n"), 431, "header fields"),
            (
                &format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD)),
                431,
                "over 16 KB",
            ),
            // Partial, but already too large.
            (
                &format!("GET / HTTP/1.1\r\nX: {}", "a".repeat(MAX_HEAD)),
                431,
                "over 16 KB",
            ),
            (&long(MAX_URI), 414, "longer than 2048"),
            (&long(MAX_URI + 100)[..MAX_URI + 80], 414, "longer than 2048"),
            (&long(1 << 20), 414, "longer than 2048"),
        ] {
            assert_eq!(
                verdict(head).map_err(|(s, m)| (s, m.contains(needle))),
                Err((status, true)),
                "{:?}: {:?}",
                &head[..head.len().min(60)],
                verdict(head)
            );
        }
    }

    #[test]
    fn good_heads_are_framed_as_hyper_frames_them() {
        let get = "GET /topitop/ HTTP/1.1\r\nHost: x\r\n\r\n";
        assert_eq!(verdict(get), Ok((get.len(), false)));
        // Leading empty lines are skipped, as hyper does.
        let padded = format!("\r\n{get}");
        assert_eq!(verdict(&padded), Ok((padded.len(), false)));
        assert_eq!(verdict(&format!("{get}GET / HT")), Ok((get.len(), false)));
        assert_eq!(verdict(&get[..20]), Err((0, "partial".into())));
        let target = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_URI - 1));
        assert_eq!(verdict(&target), Ok((target.len(), false)));
        for (head, body) in [
            ("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n", true),
            ("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n", false),
            (
                "POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n",
                true,
            ),
            (
                "POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
                true,
            ),
        ] {
            assert_eq!(verdict(head), Ok((head.len(), body)), "{head:?}");
        }
    }

    #[test]
    fn a_refusal_is_a_json_error_with_cors_that_closes() {
        let r = Refusal::new(
            StatusCode::URI_TOO_LONG,
            "too \"long\"",
            b"GET /\xff\x01abc HTTP/1.1",
        );
        assert_eq!((r.method.as_str(), r.target.as_str()), ("GET", "/??abc"));
        let text = String::from_utf8(r.response()).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{head}");
        for line in [
            "content-type: application/json",
            "access-control-allow-origin: *",
            "connection: close",
            &format!("content-length: {}", body.len()),
        ] {
            assert!(head.contains(line), "{line}: {head}");
        }
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["error"], "too \"long\"");
    }
}

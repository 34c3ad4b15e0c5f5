//! The HTTP/1.1 server: accepting connections, per-request handling with
//! CORS and the access log, idle and header timeouts, graceful shutdown.
//!
//! Each connection reads through a [`Gate`], which checks request heads
//! before hyper sees them (so that every error is a JSON object) and
//! decides how the connection ends when the server stops: every request
//! received is answered, the last with `Connection: close`, and a quiet
//! connection is closed after a short last call.
//!
//! A request answered by a search runs on a blocking thread, a few at a
//! time ([`Searches`]; beyond the queue: 503 with `Retry-After`), and is
//! given up as soon as its client closes the connection: not started if
//! it is still waiting, stopped if it is running. Lookups never wait for
//! a search, however many are asked for.

use std::convert::Infallible;
use std::fmt::Display;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};

use crate::gate::{ConnState, Gate, Refusal};
pub use crate::gate::{MAX_HEAD, MAX_URI};
use crate::routes::{App, Reply};
use crate::searches::Searches;
use crate::socket::Socket;

/// The longest `idle` limit: longer ones are taken as this (a deadline
/// beyond what the clock can say would overflow).
pub const MAX_IDLE: Duration = Duration::from_secs(24 * 60 * 60);

/// Seconds a request refused because every search place is taken is
/// told to wait before asking again (`Retry-After`): a search takes a
/// second or two.
pub const RETRY_AFTER_SECS: u64 = 2;

/// The status logged for a search whose client closed the connection
/// before its answer (nginx's "client closed request"); never sent.
pub const CLIENT_CLOSED: u16 = 499;

/// Timing and load limits of the server.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// A connection that completes no request for this long (idle keep-alive,
    /// a request head trickling in) is closed; a response the client does
    /// not read is abandoned after twice this. At most [`MAX_IDLE`].
    pub idle: Duration,
    /// How long shutdown waits for requests in flight.
    pub grace: Duration,
    /// At shutdown, a connection with no request in flight is closed once
    /// it has been quiet this long: a client in a keep-alive exchange sends
    /// its next request within it, and gets it answered (with
    /// `Connection: close`) instead of a connection closed under it.
    pub last_call: Duration,
    /// Searches run at once (at least one): each already keeps every core
    /// busy, so more side by side only make each slower.
    pub searches: usize,
    /// Searches that may wait for their turn, in the order they came;
    /// beyond them a search is refused at once (503, `Retry-After`).
    pub search_queue: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            idle: Duration::from_secs(30),
            grace: Duration::from_secs(10),
            last_call: Duration::from_secs(1),
            searches: 1,
            search_queue: 4,
        }
    }
}

impl Limits {
    /// The limits with every time within what the clock can add.
    fn bounded(self) -> Limits {
        Limits {
            idle: self.idle.clamp(Duration::from_millis(1), MAX_IDLE),
            last_call: self.last_call.min(MAX_IDLE),
            ..self
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then lets the
/// requests in flight finish (up to `limits.grace`) and returns.
pub async fn run(app: Arc<App>, listener: TcpListener, limits: Limits, shutdown: impl Future<Output = ()>) {
    let limits = limits.bounded();
    let searches = Searches::new(limits.searches, limits.search_queue);
    let (stop_tx, stop_rx) = watch::channel(false);
    // Every connection task holds a sender; when all are gone, recv() ends.
    let (alive_tx, mut alive_rx) = mpsc::channel::<()>(1);
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let conn = Connection { app: app.clone(), peer, limits, searches: searches.clone() };
                    tokio::spawn(conn.serve(stream, stop_rx.clone(), alive_tx.clone()));
                }
                Err(e) => {
                    // Out of file descriptors and the like: wait, then go on.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
        }
    }
    drop(listener);
    tracing::info!("shutting down: no new connections; answering the requests received");
    let _ = stop_tx.send(true);
    drop(alive_tx);
    if tokio::time::timeout(limits.grace, alive_rx.recv()).await.is_err() {
        tracing::warn!("grace period over; closing the remaining connections");
    }
    tracing::info!("stopped");
}

/// One client connection.
struct Connection {
    app: Arc<App>,
    peer: SocketAddr,
    limits: Limits,
    searches: Arc<Searches>,
}

impl Connection {
    async fn serve(self, stream: TcpStream, mut stop: watch::Receiver<bool>, _alive: mpsc::Sender<()>) {
        let _ = stream.set_nodelay(true);
        let socket = Socket::new(stream);
        let state = ConnState::new();
        let (app, peer, shared) = (self.app.clone(), self.peer, state.clone());
        let (searches, watched) = (self.searches.clone(), socket.clone());
        let service = service_fn(move |req: Request<Incoming>| {
            let (app, shared) = (app.clone(), shared.clone());
            let (searches, watched) = (searches.clone(), watched.clone());
            // Boxed: hyper's connection must stay movable (Unpin).
            Box::pin(async move {
                let body = has_body(&req);
                let slow = matches!(*req.method(), Method::GET | Method::HEAD)
                    && app.answers_slowly(req.uri().path());
                let mut response = if slow {
                    search(app, req, peer, &searches, &watched).await
                } else {
                    handle(&app, &req, peer)
                };
                // After a body (which the gate let through unchecked), or as
                // the last answer of a closing connection: close.
                if shared.answer() || body {
                    response
                        .headers_mut()
                        .insert(header::CONNECTION, HeaderValue::from_static("close"));
                }
                Ok::<_, Infallible>(response)
            })
        });
        let Limits { idle, last_call, .. } = self.limits;
        let mut conn = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(idle)
            // The gate ends hyper's input while answers may still be due.
            .half_close(true)
            .max_buf_size(2 * MAX_HEAD)
            .serve_connection(TokioIo::new(Gate::new(socket, state.clone())), service);
        let wake = tokio::time::sleep(idle);
        tokio::pin!(wake);
        let mut closing = *stop.borrow();
        if closing {
            state.close(last_call);
        }
        let ended = loop {
            tokio::select! {
                result = std::future::poll_fn(|cx| conn.poll_without_shutdown(cx)) => break result,
                _ = stop.changed(), if !closing => {
                    state.close(last_call);
                    closing = true;
                }
                () = &mut wake => {
                    let quiet = state.quiet();
                    if quiet >= 2 * idle {
                        // A client not reading its answers: abandoned.
                        return;
                    }
                    let next = if quiet >= idle {
                        state.close(Duration::ZERO);
                        2 * idle - quiet
                    } else {
                        idle - quiet
                    };
                    wake.as_mut().reset(tokio::time::Instant::now() + next);
                }
            }
        };
        let timed_out = match &ended {
            Ok(()) => None,
            Err(e) if e.is_timeout() => Some(idle),
            Err(e) if e.is_parse() || e.is_parse_too_large() => {
                // The gate should have refused it: a bug, answered by hyper.
                tracing::warn!(peer = %self.peer, error = %e, "hyper refused a request head the gate accepted");
                None
            }
            Err(e) => {
                tracing::debug!(peer = %self.peer, error = %e, "connection ended with an error");
                None
            }
        };
        let start = Instant::now();
        let gate = conn.into_parts().io.into_inner();
        if let Some((refusal, bytes)) = gate.finish(timed_out).await {
            log_refusal(&refusal, self.peer, bytes, start);
        }
    }
}

/// Whether `req` has a body (this API reads none).
fn has_body(req: &Request<Incoming>) -> bool {
    let h = req.headers();
    h.contains_key(header::TRANSFER_ENCODING)
        || h.get(header::CONTENT_LENGTH)
            .is_some_and(|v| v.as_bytes() != b"0")
}

/// The access-log line of a request the gate refused.
fn log_refusal(r: &Refusal, peer: SocketAddr, bytes: usize, start: Instant) {
    log_access(peer, &r.method, &r.target, r.status.as_u16(), bytes as u64, start);
}

/// One request's access-log line.
fn log_access(
    peer: SocketAddr,
    method: &dyn Display,
    uri: &dyn Display,
    status: u16,
    bytes: u64,
    start: Instant,
) {
    tracing::info!(
        target: "access",
        peer = %peer,
        method = %method,
        uri = %uri,
        status,
        bytes,
        micros = start.elapsed().as_micros() as u64,
    );
}

/// The access-log line of `response`, the answer to `method uri`.
fn log_response(
    peer: SocketAddr,
    method: &Method,
    uri: &hyper::Uri,
    response: &Response<Full<Bytes>>,
    start: Instant,
) {
    let bytes = hyper::body::Body::size_hint(response.body()).exact().unwrap_or(0);
    log_access(peer, method, uri, response.status().as_u16(), bytes, start);
}

/// Answers one request and writes its access-log line.
fn handle(app: &App, req: &Request<Incoming>, peer: SocketAddr) -> Response<Full<Bytes>> {
    let start = Instant::now();
    let response = answer(app, req, &AtomicBool::new(false));
    log_response(peer, req.method(), req.uri(), &response, start);
    response
}

/// Answers a request that searches: refused at once when every place
/// among the searches is taken, else run in its turn on a blocking thread
/// (lookups are never held up behind it), and given up as soon as its
/// client has gone: never started if it is still waiting, stopped if it
/// is running. Writes its access-log line.
async fn search(
    app: Arc<App>,
    req: Request<Incoming>,
    peer: SocketAddr,
    searches: &Arc<Searches>,
    client: &Socket,
) -> Response<Full<Bytes>> {
    let start = Instant::now();
    let (method, uri) = (req.method().clone(), req.uri().clone());
    let Some(place) = searches.admit() else {
        let response = busy();
        log_response(peer, &method, &uri, &response, start);
        return response;
    };
    let gone = client.closed();
    tokio::pin!(gone);
    let turn = tokio::select! {
        biased;
        () = &mut gone => return given_up(peer, &method, &uri, start),
        turn = place.turn() => turn,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let searching = stop.clone();
    // The turn goes with the search: the next one starts when this one
    // has stopped, not when its client went.
    let job = tokio::task::spawn_blocking(move || {
        let _turn = turn;
        answer(&app, &req, &searching)
    });
    tokio::select! {
        biased;
        answered = job => {
            let response = answered.unwrap_or_else(|_| internal_error());
            log_response(peer, &method, &uri, &response, start);
            response
        }
        () = gone => {
            stop.store(true, Ordering::Relaxed);
            given_up(peer, &method, &uri, start)
        }
    }
}

/// The 503 answer when every place among the searches is taken.
fn busy() -> Response<Full<Bytes>> {
    let mut r = reply_response(Reply::error(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "busy: as many searches as this server takes are running or waiting; \
             ask again in {RETRY_AFTER_SECS} s (positions of solved variants are answered at once)"
        ),
    ));
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
    r
}

/// Logs a search given up because its client closed the connection; the
/// answer is for nobody.
fn given_up(peer: SocketAddr, method: &Method, uri: &hyper::Uri, start: Instant) -> Response<Full<Bytes>> {
    log_access(peer, method, uri, CLIENT_CLOSED, 0, start);
    let status = StatusCode::from_u16(CLIENT_CLOSED).unwrap_or(StatusCode::BAD_REQUEST);
    reply_response(Reply::error(
        status,
        "the client closed the connection before the answer",
    ))
}

fn internal_error() -> Response<Full<Bytes>> {
    reply_response(Reply::error(StatusCode::INTERNAL_SERVER_ERROR, "internal error"))
}

fn answer(app: &App, req: &Request<Incoming>, stop: &AtomicBool) -> Response<Full<Bytes>> {
    let uri = req.uri();
    // The gate refuses longer targets already; this keeps the limit if
    // requests come another way.
    let too_long = uri.path_and_query().map_or(0, |pq| pq.as_str().len()) > MAX_URI;
    let reply = match *req.method() {
        Method::OPTIONS => return preflight(req),
        _ if too_long => Reply::error(
            StatusCode::URI_TOO_LONG,
            format!("request target longer than {MAX_URI} bytes"),
        ),
        Method::GET | Method::HEAD if wants_page(req) => {
            let mut r = reply_response(Reply {
                status: StatusCode::SEE_OTHER,
                body: Bytes::from_static(b"The page is at /ui/\n"),
                content_type: "text/plain; charset=utf-8",
            });
            r.headers_mut()
                .insert(header::LOCATION, HeaderValue::from_static("/ui/"));
            return r;
        }
        Method::GET | Method::HEAD => {
            // A bug must cost one request, never the server.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                app.get_until(uri.path(), uri.query(), stop)
            }))
            .unwrap_or_else(|_| Reply::error(StatusCode::INTERNAL_SERVER_ERROR, "internal error"))
        }
        _ => {
            let mut r = reply_response(Reply::error(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("method {} not allowed; this API is read-only (GET)", req.method()),
            ));
            r.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD, OPTIONS"));
            return r;
        }
    };
    reply_response(reply)
}

/// A browser opening the server's root: it asks for HTML first, where
/// GamesmanUni and scripts ask for JSON (or anything), so they keep the
/// games list at `/` and people are sent to the page.
fn wants_page(req: &Request<Incoming>) -> bool {
    req.uri().path() == "/"
        && req
            .headers()
            .get(header::ACCEPT)
            .and_then(|a| a.to_str().ok())
            .is_some_and(|a| a.trim_start().starts_with("text/html"))
}

fn with_cors(mut r: Response<Full<Bytes>>) -> Response<Full<Bytes>> {
    r.headers_mut()
        .insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    r
}

fn reply_response(reply: Reply) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(reply.body));
    *r.status_mut() = reply.status;
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(reply.content_type));
    with_cors(r)
}

/// A CORS preflight: any origin, the read-only methods, any headers asked for.
fn preflight(req: &Request<Incoming>) -> Response<Full<Bytes>> {
    let mut r = with_cors(Response::new(Full::new(Bytes::new())));
    *r.status_mut() = StatusCode::NO_CONTENT;
    let h = r.headers_mut();
    h.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, HEAD, OPTIONS"),
    );
    let asked = req.headers().get(header::ACCESS_CONTROL_REQUEST_HEADERS);
    h.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        asked.cloned().unwrap_or(HeaderValue::from_static("*")),
    );
    h.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("86400"));
    r
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn times_past_what_the_clock_can_add_are_answered_not_panicked() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let limits = Limits {
            idle: Duration::MAX,
            grace: Duration::MAX,
            last_call: Duration::MAX,
            ..Limits::default()
        };
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(run(Arc::new(App::new(Vec::new())), listener, limits, async {
            let _ = stopped.await;
        }));
        let mut client = tokio::net::TcpStream::connect(addr).await.unwrap();
        client
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut answer = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(10), client.read_to_end(&mut answer)).await;
        assert!(matches!(read, Ok(Ok(_))), "{read:?}");
        let text = String::from_utf8_lossy(&answer);
        assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
        let _ = stop.send(());
        tokio::time::timeout(Duration::from_secs(10), server)
            .await
            .expect("stops")
            .unwrap();
    }
}

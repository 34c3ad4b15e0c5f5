//! The HTTP/1.1 server: accepting connections, per-request handling with
//! CORS and the access log, idle and header timeouts, graceful shutdown.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
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

use crate::routes::{App, Reply};

/// The longest request target answered; GamesmanUni's are under 100 bytes.
pub const MAX_URI: usize = 2048;
/// Bytes buffered per connection for a request head.
const MAX_HEAD: usize = 16 * 1024;

/// Timing limits of the server.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// A connection that completes no request for this long (idle keep-alive,
    /// a request head trickling in) is closed; a response the client does
    /// not read is abandoned after twice this.
    pub idle: Duration,
    /// How long shutdown waits for requests in flight.
    pub grace: Duration,
}

/// Serves `app` on `listener` until `shutdown` completes, then lets the
/// requests in flight finish (up to `limits.grace`) and returns.
pub async fn run(app: Arc<App>, listener: TcpListener, limits: Limits, shutdown: impl Future<Output = ()>) {
    let (stop_tx, stop_rx) = watch::channel(false);
    // Every connection task holds a sender; when all are gone, recv() ends.
    let (alive_tx, mut alive_rx) = mpsc::channel::<()>(1);
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let conn = Connection { app: app.clone(), peer, limits };
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
    tracing::info!("shutting down: no new connections; finishing requests in flight");
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
}

impl Connection {
    async fn serve(self, stream: TcpStream, mut stop: watch::Receiver<bool>, _alive: mpsc::Sender<()>) {
        let _ = stream.set_nodelay(true);
        let born = Instant::now();
        // Milliseconds since `born` of the last request seen.
        let active = Arc::new(AtomicU64::new(0));
        let (app, peer, seen) = (self.app.clone(), self.peer, active.clone());
        let service = service_fn(move |req: Request<Incoming>| {
            seen.store(born.elapsed().as_millis() as u64, Ordering::Relaxed);
            std::future::ready(Ok::<_, Infallible>(handle(&app, &req, peer)))
        });
        let idle = self.limits.idle;
        let conn = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(idle)
            .max_buf_size(MAX_HEAD)
            .serve_connection(TokioIo::new(stream), service);
        tokio::pin!(conn);
        let wake = tokio::time::sleep(idle);
        tokio::pin!(wake);
        let mut closing = *stop.borrow();
        if closing {
            conn.as_mut().graceful_shutdown();
        }
        loop {
            tokio::select! {
                result = conn.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(peer = %self.peer, error = %e, "connection ended with an error");
                    }
                    return;
                }
                _ = stop.changed(), if !closing => {
                    conn.as_mut().graceful_shutdown();
                    closing = true;
                    wake.as_mut().reset(tokio::time::Instant::now() + idle);
                }
                () = &mut wake => {
                    // A connection already closing that is still not done
                    // (a client not reading its response) is dropped.
                    if closing {
                        return;
                    }
                    let last = Duration::from_millis(active.load(Ordering::Relaxed));
                    let quiet = born.elapsed().saturating_sub(last);
                    if quiet >= idle {
                        conn.as_mut().graceful_shutdown();
                        closing = true;
                        wake.as_mut().reset(tokio::time::Instant::now() + idle);
                    } else {
                        wake.as_mut().reset(tokio::time::Instant::now() + (idle - quiet));
                    }
                }
            }
        }
    }
}

/// Answers one request and writes its access-log line.
fn handle(app: &App, req: &Request<Incoming>, peer: SocketAddr) -> Response<Full<Bytes>> {
    let start = Instant::now();
    let response = answer(app, req);
    let bytes = hyper::body::Body::size_hint(response.body()).exact().unwrap_or(0);
    tracing::info!(
        target: "access",
        peer = %peer,
        method = %req.method(),
        uri = %req.uri(),
        status = response.status().as_u16(),
        bytes,
        micros = start.elapsed().as_micros() as u64,
    );
    response
}

fn answer(app: &App, req: &Request<Incoming>) -> Response<Full<Bytes>> {
    let uri = req.uri();
    let too_long = uri.path_and_query().map_or(0, |pq| pq.as_str().len()) > MAX_URI;
    let reply = match *req.method() {
        Method::OPTIONS => return preflight(req),
        _ if too_long => Reply::error(
            StatusCode::URI_TOO_LONG,
            format!("request target longer than {MAX_URI} bytes"),
        ),
        Method::GET | Method::HEAD => {
            // A bug must cost one request, never the server.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| app.get(uri.path(), uri.query())))
                .unwrap_or_else(|_| Reply::error(StatusCode::INTERNAL_SERVER_ERROR, "internal error"))
        }
        _ => {
            let mut r = json_response(Reply::error(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("method {} not allowed; this API is read-only (GET)", req.method()),
            ));
            r.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD, OPTIONS"));
            return r;
        }
    };
    json_response(reply)
}

fn with_cors(mut r: Response<Full<Bytes>>) -> Response<Full<Bytes>> {
    r.headers_mut()
        .insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    r
}

fn json_response(reply: Reply) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(reply.body));
    *r.status_mut() = reply.status;
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
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

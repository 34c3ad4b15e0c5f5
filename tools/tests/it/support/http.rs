//! A minimal blocking HTTP/1.1 client for the server's tests and load
//! benchmark: keep-alive GETs and raw one-shot requests, bodies framed by
//! Content-Length (all the server sends).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// A response: status, headers (names lower-cased) and body.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers in order, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// The first value of header `name` (lower-case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}): {:?}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }
}

/// Reads one response from `r`; `head_only` for a response to HEAD.
pub fn read_response(r: &mut impl BufRead, head_only: bool) -> std::io::Result<Response> {
    let bad = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
    let mut line = String::new();
    if r.read_line(&mut line)? == 0 {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad(format!("bad status line {line:?}")))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        r.read_line(&mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let (k, v) = l
            .split_once(':')
            .ok_or_else(|| bad(format!("bad header {l:?}")))?;
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let mut resp = Response {
        status,
        headers,
        body: Vec::new(),
    };
    if resp.header("transfer-encoding").is_some() {
        return Err(bad("chunked bodies are not expected from this server".into()));
    }
    let len: usize = resp
        .header("content-length")
        .map_or(Ok(0), str::parse)
        .map_err(|e| bad(format!("content-length: {e}")))?;
    if !head_only {
        resp.body = vec![0; len];
        r.read_exact(&mut resp.body)?;
    }
    Ok(resp)
}

/// A keep-alive connection.
pub struct Client {
    reader: BufReader<TcpStream>,
}

impl Client {
    /// Connects to `addr`, with a 10 s read timeout.
    pub fn connect(addr: SocketAddr) -> std::io::Result<Client> {
        let stream = TcpStream::connect(addr)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        Ok(Client {
            reader: BufReader::new(stream),
        })
    }

    /// `GET target` on this connection.
    pub fn get(&mut self, target: &str) -> std::io::Result<Response> {
        self.send("GET", target, "")
    }

    /// `method target` with extra header lines (each ending in `\r\n`).
    pub fn send(&mut self, method: &str, target: &str, headers: &str) -> std::io::Result<Response> {
        let req = format!("{method} {target} HTTP/1.1\r\nHost: localhost\r\n{headers}\r\n");
        self.reader.get_mut().write_all(req.as_bytes())?;
        read_response(&mut self.reader, method == "HEAD")
    }
}

/// One request on a fresh connection.
pub fn request(addr: SocketAddr, method: &str, target: &str) -> Response {
    Client::connect(addr)
        .and_then(|mut c| c.send(method, target, "Connection: close\r\n"))
        .unwrap_or_else(|e| panic!("{method} {target}: {e}"))
}

/// `GET target` on a fresh connection.
pub fn get(addr: SocketAddr, target: &str) -> Response {
    request(addr, "GET", target)
}

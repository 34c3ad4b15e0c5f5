//! A headless Chromium driven through WebDriver (Debian's
//! `chromium-driver`), as the browser-page test drives it: plain HTTP and
//! JSON, no client library.

use std::io::{BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::http::read_response;

/// `chromedriver` on PATH, if any.
pub fn chromedriver() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("chromedriver"))
        .find(|p| p.is_file())
}

/// A running chromedriver with one browser session; both end on drop.
pub struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
}

/// One WebDriver command; its `value`.
fn call(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
    let resp = read_response(&mut BufReader::new(stream), false).map_err(|e| e.to_string())?;
    let v: Value = serde_json::from_slice(&resp.body).map_err(|e| format!("{e}: {:?}", resp.body))?;
    if resp.status >= 400 {
        return Err(format!("{method} {path}: {}", v["value"]));
    }
    Ok(v["value"].clone())
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with a fresh profile
    /// under `dir`.
    pub fn start(driver: &Path, dir: &Path) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let start = Instant::now();
        while call(addr, "GET", "/status", None).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:loggingPrefs": {"browser": "SEVERE"}, "goog:chromeOptions": {"args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--window-size=1100,900", format!("--user-data-dir={}", dir.join("profile").display()),
        ]}}}});
        let session = call(addr, "POST", "/session", Some(&caps)).expect("a browser session");
        Browser {
            driver: child,
            addr,
            session: session["sessionId"].as_str().unwrap().to_string(),
        }
    }

    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        call(self.addr, method, &path, body.as_ref()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Opens `url`.
    pub fn open(&self, url: &str) {
        self.command("POST", "/url", Some(json!({ "url": url })));
    }

    /// Fails on any error the page's scripts raised since the last call
    /// (a server's refusal, logged as a failed load, is not one).
    pub fn assert_no_script_errors(&self) {
        let log = self.command("POST", "/se/log", Some(json!({"type": "browser"})));
        let errors: Vec<&Value> = log
            .as_array()
            .map(|l| l.iter().filter(|e| e["source"] == "javascript").collect())
            .unwrap_or_default();
        assert!(errors.is_empty(), "the page's scripts failed: {errors:?}");
    }

    /// Emulates a touch screen (no hover, a coarse pointer) or not.
    pub fn touch(&self, on: bool) {
        self.command(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": "Emulation.setTouchEmulationEnabled", "params": {"enabled": on, "maxTouchPoints": if on { 5 } else { 1 }}})),
        );
    }

    /// The browser's Back button.
    pub fn back(&self) {
        self.command("POST", "/back", Some(json!({})));
    }

    /// The browser's Forward button.
    pub fn forward(&self) {
        self.command("POST", "/forward", Some(json!({})));
    }

    /// The value of the script `body` (a function body: `return ...`).
    pub fn eval(&self, body: &str) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({ "script": body, "args": [] })),
        )
    }

    /// Waits up to 20 s for the script `body` to return a truthy value, and
    /// returns it.
    pub fn wait_for(&self, what: &str, body: &str) -> Value {
        self.wait_until(what, Duration::from_secs(20), body)
    }

    /// [`Browser::wait_for`], waiting up to `limit`.
    pub fn wait_until(&self, what: &str, limit: Duration, body: &str) -> Value {
        let start = Instant::now();
        loop {
            let v = self.eval(body);
            if !(v.is_null() || v == json!(false) || v == json!("")) {
                return v;
            }
            assert!(start.elapsed() < limit, "waited {limit:?} for {what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The element `css` selects, or why there is none (the page may have
    /// drawn it anew since it was read).
    pub fn try_find(&self, css: &str) -> Result<String, String> {
        let path = format!("/session/{}/element", self.session);
        let found = call(
            self.addr,
            "POST",
            &path,
            Some(&json!({ "using": "css selector", "value": css })),
        )?;
        found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("no element {css}"))
    }

    /// The element `css` selects (panics if none).
    pub fn find(&self, css: &str) -> String {
        let v = self.command(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    /// Clicks the element `css` selects, as a person would (the driver
    /// scrolls it into view and clicks its centre).
    pub fn click(&self, css: &str) {
        let id = self.find(css);
        self.command("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    /// Clicks the element `css` selects, as [`Browser::click`] does, but
    /// says so rather than panic when the element is gone or was drawn
    /// anew between finding and clicking it (a page that changes by
    /// itself, as a real-time game does).
    #[allow(dead_code)]
    pub fn try_click(&self, css: &str) -> Result<(), String> {
        let id = self.try_find(css)?;
        let path = format!("/session/{}/element/{id}/click", self.session);
        call(self.addr, "POST", &path, Some(&json!({}))).map(|_| ())
    }

    /// Types `text` into the element `css` selects.
    pub fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.command("POST", &format!("/element/{id}/clear"), Some(json!({})));
        self.command(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// Presses and releases `key` (a character, or a WebDriver key code
    /// such as `"\u{E007}"`, Enter) on whatever has the focus, as a
    /// keyboard does.
    pub fn press(&self, key: &str) {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key},
        ]}]});
        self.command("POST", "/actions", Some(actions));
    }

    /// Presses the mouse on the centre of the element `css` selects, holds
    /// it `hold_ms`, and releases it: a click as a person makes one, during
    /// which the page may change under the pointer. An element drawn anew
    /// or gone before the press is an error, as [`Browser::try_click`]
    /// says it.
    pub fn slow_click(&self, css: &str, hold_ms: u64) -> Result<(), String> {
        let id = self.try_find(css)?;
        let actions = json!({"actions": [{"type": "pointer", "id": "mouse",
            "parameters": {"pointerType": "mouse"}, "actions": [
            {"type": "pointerMove", "origin": {"element-6066-11e4-a52e-4f735466cecf": id}, "x": 0, "y": 0},
            {"type": "pointerDown", "button": 0},
            {"type": "pause", "duration": hold_ms},
            {"type": "pointerUp", "button": 0},
        ]}]});
        let path = format!("/session/{}/actions", self.session);
        call(self.addr, "POST", &path, Some(&actions)).map(|_| ())
    }

    /// Shows the page as a screen of `width` × `height` CSS pixels does (a
    /// phone's when `mobile`), whatever the window's size: Chromium's
    /// device emulation, through chromedriver.
    pub fn emulate(&self, width: u32, height: u32, mobile: bool) {
        self.command(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": "Emulation.setDeviceMetricsOverride", "params": {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile,
            }})),
        );
    }

    /// A screenshot of the page at `width` × `height` (emulated), written
    /// to `name` in [`screenshot_dir`]; the emulation is left on.
    pub fn screenshot_at(&self, width: u32, height: u32, name: &str) -> PathBuf {
        self.emulate(width, height, width < 600);
        // A frame for the layout to settle at the new size.
        std::thread::sleep(Duration::from_millis(300));
        let png = self.screenshot();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{name} is a PNG");
        let path = screenshot_dir().join(name);
        std::fs::write(&path, png).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        path
    }

    /// Resizes the window to `width` × `height` pixels.
    pub fn resize(&self, width: u32, height: u32) {
        self.command(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        );
    }

    /// A screenshot of the window, as PNG bytes.
    pub fn screenshot(&self) -> Vec<u8> {
        let b64 = self.command("GET", "/screenshot", None);
        decode_base64(b64.as_str().unwrap())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = call(self.addr, "DELETE", &format!("/session/{}", self.session), None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .map(value)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | (u32::from(d) << (18 - 6 * i)));
        out.extend(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// Where the browser tests write their screenshots, to be looked at:
/// `$TOPITOP_SCREENSHOTS`, or `screenshots/` under Cargo's temporary
/// directory for tests (`target/tmp/screenshots`).
pub fn screenshot_dir() -> PathBuf {
    let dir = std::env::var_os("TOPITOP_SCREENSHOTS").map_or_else(
        || Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots"),
        PathBuf::from,
    );
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

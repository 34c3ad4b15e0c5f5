//! `stats --report`, checked as a person would check it: the file parses
//! as XML with a real parser, fetches nothing, shows the figures and
//! numbers it should, and (where a headless Chromium is installed) opens
//! in a browser with its charts drawn.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use support::browser::{chromium, run_for};
use support::run::{stderr, stdout, temp_dir, topitop};

/// A small game: solved in about a second.
const BUDGET: &str = "2/0/2/2";

/// The figures the report must have, by id.
const FIGURES: [&str; 3] = [
    "fig-positions-by-value-and-remoteness",
    "fig-positions-by-value-and-pieces-placed",
    "fig-tier-size-and-positions-stored",
];

/// The solved database and `stats --report` of it, made once for all the
/// tests here: (database, report).
fn report() -> &'static (PathBuf, PathBuf) {
    static MADE: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    MADE.get_or_init(|| {
        let dir = temp_dir("report");
        let o = topitop(&["solve", "--budget", BUDGET, "--out", dir.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let db = dir.join("topitop_v1_0_2-0-2-2.db");
        let html = dir.join("r.html");
        let o = topitop(&[
            "stats",
            "--db",
            db.to_str().unwrap(),
            "--report",
            html.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("wrote {}", html.display())),
            "{}",
            stderr(&o)
        );
        (db, html)
    })
}

/// `stats --json` of the database, parsed.
fn stats_json(db: &Path) -> serde_json::Value {
    let o = topitop(&["stats", "--db", db.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// What Python's XML parser (expat, strict) finds in the page: it fails on
/// anything not well-formed.
const READ_PAGE: &str = r#"
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
local = lambda t: t.rsplit('}', 1)[-1]
text = lambda e: ' '.join(''.join(e.itertext()).split())
out = {'root': local(root.tag), 'figures': {}, 'tables': {}, 'links': []}
for e in root.iter():
    for k, v in e.attrib.items():
        if local(k) in ('src', 'href'):
            out['links'].append(v)
    tag = local(e.tag)
    if tag == 'figure':
        caps = [c for c in e if local(c.tag) == 'figcaption']
        out['figures'][e.get('id')] = {
            'caption': text(caps[0]) if caps else None,
            'svg': sum(1 for c in e.iter() if local(c.tag) == 'svg'),
            'shapes': sum(1 for c in e.iter() if local(c.tag) in ('rect', 'circle', 'polyline', 'path')),
        }
    if tag == 'table':
        rows = [[text(c) for c in r if local(c.tag) in ('td', 'th')]
                for r in e.iter() if local(r.tag) == 'tr']
        out['tables'][e.get('id')] = rows
print(json.dumps(out))
"#;

#[test]
fn stats_report_is_well_formed_self_contained_and_complete() {
    // Over 100 lines on purpose: one report made, then every section of it
    // checked.
    let (db, html_path) = report();
    let html = std::fs::read_to_string(html_path).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>\n"), "{}", &html[..80]);

    let o = Command::new("python3")
        .arg("-c")
        .arg(READ_PAGE)
        .arg(html_path)
        .output()
        .expect("run python3");
    assert!(o.status.success(), "not well-formed XML: {}", stderr(&o));
    let page: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(page["root"], "html");

    // Nothing fetched: no link leaves the page, nothing loads from outside.
    for link in page["links"].as_array().unwrap() {
        assert!(link.as_str().unwrap().starts_with('#'), "link {link}");
    }
    for needle in ["src=", "<script", "<link", "<img", "@import", "url("] {
        assert!(!html.contains(needle), "{needle} in the page");
    }
    for attr in ["src=\"http", "href=\"http", "href=\"//", "src=\"//"] {
        assert!(!html.contains(attr), "{attr} in the page");
    }

    // Each figure: its caption, one SVG, and something drawn in it.
    let figures = &page["figures"];
    for (id, caption) in FIGURES.iter().zip([
        "Positions by value and remoteness",
        "Positions by value and pieces placed",
        "Tier size and positions stored",
    ]) {
        let f = &figures[id];
        assert!(f["caption"].as_str().unwrap().starts_with(caption), "{id}: {f}");
        assert_eq!(f["svg"], 1, "{id}");
        assert!(f["shapes"].as_u64().unwrap() > 10, "{id}: {f}");
    }

    // The totals table holds the numbers `stats --json` prints.
    let stats = stats_json(db);
    let totals = page["tables"]["table-totals"].as_array().unwrap();
    let number = |figure: &str| -> String {
        let row = totals
            .iter()
            .find(|r| r[0] == figure)
            .unwrap_or_else(|| panic!("no row {figure}"));
        // Counts are written grouped by commas, as everywhere in a report.
        row[1].as_str().unwrap().replace(',', "")
    };
    for (figure, key) in [
        ("file size (bytes)", "file_bytes"),
        ("records stored", "records_stored"),
        ("positions (classes)", "play_classes"),
        ("win", "win"),
        ("lose", "lose"),
        ("tie", "tie"),
        ("draw", "draw"),
        ("primitive", "primitive"),
        ("also stored", "unplayable_stored"),
        ("indices", "index_states"),
        ("GamesmanClassic slots", "gamesman_classic_slots"),
    ] {
        assert_eq!(number(figure), stats[key].to_string(), "{figure}");
    }
    assert_eq!(
        number("longest win"),
        stats["reachable"]["longest_win"]["remoteness"].to_string()
    );
    assert_eq!(number("reachable"), stats["reachable"]["positions"].to_string());
    assert_eq!(
        number("branching factor"),
        format!("{:.2}", stats["branching_factor"].as_f64().unwrap())
    );

    // The remoteness table behind the chart adds up to the totals.
    let by_remoteness = page["tables"]["table-positions-by-remoteness"]
        .as_array()
        .unwrap();
    assert_eq!(
        by_remoteness[0],
        serde_json::json!(["remoteness", "win", "lose", "tie"])
    );
    let sum = |rows: &[serde_json::Value], column: usize| -> u64 {
        rows.iter()
            .map(|r| {
                r[column]
                    .as_str()
                    .unwrap()
                    .replace(',', "")
                    .parse::<u64>()
                    .unwrap()
            })
            .sum()
    };
    for (column, key) in [(1, "win"), (2, "lose"), (3, "tie")] {
        assert_eq!(
            sum(&by_remoteness[1..], column),
            stats[key].as_u64().unwrap(),
            "{key}"
        );
    }
    // So do the columns of the tiers table, one row a tier holding
    // positions of play.
    let tiers = page["tables"]["table-positions-by-tier-and-value"]
        .as_array()
        .unwrap();
    for (column, key) in [
        (1, "play_classes"),
        (2, "win"),
        (3, "lose"),
        (4, "tie"),
        (5, "draw"),
    ] {
        assert_eq!(sum(&tiers[1..], column), stats[key].as_u64().unwrap(), "{key}");
    }
    assert_eq!(
        by_remoteness.len() as u64 - 2,
        stats["longest_win"]["remoteness"].as_u64().unwrap().max(
            stats["longest_lose"]["remoteness"]
                .as_u64()
                .unwrap()
                .max(stats["longest_tie"]["remoteness"].as_u64().unwrap())
        )
    );
}

#[test]
fn stats_text_and_json_are_the_same_with_a_report() {
    let (db, _) = report();
    let dir = temp_dir("report-text");
    let db = db.to_str().unwrap();
    let plain = topitop(&["stats", "--db", db]);
    let with = topitop(&[
        "stats",
        "--db",
        db,
        "--report",
        dir.join("a.html").to_str().unwrap(),
    ]);
    assert_eq!(stdout(&plain), stdout(&with));
    let json = topitop(&["stats", "--db", db, "--json"]);
    let json_with = topitop(&[
        "stats",
        "--db",
        db,
        "--json",
        "--report",
        dir.join("b.html").to_str().unwrap(),
    ]);
    assert_eq!(stdout(&json), stdout(&json_with));
    assert!(dir.join("a.html").exists() && dir.join("b.html").exists());
}

#[test]
fn stats_report_to_standard_output_is_the_page_alone() {
    let (db, html_path) = report();
    let o = topitop(&["stats", "--db", db.to_str().unwrap(), "--report", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), std::fs::read_to_string(html_path).unwrap());
}

#[test]
fn stats_refuses_a_report_path_that_is_a_directory() {
    let (db, _) = report();
    let dir = temp_dir("report-dir");
    let o = topitop(&[
        "stats",
        "--db",
        db.to_str().unwrap(),
        "--report",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "nothing printed before the error");
}

/// The RGB pixels of an 8-bit RGB or RGBA PNG, decoded by Python's zlib
/// (the test crate has no image decoder): width, height, pixels.
const DECODE_PNG: &str = r#"
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, colour = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
assert depth == 8 and colour in (2, 6), (depth, colour)
bpp = 3 if colour == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
colours = {}
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp * 2):
        rgb = bytes(line[x:x + 3])
        colours[rgb] = colours.get(rgb, 0) + 1
    prev = line
white = colours.get(b'\xff\xff\xff', 0)
total = sum(colours.values())
near = lambda r, g, b: sum(n for k, n in colours.items() if abs(k[0] - r) + abs(k[1] - g) + abs(k[2] - b) < 24)
print(w, h, total - white, total, near(46, 158, 79), near(214, 69, 61), near(12, 44, 132) + near(29, 145, 192))
"#;

#[test]
fn stats_report_renders_in_a_headless_browser() {
    let Some(chromium) = chromium() else {
        // CI installs Chromium and sets this, so the check cannot be
        // skipped there by accident.
        assert!(
            std::env::var_os("TOPITOP_REQUIRE_CHROMIUM").is_none(),
            "TOPITOP_REQUIRE_CHROMIUM is set but no chromium is on PATH"
        );
        crate::support::skip("no chromium (apt-get install -y chromium) to render the report with");
        return;
    };
    let (_, html_path) = report();
    let dir = temp_dir("report-browser");
    let url = format!("file://{}", html_path.canonicalize().unwrap().display());
    let browser = |extra: &[String]| {
        let mut cmd = Command::new(&chromium);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .args(extra)
        .arg(&url);
        run_for(&mut cmd, Duration::from_secs(120))
    };

    // The DOM the browser built: the charts' SVG elements are in it.
    let dom = browser(&["--dump-dom".to_string()]).expect("chromium --dump-dom");
    let dom = String::from_utf8_lossy(&dom);
    assert_eq!(dom.matches("<svg").count(), FIGURES.len(), "{dom}");
    for id in FIGURES {
        assert!(dom.contains(&format!("id=\"{id}\"")), "{id} in the rendered DOM");
    }

    // The picture: not blank, and the charts' colours are on it (the
    // green and red bars of win and lose, the blues of the heat map).
    let shot = dir.join("shot.png");
    browser(&[
        format!("--screenshot={}", shot.display()),
        "--window-size=1200,3000".to_string(),
    ])
    .expect("chromium --screenshot");
    let size = std::fs::metadata(&shot).expect("the screenshot exists").len();
    assert!(size > 20_000, "screenshot of {size} bytes");
    let o = Command::new("python3")
        .arg("-c")
        .arg(DECODE_PNG)
        .arg(&shot)
        .output()
        .expect("run python3");
    assert!(o.status.success(), "{}", stderr(&o));
    let n: Vec<u64> = stdout(&o)
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    let [w, h, inked, total, green, red, blue] = n[..] else {
        panic!("{}", stdout(&o))
    };
    assert_eq!((w, h), (1200, 3000));
    assert!(
        inked * 50 > total,
        "mostly blank: {inked} of {total} pixels not white"
    );
    for (name, count) in [("win green", green), ("lose red", red), ("heat-map blue", blue)] {
        assert!(count > 50, "{name}: {count} pixels");
    }
}

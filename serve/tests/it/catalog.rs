//! The catalog of a game's database files over a fake game: what it
//! serves at start, and what each check does as files appear, change,
//! break and go.

use std::path::Path;
use std::sync::Arc;

use topitop_serve::catalog::{Catalog, Change, FileStamp, Shelf, Slot};
use topitop_serve::{App, PositionError, PositionResponse, ServedGame, ServedVariant};

/// A variant read from a file: its id and the file's text.
struct Read(String, String);

impl ServedVariant for Read {
    fn id(&self) -> &str {
        &self.0
    }
    fn name(&self) -> &str {
        &self.1
    }
    fn start(&self) -> String {
        "s".into()
    }
    fn autogui_start(&self) -> String {
        "1_s".into()
    }
    fn image_autogui_data(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    fn instructions(&self, _: &str) -> String {
        String::new()
    }
    fn position(&self, p: &str) -> Result<PositionResponse, PositionError> {
        Err(PositionError::Invalid(p.into()))
    }
    fn turn(&self, _: &str) -> Option<&'static str> {
        None
    }
    fn reachable(&self, _: &str) -> Option<bool> {
        None
    }
}

/// Game `g`: variants `b` before `a`, `old` a file of it not served
/// here; a file is valid when its text starts with `ok`; `e` is
/// answered by search.
struct Fake;

impl Shelf for Fake {
    fn game(&self) -> &str {
        "g"
    }
    fn title(&self) -> String {
        "G".into()
    }
    fn slot(&self, variant: &str) -> Result<Option<Slot>, String> {
        match variant {
            "b" | "a" | "e" => Ok(Some(Slot {
                id: variant.into(),
                order: usize::from(variant != "b"),
            })),
            "old" => Ok(None),
            _ => Err(format!("{variant:?} is no variant")),
        }
    }
    fn open(&self, variant: &str, path: &Path, _: bool) -> Result<Arc<dyn ServedVariant>, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        if text.starts_with("ok") {
            Ok(Arc::new(Read(variant.into(), text)))
        } else {
            Err(format!("damaged: {text}"))
        }
    }
    fn unsolved(&self) -> Vec<Arc<dyn ServedVariant>> {
        vec![Arc::new(Read("e".into(), "search".into()))]
    }
}

fn names(game: &ServedGame) -> Vec<String> {
    game.variants
        .iter()
        .map(|v| format!("{}={}", v.id(), v.name()))
        .collect()
}

#[test]
fn files_are_found_reloaded_added_and_kept_when_gone() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| dir.path().join(name);
    std::fs::write(file("g_a.db"), "ok 1").unwrap();
    std::fs::write(file("g_b.db"), "bad").unwrap();
    std::fs::write(file("g_old.db"), "bad").unwrap();
    std::fs::write(file("g_zz.db"), "bad").unwrap();
    std::fs::write(file("h_a.db"), "ok").unwrap();
    let mut catalog = Catalog::open(Arc::new(Fake), dir.path());
    assert_eq!(catalog.databases(), 1);
    assert_eq!(
        catalog.damaged().len(),
        1,
        "only the variant's file: {:?}",
        catalog.damaged()
    );
    assert!(catalog.damaged()[0].contains("g_b.db: damaged"));
    assert_eq!(names(&catalog.served()), ["a=ok 1", "e=search"]);
    let app = App::new(vec![catalog.served()]);
    assert_eq!(catalog.check(&app), []);
    // Repaired: added in the game's order.
    std::fs::write(file("g_b.db"), "ok 2").unwrap();
    assert_eq!(catalog.check(&app), [Change::Added("b".into())]);
    assert_eq!(app.variant_ids("g"), ["b", "a", "e"]);
    // Renamed over: reloaded; then damaged in place: the copy kept.
    std::fs::write(file("tmp"), "ok 3").unwrap();
    std::fs::rename(file("tmp"), file("g_a.db")).unwrap();
    assert_eq!(catalog.check(&app), [Change::Reloaded("a".into())]);
    std::fs::write(file("g_a.db"), "cut").unwrap();
    assert_eq!(catalog.check(&app), [Change::Refused("a".into())]);
    assert_eq!(names(&catalog.served()), ["b=ok 2", "a=ok 3", "e=search"]);
    // A new file answers what the search answered.
    std::fs::write(file("g_e.db"), "ok 4").unwrap();
    assert_eq!(catalog.check(&app), [Change::Added("e".into())]);
    assert_eq!(names(&catalog.served()), ["b=ok 2", "a=ok 3", "e=ok 4"]);
    // Gone: served from memory; back: read again.
    std::fs::remove_file(file("g_b.db")).unwrap();
    assert_eq!(catalog.check(&app), [Change::Removed("b".into())]);
    assert_eq!(app.variant_ids("g"), ["b", "a", "e"]);
    std::fs::write(file("g_b.db"), "ok 5").unwrap();
    assert_eq!(catalog.check(&app), [Change::Reloaded("b".into())]);
    assert_eq!(catalog.check(&app), []);
}

#[test]
fn a_stamp_changes_with_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    std::fs::write(&path, b"one").unwrap();
    let first = FileStamp::of(&path).unwrap();
    assert_eq!(FileStamp::of(&path).unwrap(), first);
    // In place, same length.
    std::fs::write(&path, b"two").unwrap();
    let second = FileStamp::of(&path).unwrap();
    assert_ne!(second, first);
    // Renamed over.
    std::fs::write(dir.path().join("g"), b"two").unwrap();
    std::fs::rename(dir.path().join("g"), &path).unwrap();
    assert_ne!(FileStamp::of(&path).unwrap(), second);
}

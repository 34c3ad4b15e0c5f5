//! The one writer of whole files and the finder of what killed writers
//! left.

use std::io::Write;

use topitop_files::temps::{temps_beside, write_whole};

#[test]
fn a_whole_write_replaces_the_target_or_leaves_it() {
    let d = tempfile::tempdir().unwrap();
    let target = d.path().join("t.db");
    std::fs::write(&target, "old").unwrap();
    let fail = write_whole::<(), _>(
        &target,
        |out| {
            out.write_all(b"half").map_err(|_| "io")?;
            Err("stop")
        },
        |_| "io",
    );
    assert_eq!(fail, Err("stop"));
    assert_eq!(std::fs::read(&target).unwrap(), b"old");
    assert_eq!(temps_beside(&target).unwrap(), vec![], "the temporary is removed");
    let n = write_whole(
        &target,
        |out| out.write_all(b"new").map(|()| 3).map_err(|e| e.kind()),
        |e| e.kind(),
    );
    assert_eq!(n, Ok(3));
    assert_eq!(std::fs::read(&target).unwrap(), b"new");
    let e = write_whole(&d.path().join("no/such"), |_| Ok(()), |e| e.kind()).unwrap_err();
    assert_eq!(e, std::io::ErrorKind::NotFound);
}

#[test]
fn temporaries_of_this_and_older_builds_are_found_and_nothing_else() {
    let d = tempfile::tempdir().unwrap();
    let target = d.path().join("t.db");
    for name in [
        "t.db.tmp.41.3",
        "t.db.tmp.42",
        "t.db.tmp.x",
        "t.db.tmp.43.y",
        "t.db.tmp.",
        "u.db.tmp.7",
        "t.db",
    ] {
        std::fs::write(d.path().join(name), "").unwrap();
    }
    let mut found = temps_beside(&target).unwrap();
    found.sort();
    assert_eq!(
        found,
        vec![
            (d.path().join("t.db.tmp.41.3"), 41),
            (d.path().join("t.db.tmp.42"), 42)
        ]
    );
}

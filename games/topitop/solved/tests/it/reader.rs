//! Topitop's database through the shared reader: its tiers' chunks are
//! the stored positions of play in storage order, each found again by
//! `lookup`, and its reachability test agrees with the rules'.

use crate::common;

use topitop_db::Reader;
use topitop_game_api::Game;

#[test]
fn the_chunks_are_the_stored_positions_of_play_in_order() {
    let sol = common::solved(0, "2/0/2/2", true);
    let dir = tempfile::tempdir().unwrap();
    let (_, db) = common::written(dir.path(), sol);
    let rules = db.rules();
    let facts = Reader::facts(&db);
    assert_eq!(facts.tiers.len(), db.index().tiers().len());
    assert_eq!(facts.game, "topitop");
    assert!(facts.symmetric && !facts.values_only);
    let mut read = Vec::new();
    for t in 0..facts.tiers.len() {
        for chunk in db.chunks(&rules, t).unwrap() {
            read.extend(chunk.unwrap());
        }
    }
    let stored: Vec<_> = (0..db.blocks())
        .flat_map(|b| db.block_positions(b).unwrap())
        .filter(|(p, _)| p.is_valid(rules.budget()))
        .map(|(p, r)| (Some(p), r))
        .collect();
    assert!(stored.len() > 1000);
    assert_eq!(read, stored);
    for &(pos, rec) in read.iter().step_by(97) {
        assert_eq!(Reader::lookup(&db, &rules, &pos.unwrap()).unwrap(), rec);
    }
    let reachable = db.reachable(&rules).expect("a forward pass");
    for &(pos, _) in read.iter().step_by(211) {
        let pos = pos.unwrap();
        assert_eq!(reachable(&pos), rules.reachable(&pos), "{pos}");
    }
}

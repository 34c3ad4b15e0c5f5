//! The order the tier solver takes the tiers in, and when each solved
//! tier is read for the last time: what the solve packs by, and what the
//! estimate follows. The game's `child_tiers` is asked once a tier.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::hash::Hash;

use topitop_game_api::Tiered;

use crate::loop_free::LoopFreeError;

/// The tiers in solving order, each tier's child tiers, and how many of
/// each tier's parents are not solved yet.
pub(crate) struct Schedule<T> {
    order: Vec<T>,
    children: HashMap<T, Vec<T>>,
    waiting: HashMap<T, usize>,
}

impl<T: Copy + Eq + Hash + Ord> Schedule<T> {
    /// The schedule of `game`: children first, and of the tiers whose
    /// children are all solved, always the least in the tier's order. A
    /// game whose tier order puts children first (as Topple's does: less
    /// supply, or fewer pawns) is then solved in that order, layer by
    /// layer, so that a tier is packed as soon as the layer above it is
    /// done.
    ///
    /// # Errors
    /// A cycle among the tiers.
    pub(crate) fn new<G: Tiered<Tier = T>>(game: &G) -> Result<Schedule<T>, LoopFreeError> {
        let mut children: HashMap<T, Vec<T>> = HashMap::new();
        let mut parents: HashMap<T, Vec<T>> = HashMap::new();
        let mut open: HashMap<T, usize> = HashMap::new();
        let mut ready = BTreeSet::new();
        let mut pending = game.tiers();
        while let Some(t) = pending.pop() {
            if children.contains_key(&t) {
                continue;
            }
            let kids = game.child_tiers(t);
            if kids.is_empty() {
                ready.insert(t);
            }
            open.insert(t, kids.len());
            for &c in &kids {
                parents.entry(c).or_default().push(t);
                pending.push(c);
            }
            children.insert(t, kids);
        }
        let mut order = Vec::with_capacity(children.len());
        while let Some(t) = ready.pop_first() {
            order.push(t);
            for &p in parents.get(&t).map_or(&[][..], Vec::as_slice) {
                let n = open.get_mut(&p).expect("every parent was listed");
                *n -= 1;
                if *n == 0 {
                    ready.insert(p);
                }
            }
        }
        if order.len() < children.len() {
            // Every tier left is on a cycle or above one.
            let solved: HashSet<T> = order.iter().copied().collect();
            let left = children
                .keys()
                .copied()
                .filter(|t| !solved.contains(t))
                .min()
                .expect("a tier is left");
            return Err(LoopFreeError::Cycle(game.tier_name(left)));
        }
        let mut waiting: HashMap<T, usize> = HashMap::new();
        for kids in children.values() {
            for &c in kids {
                *waiting.entry(c).or_default() += 1;
            }
        }
        Ok(Schedule {
            order,
            children,
            waiting,
        })
    }

    /// The tiers, children first.
    pub(crate) fn order(&self) -> &[T] {
        &self.order
    }

    /// Takes the order, leaving the schedule without one.
    pub(crate) fn into_order(self) -> Vec<T> {
        self.order
    }

    /// Notes `t` solved; returns its child tiers that no tier left to
    /// solve reads.
    pub(crate) fn solved(&mut self, t: T) -> Vec<T> {
        let mut done = Vec::new();
        for c in self.children.get(&t).map_or(&[][..], Vec::as_slice) {
            if let Some(w) = self.waiting.get_mut(c) {
                *w -= 1;
                if *w == 0 {
                    done.push(*c);
                }
            }
        }
        done
    }
}

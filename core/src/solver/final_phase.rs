//! The exact value of a position after the last deal, computed on a smaller graph than the
//! search's closure (shortcut 6 in `search.rs`).
//!
//! With the stock empty, three facts shrink the closure:
//! 1. *Every discard is safe* (shortcut 1, case b), so each position may be replaced by the one
//!    after every discard that can follow ([`Layout::discard_all`]: discards never disable each
//!    other, so all orders end there). The positions in between score less and lead nowhere
//!    that position does not.
//! 2. *Lone moves change nothing* (shortcut 3): with no deal to come, moving a pile's only card
//!    to an empty pile gives the same position with two piles swapped.
//! 3. *Empty piles are interchangeable* for the same reason: moving a card onto one empty pile
//!    or onto another gives positions that differ by a swap of those two piles, which have the
//!    same value. So only the first empty pile is tried.
//!
//! What is left is a graph whose nodes are "discarded out" positions and whose edges are moves
//! from a pile of two or more cards onto the first empty pile, each followed by every discard.
//! The best score over it is the best score over the closure. On deal 22 the closures after
//! the last deal that the search built had about 20 positions each; this graph has 2-3 on
//! average, and most positions have no empty pile once their discards are played, which ends
//! the search at once.
//!
//! It serves the standard and aces-only variants with no joker left; the free cell and jokers
//! add actions this graph does not list, so those positions keep the closure.

use super::search::{KeyMap, WIN};
use super::state::{Act, Layout, NONE, Pos};
use crate::rules::{PILE_COUNT, Variant};

/// Values the cache of [`FinalBuffers`] holds at most: just under 7/8 of 2^18, so the hash map
/// stays at 2^18 buckets (about 9 MB). A full cache keeps what it holds.
const CACHED_VALUES: usize = 229_000;

/// Reused buffers for [`Layout::best_final_score`], and its cache of values: for one layout
/// only (keys mean nothing across layouts), as a search keeps it.
#[derive(Default)]
pub(super) struct FinalBuffers {
    seen: KeyMap<()>,
    stack: Vec<Pos>,
    /// The value of each "every discard played" position valued so far. Many positions after
    /// the last deal come to the same one once their discards are played: on three hard deals,
    /// 77-96% of those valued had been valued before.
    values: KeyMap<u8>,
}

impl Layout {
    /// Whether [`Layout::best_final_score`] serves `pos`: the stock is empty, the variant has
    /// no cell, and no joker is left.
    pub(super) fn final_phase_applies(&self, pos: &Pos) -> bool {
        self.stock_empty(pos)
            && self.variant != Variant::FreeCell
            && !(self.jokers_on && pos.jokers > 0)
    }

    /// The best final score reachable from `pos` (see the module docs), or `None` when `tick`
    /// says to stop. `tick` is called once per position looked at and returns whether to go on.
    /// Only for positions where [`Layout::final_phase_applies`].
    pub(super) fn best_final_score(
        &self,
        pos: &Pos,
        buffers: &mut FinalBuffers,
        mut tick: impl FnMut() -> bool,
    ) -> Option<u8> {
        if !tick() {
            return None;
        }
        let start = self.discard_all(pos);
        let Some(first_empty) = self.first_empty_pile(&start) else {
            // No empty pile and no discard: nothing can happen any more.
            return Some(self.score(&start));
        };
        let start_key = self.key(&start);
        if let Some(&value) = buffers.values.get(&start_key) {
            return Some(value);
        }
        let mut best = self.score(&start);
        buffers.seen.clear();
        buffers.stack.clear();
        buffers.seen.insert(start_key, ());
        self.push_moves(&start, first_empty, buffers);
        while let Some(next) = buffers.stack.pop() {
            if !tick() {
                return None;
            }
            best = best.max(self.score(&next));
            if best >= WIN {
                break;
            }
            if let Some(empty) = self.first_empty_pile(&next) {
                self.push_moves(&next, empty, buffers);
            }
        }
        if buffers.values.len() < CACHED_VALUES {
            buffers.values.insert(start_key, best);
        }
        Some(best)
    }

    /// The first empty pile of a position, if any.
    fn first_empty_pile(&self, pos: &Pos) -> Option<usize> {
        (0..PILE_COUNT).find(|&p| self.top(pos, p) == NONE)
    }

    /// Pushes, once each, the positions after moving a top card of a pile of two or more onto
    /// `empty`, followed by every discard.
    fn push_moves(&self, pos: &Pos, empty: usize, buffers: &mut FinalBuffers) {
        for from in 0..PILE_COUNT {
            if self.pile_len(pos, from) < 2 {
                continue;
            }
            let card = self.top(pos, from);
            if self.variant == Variant::AcesOnly && self.ace_mask & (1u64 << (card & 63)) == 0 {
                continue;
            }
            let moved = self.apply(pos, Act::Move(from as u8, empty as u8));
            let next = self.discard_all(&moved);
            if buffers.seen.insert(self.key(&next), ()).is_none() {
                buffers.stack.push(next);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::reference;
    use super::super::tests::{Rng, random_position, sized};
    use super::*;

    /// Random positions after the last deal, played on from there with random actions so that
    /// many have empty piles and moves: the smaller graph must give the reference's best score.
    #[test]
    fn the_final_phase_value_is_the_reference_best_score() {
        let mut rng = Rng(6);
        let (mut compared, mut with_moves) = (0, 0);
        for i in 0..sized(3_000, 300) {
            let variant = if i % 3 == 0 {
                Variant::AcesOnly
            } else {
                Variant::Standard
            };
            let mut game = random_position(&mut rng, variant, 0, 0);
            for _ in 0..rng.below(4) {
                let actions = game.legal_actions();
                let Some(&action) = actions.get(rng.below(actions.len().max(1))) else {
                    break;
                };
                game.execute(crate::command::Command::Play(action)).unwrap();
            }
            let (lay, pos) = Layout::new(game.table(), variant, 0).unwrap();
            assert!(lay.final_phase_applies(&pos));
            let expected = reference::best_score(&lay, pos, 1_000_000).unwrap();
            let mut buffers = FinalBuffers::default();
            let mut looked_at = 0;
            let value = lay.best_final_score(&pos, &mut buffers, || {
                looked_at += 1;
                true
            });
            assert_eq!(value, Some(expected), "{variant}: {:?}", game.table());
            // Asked again, the cache answers, with the same value.
            let mut again = 0;
            let cached = lay.best_final_score(&pos, &mut buffers, || {
                again += 1;
                true
            });
            assert_eq!((cached, again), (value, 1));
            compared += 1;
            if looked_at > 1 {
                with_moves += 1;
            }
        }
        // The comparison means something only if moves were tried often.
        assert!(with_moves * 20 >= compared, "{with_moves} of {compared}");
    }

    #[test]
    fn the_final_phase_value_stops_when_told() {
        let mut rng = Rng(7);
        let game = random_position(&mut rng, Variant::Standard, 0, 0);
        let (lay, pos) = Layout::new(game.table(), Variant::Standard, 0).unwrap();
        assert_eq!(
            lay.best_final_score(&pos, &mut FinalBuffers::default(), || false),
            None
        );
    }

    #[test]
    fn the_free_cell_jokers_and_stock_keep_the_closure() {
        let mut rng = Rng(8);
        let free_cell = random_position(&mut rng, Variant::FreeCell, 0, 0);
        let (lay, pos) = Layout::new(free_cell.table(), Variant::FreeCell, 0).unwrap();
        assert!(!lay.final_phase_applies(&pos));
        let with_joker = random_position(&mut rng, Variant::Standard, 1, 0);
        let (lay, pos) = Layout::new(with_joker.table(), Variant::Standard, 1).unwrap();
        assert_eq!(lay.final_phase_applies(&pos), pos.jokers == 0);
        let early = random_position(&mut rng, Variant::Standard, 0, 3);
        let (lay, pos) = Layout::new(early.table(), Variant::Standard, 0).unwrap();
        assert!(!lay.final_phase_applies(&pos));
    }
}

//! The reference search: every legal action, no shortcut, no bound.
//!
//! It walks the whole graph of positions reachable from the start (with [`Layout::legal`], the
//! same action set as [`crate::table::Table::legal_actions`]) and returns the highest score of
//! any of them. That is the best final score, because the score never goes down and any position
//! can be played on to the end. It is slow and only meant to check [`super::search`].

use super::search::KeyMap;
use super::state::{Act, Layout, Pos};

/// The best reachable score, or `None` if more than `limit` positions would be needed.
pub(crate) fn best_score(lay: &Layout, root: Pos, limit: usize) -> Option<u8> {
    let mut seen: KeyMap<()> = KeyMap::default();
    let mut stack = vec![root];
    seen.insert(lay.key(&root), ());
    let mut best = lay.score(&root);
    let mut actions: Vec<Act> = Vec::new();
    while let Some(pos) = stack.pop() {
        best = best.max(lay.score(&pos));
        lay.legal(&pos, &mut actions);
        for &act in &actions {
            let next = lay.apply(&pos, act);
            if seen.insert(lay.key(&next), ()).is_none() {
                if seen.len() > limit {
                    return None;
                }
                stack.push(next);
            }
        }
    }
    Some(best)
}

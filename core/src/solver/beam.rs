//! Beam probes: a quick, incomplete hunt for a good line before the exact search.
//!
//! Phase by phase (the positions between two deals), the probe keeps only the `width` most
//! promising positions: it lists every position reachable before the next deal from each of
//! them (with the same actions as the exact search, see [`phase_actions`]), values each one by
//! what the next deal brings ([`order_key`]), keeps the best `width` of those that can still
//! beat the score to beat (their [`Layout::upper_bound`] after the deal is above it), deals,
//! and goes on. After the last deal it returns the best score it reached and the line that
//! reaches it. Leaving out the positions that cannot win lets a narrow beam find wins that
//! only a wide one found before: on the first 300 standard deals, the slowest win proof went
//! from 662,000 nodes to 150,000.
//!
//! It proves nothing by itself: its line is a real line, so its score is a proven lower bound
//! and a win it finds is a proven win. Most winnable deals are won by a narrow beam within a
//! few thousand positions, and otherwise the exact search starts with a good score to beat.

use std::time::Instant;

use super::search::{KeyMap, WIN, order_key, phase_actions};
use super::state::{Act, Layout, Pos};

/// What a beam probe found.
pub(crate) struct BeamLine {
    /// The score the line reaches.
    pub score: u8,
    /// The actions from the root.
    pub line: Vec<Act>,
}

/// One position of a phase, with how it was reached from the phase's beam entry.
struct Step {
    pos: Pos,
    entry: u32,
    parent: u32,
    act: Act,
}

/// Runs one beam probe of `width` from `root`, keeping only positions whose upper bound is
/// above `floor`. `nodes` counts the positions generated and the probe stops (returning
/// `None`) once it passes `limit` or the `deadline`.
pub(crate) fn probe(
    lay: &Layout,
    root: Pos,
    width: usize,
    floor: u8,
    nodes: &mut u64,
    limit: u64,
    deadline: Option<Instant>,
) -> Option<BeamLine> {
    let mut beam: Vec<(Pos, Vec<Act>)> = vec![(root, Vec::new())];
    let mut steps: Vec<Step> = Vec::new();
    let mut seen: KeyMap<()> = KeyMap::default();
    let mut acts: Vec<Act> = Vec::new();
    let mut candidates: Vec<(u32, u32)> = Vec::new();
    loop {
        steps.clear();
        seen.clear();
        candidates.clear();
        let stock_empty = lay.stock_empty(&beam.first()?.0);
        for (entry, (start, _)) in beam.iter().enumerate() {
            if seen.insert(lay.key(start), ()).is_some() {
                continue;
            }
            let mut next_index = steps.len() as u32;
            steps.push(Step {
                pos: *start,
                entry: entry as u32,
                parent: u32::MAX,
                act: Act::Deal,
            });
            // Breadth first, so that the path to every position is a shortest one.
            while (next_index as usize) < steps.len() {
                let index = next_index;
                next_index += 1;
                *nodes += 1;
                if *nodes > limit
                    || (*nodes & 1023 == 0 && deadline.is_some_and(|d| Instant::now() >= d))
                {
                    return None;
                }
                let Some(pos) = steps.get(index as usize).map(|s| s.pos) else {
                    continue;
                };
                if lay.score(&pos) >= WIN {
                    return Some(line_to(&beam, &steps, index, WIN));
                }
                if phase_actions(lay, &pos, &mut acts) {
                    candidates.push((index, order_key(lay, &pos, stock_empty)));
                }
                for &act in &acts {
                    let next = lay.apply(&pos, act);
                    if seen.insert(lay.key(&next), ()).is_none() {
                        steps.push(Step {
                            pos: next,
                            entry: entry as u32,
                            parent: index,
                            act,
                        });
                    }
                }
            }
        }
        if stock_empty {
            let (index, score) = candidates
                .iter()
                .filter_map(|&(i, _)| Some((i, lay.score(&steps.get(i as usize)?.pos))))
                .max_by_key(|&(_, score)| score)?;
            return Some(line_to(&beam, &steps, index, score));
        }
        candidates.sort_unstable_by_key(|&(_, order)| std::cmp::Reverse(order));
        let next: Vec<(Pos, Vec<Act>)> = candidates
            .iter()
            .filter_map(|&(index, _)| {
                let pos = steps.get(index as usize)?.pos;
                let dealt = lay.apply(&pos, Act::Deal);
                if lay.upper_bound(&dealt) <= floor {
                    return None;
                }
                let mut line = line_to(&beam, &steps, index, 0).line;
                line.push(Act::Deal);
                Some((dealt, line))
            })
            .take(width)
            .collect();
        if next.is_empty() {
            return None;
        }
        beam = next;
    }
}

/// The line from the root to `steps[index]`: its beam entry's line, then the phase's actions.
fn line_to(beam: &[(Pos, Vec<Act>)], steps: &[Step], index: u32, score: u8) -> BeamLine {
    let mut tail = Vec::new();
    let mut entry = 0;
    let mut i = index;
    while let Some(step) = steps.get(i as usize) {
        entry = step.entry;
        if step.parent == u32::MAX {
            break;
        }
        tail.push(step.act);
        i = step.parent;
    }
    tail.reverse();
    let mut line = beam
        .get(entry as usize)
        .map(|(_, line)| line.clone())
        .unwrap_or_default();
    line.extend(tail);
    BeamLine { score, line }
}

//! Beam probes: a quick, incomplete hunt for a good line before the exact search.
//!
//! Phase by phase (the positions between two deals), the probe keeps only the `width` most
//! promising positions: it lists every position reachable before the next deal from each of
//! them (with the same actions as the exact search, see [`phase_actions`]), values each one by
//! what the next deal brings ([`order_key`]), keeps the best `width` of those that can still
//! beat the score to beat (their [`Layout::upper_bound_if_nothing_moves`] after the deal is
//! above it), deals, and goes on. After the last deal it returns the best score it reached and
//! the line that reaches it. Leaving out the positions that cannot win lets a narrow beam find
//! wins that only a wide one found before: on the first 300 standard deals, the slowest win
//! proof went from 662,000 nodes to 150,000.
//!
//! It proves nothing by itself: its line is a real line, so its score is a proven lower bound
//! and a win it finds is a proven win. Most winnable deals are won by a narrow beam within a
//! few thousand positions, and otherwise the exact search starts with a good score to beat.

use std::time::Instant;

use super::search::{KeyMap, WIN, append_path, order_key, phase_actions};
use super::state::{Act, Layout, Pos};

/// What a beam probe found.
pub(crate) struct BeamLine {
    /// The score the line reaches.
    pub score: u8,
    /// The actions from the root.
    pub line: Vec<Act>,
}

/// One phase of a beam entry's line: the entry it came from (`NO_LINK` for the root) and
/// where its actions (ending with the deal) lie in the shared action store.
struct Link {
    prev: u32,
    start: u32,
    end: u32,
}

/// No earlier phase: the line starts at the root.
const NO_LINK: u32 = u32::MAX;

/// The lines of the beam entries, shared phase by phase instead of copied for each entry.
#[derive(Default)]
struct Lines {
    links: Vec<Link>,
    acts: Vec<Act>,
}

impl Lines {
    /// Records the phase that leads from the entry at `prev` through `steps[index]` and a
    /// deal; returns its link.
    fn extend(&mut self, prev: u32, steps: &[Step], index: u32) -> u32 {
        let start = self.acts.len();
        phase_path(steps, index, &mut self.acts);
        self.acts.push(Act::Deal);
        self.links.push(Link {
            prev,
            start: start as u32,
            end: self.acts.len() as u32,
        });
        (self.links.len() - 1) as u32
    }

    /// The full line of the entry at `link`, then the phase's actions up to `steps[index]`.
    fn line_to(&self, link: u32, steps: &[Step], index: u32, score: u8) -> BeamLine {
        let mut phases = Vec::new();
        let mut at = link;
        while let Some(l) = self.links.get(at as usize) {
            phases.push(l);
            at = l.prev;
        }
        let mut line = Vec::new();
        for l in phases.iter().rev() {
            line.extend_from_slice(
                self.acts
                    .get(l.start as usize..l.end as usize)
                    .unwrap_or(&[]),
            );
        }
        phase_path(steps, index, &mut line);
        BeamLine { score, line }
    }
}

/// Appends the actions from the phase's start to `steps[index]`.
fn phase_path(steps: &[Step], index: u32, out: &mut Vec<Act>) {
    append_path(out, index, |i| {
        steps.get(i as usize).map(|step| (step.parent, step.act))
    });
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
    let mut beam: Vec<(Pos, u32)> = vec![(root, NO_LINK)];
    let mut lines = Lines::default();
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
                    return Some(lines.line_to(link_of(&beam, &steps, index), &steps, index, WIN));
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
            return Some(lines.line_to(link_of(&beam, &steps, index), &steps, index, score));
        }
        candidates.sort_unstable_by_key(|&(_, order)| std::cmp::Reverse(order));
        let next: Vec<(Pos, u32)> = candidates
            .iter()
            .filter_map(|&(index, _)| {
                let pos = steps.get(index as usize)?.pos;
                let dealt = lay.apply(&pos, Act::Deal);
                if lay.upper_bound_if_nothing_moves(&dealt, floor) <= floor {
                    return None;
                }
                let link = lines.extend(link_of(&beam, &steps, index), &steps, index);
                Some((dealt, link))
            })
            .take(width)
            .collect();
        if next.is_empty() {
            return None;
        }
        beam = next;
    }
}

/// The link of the beam entry whose phase holds `steps[index]`.
fn link_of(beam: &[(Pos, u32)], steps: &[Step], index: u32) -> u32 {
    steps
        .get(index as usize)
        .and_then(|step| beam.get(step.entry as usize))
        .map_or(NO_LINK, |&(_, link)| link)
}

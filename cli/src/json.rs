//! The scripted-mode JSON output: a stable contract that tests and tools rely on.
//!
//! Fields (all always present): `piles` (4 arrays of card codes, bottom first), `cell` (card
//! code or null), `stock`, `score`, `cards_left`, `status` (`playing`|`won`|`lost`|`resigned`),
//! `moves`, `undos`, `redos`, `hints`, `jokers_used`, `restarts`, `jokers_left`, `deal` (number
//! or null), `deck` (the 52 cards in deal order), `variant`, `can_undo`, `can_redo`, `hint`
//! (the last hint in command syntax, `"none"` when no useful move was left, or null).
//! New fields may be added; existing ones keep their name and meaning.

use acesup_core::hint::Hint;
use acesup_core::snapshot::Snapshot;
use serde_json::{Value, json};

/// The snapshot as the scripted-mode JSON object.
pub fn snapshot(snapshot: &Snapshot, deck: &acesup_core::Deck) -> Value {
    let piles: Vec<Vec<String>> = snapshot
        .piles
        .iter()
        .map(|pile| pile.iter().map(ToString::to_string).collect())
        .collect();
    let hint = snapshot.hint.map(|hint| match hint {
        Hint::Play(action) => action.to_string(),
        Hint::NoUsefulMove => "none".to_owned(),
    });
    let counters = snapshot.counters;
    json!({
        "piles": piles,
        "cell": snapshot.cell.map(|card| card.to_string()),
        "stock": snapshot.stock,
        "score": snapshot.score,
        "cards_left": snapshot.cards_left,
        "status": snapshot.status.code(),
        "moves": counters.moves,
        "undos": counters.undos,
        "redos": counters.redos,
        "hints": counters.hints,
        "jokers_used": counters.jokers_used,
        "restarts": counters.restarts,
        "jokers_left": snapshot.jokers_left,
        "deal": snapshot.deal_number,
        "deck": deck.to_string(),
        "variant": snapshot.variant.code(),
        "can_undo": snapshot.can_undo,
        "can_redo": snapshot.can_redo,
        "hint": hint,
    })
}

//! Rule-book sentences about hints, checked through the public hint API.

// Test helpers may fail loudly.
#![allow(clippy::unwrap_used)]

use acesup_core::cards::CardSet;
use acesup_core::hint::{Hint, PlayerView, suggest};
use acesup_core::{Action, Card, PileIndex, Place, Variant};

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect()
}

#[test]
fn a_hint_never_suggests_moving_a_lone_card() {
    // Nothing to discard, the stock is empty, pile 2 is empty. Moving 9C there uncovers QS,
    // which KS then beats; 5H and KS are alone and moving them would change nothing.
    let view = PlayerView {
        piles: [cards("5H"), cards(""), cards("QS 9C"), cards("KS")],
        cell: None,
        unseen: CardSet::EMPTY,
        variant: Variant::Standard,
        jokers_left: 0,
    };
    assert_eq!(
        suggest(&view),
        Hint::Play(Action::Move {
            from: Place::Pile(PileIndex::ALL[2]),
            to: Place::Pile(PileIndex::ALL[1]),
        })
    );
    let only_lone_cards = PlayerView {
        piles: [cards("5H"), cards(""), cards("KS"), cards("2D")],
        ..view
    };
    assert_eq!(suggest(&only_lone_cards), Hint::NoUsefulMove);
}

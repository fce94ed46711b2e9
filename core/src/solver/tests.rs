//! Solver tests: the compact rules agree with `Table`, lines replay through `Game`, and the
//! pruned search agrees with the unpruned reference.

use super::state::{Layout, act_of};
use super::*;
use crate::command::Command;
use crate::game::Status;

/// A small deterministic generator for tests (SplitMix64).
pub(crate) struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn same_position(a: &Table, b: &Table) -> bool {
    a.piles() == b.piles()
        && a.cell() == b.cell()
        && a.stock_in_deal_order().eq(b.stock_in_deal_order())
        && a.score() == b.score()
        && a.jokers_left() == b.jokers_left()
}

#[test]
fn compact_rules_agree_with_the_table_on_random_playouts() {
    let mut rng = Rng(7);
    for game in 0..600u64 {
        let variant = Variant::ALL[game as usize % 3];
        let jokers = (game % 4) as u8 % 3;
        let mut table = Table::new(&Deck::from_deal_number(game * 7919 + 3), jokers);
        let start = table.clone();
        let (lay, mut pos) = Layout::new(&table, variant, jokers).unwrap();
        let mut acts = Vec::new();
        for _ in 0..400 {
            let mut expected = table.legal_actions(variant, jokers);
            lay.legal(&pos, &mut acts);
            let mut got: Vec<Action> = acts.iter().map(|a| a.action()).collect();
            let order = |a: &Action| format!("{a}");
            expected.sort_by_key(order);
            got.sort_by_key(order);
            assert_eq!(got, expected, "game {game}");
            assert_eq!(usize::from(lay.score(&pos)), table.score());
            assert_eq!(lay.is_stuck(&pos), table.is_stuck(variant, jokers));
            if expected.is_empty() {
                break;
            }
            let action = expected[rng.below(expected.len())];
            table.apply(action, variant, jokers).unwrap();
            pos = lay.apply(&pos, act_of(action));
            let rebuilt = lay.to_table(&pos, &start).unwrap();
            assert!(
                same_position(&rebuilt, &table),
                "game {game} after {action}"
            );
        }
    }
}

#[test]
fn equal_positions_have_equal_keys_and_different_ones_differ() {
    // Reach positions by random play; keys must match exactly when tables match.
    let mut rng = Rng(99);
    for game in 0..60u64 {
        let variant = Variant::ALL[game as usize % 3];
        let start = Table::new(&Deck::from_deal_number(game), 1);
        let (lay, root) = Layout::new(&start, variant, 1).unwrap();
        let mut seen: std::collections::HashMap<u128, Table> = Default::default();
        for _ in 0..40 {
            let mut pos = root;
            let mut table = start.clone();
            let mut acts = Vec::new();
            for _ in 0..rng.below(60) {
                lay.legal(&pos, &mut acts);
                if acts.is_empty() {
                    break;
                }
                let act = acts[rng.below(acts.len())];
                pos = lay.apply(&pos, act);
                table.apply(act.action(), variant, 1).unwrap();
            }
            let key = lay.key(&pos);
            if let Some(other) = seen.get(&key) {
                assert!(same_position(other, &table), "key collision");
            }
            for (k, other) in &seen {
                if same_position(other, &table) {
                    assert_eq!(*k, key, "two keys for one position");
                }
            }
            seen.insert(key, table);
        }
    }
}

/// Replays an outcome's line through `Game` and checks the claimed status and score.
pub(crate) fn check_replay(game: &Game, outcome: &SolveOutcome) {
    let mut log: Vec<Command> = game.log().to_vec();
    log.extend(outcome.line().iter().map(|&a| Command::Play(a)));
    let end = Game::replay(game.setup().clone(), &log).unwrap_or_else(|e| {
        let line: Vec<String> = outcome.line().iter().map(|a| a.to_string()).collect();
        panic!("{e}: {:?} {:?}", game.setup().deck.to_string(), line)
    });
    assert_eq!(end.table().score(), usize::from(outcome.line_score()));
    match outcome.result {
        SolveResult::Won { .. } => assert_eq!(end.status(), Status::Won),
        SolveResult::Lost { .. } | SolveResult::Unknown { .. } => {
            assert_eq!(end.status(), Status::Lost)
        }
    }
}

/// `release` in a release build, `debug` in a debug one: the default tests stay within the
/// CI's time in a debug build, and run fuller in release.
pub(crate) fn sized(release: usize, debug: usize) -> usize {
    if cfg!(debug_assertions) {
        debug
    } else {
        release
    }
}

#[test]
fn solutions_replay_through_game_to_the_claimed_status_and_score() {
    for number in 0..sized(60, 8) as u64 {
        for variant in Variant::ALL {
            for jokers in [0u8, 1] {
                let game = Game::new(GameSetup::numbered(number, variant, jokers));
                let outcome = solve_game(&game, Budget::nodes(300_000));
                check_replay(&game, &outcome);
            }
        }
    }
}

/// A random position of a random deck with at most `rows_left` stock rows left.
pub(crate) fn random_position(
    rng: &mut Rng,
    variant: Variant,
    jokers: u8,
    rows_left: usize,
) -> Game {
    let number = rng.next();
    let mut game = Game::new(GameSetup::numbered(number, variant, jokers));
    while game.table().stock_len() > rows_left * 4 && !game.status().is_over() {
        let actions = game.legal_actions();
        // Mostly discard and deal, so positions look like real play.
        let discard = actions
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Discard { .. }));
        let action = match discard {
            Some(a) if rng.below(4) != 0 => a,
            _ => actions[rng.below(actions.len())],
        };
        game.execute(Command::Play(action)).unwrap();
    }
    game
}

fn compare_with_reference(decks: usize, rows_left: usize, seed: u64) {
    let mut rng = Rng(seed);
    let mut positions = Vec::new();
    for variant in Variant::ALL {
        for i in 0..decks {
            let jokers = if i % 5 == 0 { 1 } else { 0 };
            positions.push((
                variant,
                jokers,
                random_position(&mut rng, variant, jokers, rows_left),
            ));
        }
    }
    // The positions are drawn in order above; the comparisons run on every core.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (compared, skipped) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let (mut compared, mut skipped) = (0usize, 0usize);
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((variant, jokers, game)) = positions.get(i) else {
                            break;
                        };
                        let table = game.table();
                        let (lay, root) = Layout::new(table, *variant, *jokers).unwrap();
                        let Some(reference) = reference::best_score(&lay, root, 3_000_000) else {
                            skipped += 1;
                            continue;
                        };
                        let outcome = solve(table, *variant, *jokers, Budget::unlimited());
                        assert_eq!(
                            outcome.best_score(),
                            Some(reference),
                            "{variant} jokers {jokers}: {table:?}"
                        );
                        check_replay(game, &outcome);
                        compared += 1;
                    }
                    (compared, skipped)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap())
            .fold((0, 0), |(c, s), (c2, s2)| (c + c2, s + s2))
    });
    assert!(
        compared * 10 >= (compared + skipped) * 9,
        "{skipped} skipped"
    );
    eprintln!("compared {compared}, skipped {skipped}");
}

#[test]
fn pruned_search_matches_the_reference_quick() {
    compare_with_reference(sized(100, 12), 3, 1);
}

/// The full comparison: 10,000 random decks per variant. Run with
/// `cargo test --release -p acesup-core -- --ignored reference_10k --nocapture`.
#[test]
#[ignore]
fn pruned_search_matches_the_reference_10k() {
    compare_with_reference(10_000, 3, 2);
}

#[test]
fn a_won_table_is_won_with_no_action() {
    // Play deal 0 to the end by its own solution, then solve the won table.
    for number in 0..40u64 {
        let game = Game::new(GameSetup::numbered(number, Variant::FreeCell, 0));
        let outcome = solve_game(&game, Budget::default());
        if let SolveResult::Won { solution } = &outcome.result {
            let log: Vec<Command> = solution.iter().map(|&a| Command::Play(a)).collect();
            let end = Game::replay(game.setup().clone(), &log).unwrap();
            let again = solve(end.table(), Variant::FreeCell, 0, Budget::default());
            assert_eq!(again.winnable(), Some(true));
            assert!(again.line().is_empty());
            return;
        }
    }
    panic!("no winnable free-cell deal among the first 40");
}

#[test]
fn an_invalid_table_is_unknown_not_a_panic() {
    let table = Table::new(&Deck::from_deal_number(1), 0);
    let mut json = serde_json::to_value(&table).unwrap();
    json["stock"].as_array_mut().unwrap().pop();
    let broken: Table = serde_json::from_value(json).unwrap();
    let outcome = solve(&broken, Variant::Standard, 0, Budget::default());
    assert_eq!(outcome.winnable(), None);
}

#[test]
fn the_budget_is_honoured() {
    let game = Game::new(GameSetup::numbered(5, Variant::AcesOnly, 0));
    let outcome = solve_game(&game, Budget::nodes(50));
    assert!(outcome.nodes <= 51);
    if let SolveResult::Unknown {
        lower_bound,
        upper_bound,
        ..
    } = outcome.result
    {
        assert!(lower_bound <= upper_bound);
        check_replay(&game, &outcome);
    }
}

#[test]
fn next_winnable_deal_returns_a_proven_deal() {
    for variant in Variant::ALL {
        let (number, outcome) = next_winnable_deal(1000, variant, Budget::default()).unwrap();
        assert!(number >= 1000);
        let game = Game::new(GameSetup::numbered(number, variant, 0));
        check_replay(&game, &outcome);
        assert_eq!(outcome.winnable(), Some(true));
    }
    // Wrapping past the largest deal number.
    let (number, _) = next_winnable_deal(u64::MAX, Variant::Standard, Budget::default()).unwrap();
    assert!(number == u64::MAX || number < 1000);
}

#[test]
fn still_winnable_solves_an_earlier_position() {
    let setup = GameSetup::numbered(3, Variant::Standard, 0);
    let mut game = Game::new(setup.clone());
    for _ in 0..5 {
        game.execute(Command::Play(Action::Deal)).unwrap();
    }
    let at_start = still_winnable(&setup, game.log(), 0, Budget::default()).unwrap();
    let now = still_winnable(&setup, game.log(), 5, Budget::default()).unwrap();
    let direct = solve(
        &Table::new(&setup.deck, 0),
        Variant::Standard,
        0,
        Budget::default(),
    );
    assert_eq!(at_start.result, direct.result);
    // Dealing five times in a row can only lose options.
    if let (Some(then), Some(later)) = (at_start.best_score(), now.best_score()) {
        assert!(later <= then);
    }
    check_replay(&game, &now);
}

/// The cards a bound claims dead, with the piles and stock of `table` (the table of `pos`),
/// for a failure message.
fn describe_bound(lay: &Layout, pos: &state::Pos, table: &Table) -> String {
    let dead = lay.dead_cards(pos, u32::MAX, &mut 0);
    let cards: Vec<String> = (0..lay.slot_count)
        .filter(|s| dead & (1u64 << s) != 0)
        .map(|s| lay.card_of(s).unwrap().to_string())
        .collect();
    let piles: Vec<String> = table
        .piles()
        .iter()
        .map(|p| {
            p.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let stock: Vec<String> = table.stock_in_deal_order().map(|c| c.to_string()).collect();
    format!("dead {cards:?}; piles {piles:?}; stock {stock:?}")
}

/// A standard position with these piles (bottom first) and stock (in deal order); every other
/// card is removed.
fn standard_position(piles: [&str; 4], stock: &str) -> (Table, Layout, state::Pos) {
    position(Variant::Standard, piles, stock)
}

/// [`standard_position`] in any variant.
fn position(variant: Variant, piles: [&str; 4], stock: &str) -> (Table, Layout, state::Pos) {
    let cards = |text: &str| -> Vec<crate::cards::Card> {
        text.split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect()
    };
    let piles = piles.map(cards);
    let stock = cards(stock);
    let placed: Vec<_> = piles.iter().flatten().chain(&stock).copied().collect();
    let removed = crate::cards::Card::all()
        .filter(|c| !placed.contains(c))
        .collect();
    let table = Table::from_parts(piles, None, stock, removed, 0, variant).unwrap();
    let (lay, root) = Layout::new(&table, variant, 0).unwrap();
    (table, lay, root)
}

/// Asserts that `card` is in the `dead` set of slots.
fn assert_dead(lay: &Layout, root: &state::Pos, table: &Table, dead: u64, card: &str) {
    let slot = (0..lay.slot_count)
        .find(|&s| lay.card_of(s) == Some(card.parse().unwrap()))
        .unwrap();
    assert_ne!(
        dead & (1u64 << slot),
        0,
        "{card}: {}",
        describe_bound(lay, root, table)
    );
}

/// A card stays covered by a card dealt onto it until that card can first be discarded, even
/// when that card is not dead. Here 5♥ lies under 9♣, which can first go in the last phase;
/// 9♥, the only heart that ever shows, shows only in the phase between. So 5♥ is dead, which a
/// bound that let only dead cards cover could not prove (9♣ and 2♦ above it both leave).
#[test]
fn a_card_is_covered_until_the_card_on_it_can_leave() {
    let (table, lay, root) = standard_position(
        ["5H", "AC AS KS", "AD KD", "AH KH KC"],
        "9C 2S 4D 9H 2D QC 3D 3S",
    );
    let dead = lay.dead_cards(&root, u32::MAX, &mut 0);
    assert_dead(&lay, &root, &table, dead, "5H");
    // And the claim is true: the exact best score never beats the bound.
    let best = reference::best_score(&lay, root, 2_000_000).unwrap();
    assert!(best <= lay.upper_bound(&root));
}

#[test]
fn upper_bounds_are_never_below_the_reference() {
    let mut rng = Rng(5);
    for variant in [Variant::Standard, Variant::AcesOnly] {
        for _ in 0..sized(400, 40) {
            let game = random_position(&mut rng, variant, 0, 2);
            let table = game.table();
            let (lay, root) = Layout::new(table, variant, 0).unwrap();
            let Some(reference) = reference::best_score(&lay, root, 2_000_000) else {
                continue;
            };
            let ub = lay.upper_bound(&root);
            if ub < reference {
                panic!(
                    "{variant}: ub {ub} < {reference}; {}",
                    describe_bound(&lay, &root, table)
                );
            }
        }
    }
}

#[test]
fn upper_bounds_hold_deep_in_the_tree() {
    check_bounds_deep_in_the_tree(sized(300, 30), 11);
}

/// The same over many more positions. Run with
/// `cargo test --release -p acesup-core -- --ignored deep_in_the_tree_many --nocapture`.
#[test]
#[ignore]
fn upper_bounds_hold_deep_in_the_tree_many() {
    check_bounds_deep_in_the_tree(20_000, 12);
}

/// Asserts that `ub` is not below the best score the unpruned reference finds from `pos`,
/// searching at most once per position (`reference` keeps the answer). `original` is the table
/// the layout was built from.
fn assert_bound_holds(
    lay: &Layout,
    pos: &state::Pos,
    original: &Table,
    what: &str,
    ub: u8,
    reference: &mut Option<u8>,
) {
    let best =
        *reference.get_or_insert_with(|| reference::best_score(lay, *pos, 2_000_000).unwrap());
    assert!(
        ub >= best,
        "{}: {what} {ub} < {best}; {}; foreign {:?}",
        lay.variant,
        describe_bound(lay, pos, &lay.to_table(pos, original).unwrap()),
        pos.foreign
    );
}

fn check_bounds_deep_in_the_tree(positions: usize, seed: u64) {
    let mut rng = Rng(seed);
    let mut checked = 0;
    let mut moves_checked = 0;
    let mut frozen_checked = 0;
    let mut free_checked = 0;
    for variant in [Variant::Standard, Variant::AcesOnly] {
        for _ in 0..positions {
            let game = random_position(&mut rng, variant, 0, 3);
            let (lay, root) = Layout::new(game.table(), variant, 0).unwrap();
            let mut seen: std::collections::HashSet<u128> = Default::default();
            let mut stack = vec![root];
            let mut acts = Vec::new();
            while let Some(pos) = stack.pop() {
                if seen.len() > 20_000 {
                    break;
                }
                lay.legal(&pos, &mut acts);
                for &a in &acts {
                    let next = lay.apply(&pos, a);
                    if seen.insert(lay.key(&next)) {
                        stack.push(next);
                    }
                }
                if seen.len().is_multiple_of(37) {
                    let table = game.table();
                    let mut reference = None;
                    // The move-aware analysis on its own, at every sampled position (also
                    // where the bound uses the no-move proof), to test it as widely as possible.
                    let dead = lay.dead_cards_with_moves(&pos, 1, &mut 0) & !lay.ace_mask;
                    // Started from the no-move analysis's fixpoint, it ends at the same one.
                    let frozen = lay.dead_cards_frozen(&pos, &mut 0);
                    // The no-move worklist reaches the fixpoint of the rounds, exactly, and the
                    // rounds that recompute only what changed end where full rounds do.
                    assert_eq!(frozen, lay.dead_cards_frozen_in_rounds(&pos, &mut 0));
                    assert!(lay.rounds_agree_with_full_rounds(&pos));
                    // In the standard variant the worklist finds every card the window proof
                    // finds, which is why the bound runs it alone there.
                    if variant == Variant::Standard
                        && let Some(window_dead) = lay.dead_cards_if_nothing_moves(&pos, 48, &mut 0)
                    {
                        assert_eq!(window_dead & !frozen.dead & !lay.ace_mask, 0);
                    }
                    assert_eq!(
                        lay.dead_cards_with_moves_after(&frozen, &pos, 1, &mut 0) & !lay.ace_mask,
                        dead
                    );
                    if dead != 0 {
                        let ub = 48 - dead.count_ones() as u8;
                        assert_bound_holds(&lay, &pos, table, "moves ub", ub, &mut reference);
                        moves_checked += 1;
                    }
                    // The analysis in which any card may move, on its own.
                    let dead = lay.dead_cards_moving_freely(&pos, &mut 0) & !lay.ace_mask;
                    if dead != 0 {
                        let ub = 48 - dead.count_ones() as u8;
                        assert_bound_holds(&lay, &pos, table, "free ub", ub, &mut reference);
                        free_checked += 1;
                    }
                    // The no-move analysis that starts from nothing, on its own, wherever
                    // its own dead cards show that nothing can move.
                    let dead = frozen.dead;
                    if dead & !lay.ace_mask != 0 && lay.never_empties(&pos, dead) {
                        let ub = 48 - (dead & !lay.ace_mask).count_ones() as u8;
                        assert_bound_holds(&lay, &pos, table, "frozen ub", ub, &mut reference);
                        frozen_checked += 1;
                    }
                    let ub = lay.upper_bound(&pos);
                    // Asked against a target, the bound answers the same question, and is
                    // never below the full bound.
                    for target in [ub.saturating_sub(1), ub, ub.saturating_add(2)] {
                        let against = lay.upper_bound_against(&pos, target);
                        assert!(against >= ub);
                        assert_eq!(against <= target, ub <= target);
                    }
                    if ub < 48 {
                        assert_bound_holds(&lay, &pos, table, "ub", ub, &mut reference);
                        checked += 1;
                    }
                }
            }
        }
    }
    // The bound must have been put to the test, not only computed.
    eprintln!(
        "{checked} bounds below 48 checked against the reference, {moves_checked} move-aware \
         ones, {frozen_checked} no-move ones that start from nothing and {free_checked} in \
         which any card may move"
    );
    assert!(checked >= positions / 4, "only {checked} bounds checked");
    assert!(
        moves_checked >= positions / 4,
        "only {moves_checked} move-aware bounds"
    );
    assert!(
        frozen_checked >= positions / 4,
        "only {frozen_checked} no-move bounds that start from nothing"
    );
    assert!(
        free_checked >= positions / 8,
        "only {free_checked} bounds in which any card may move"
    );
}

#[test]
fn beam_lines_replay_to_their_score_and_never_beat_the_exact_answer() {
    for number in 0..sized(40, 6) as u64 {
        for variant in Variant::ALL {
            let game = Game::new(GameSetup::numbered(number, variant, 0));
            let (lay, root) = Layout::new(game.table(), variant, 0).unwrap();
            let mut nodes = 0;
            let Some(found) = super::beam::probe(&lay, root, 16, 0, &mut nodes, u64::MAX, None)
            else {
                panic!("deal {number} {variant}: an unlimited probe always ends");
            };
            let log: Vec<Command> = found
                .line
                .iter()
                .map(|&a| Command::Play(a.action()))
                .collect();
            let end = Game::replay(game.setup().clone(), &log).unwrap();
            assert_eq!(
                end.table().score(),
                usize::from(found.score),
                "deal {number}"
            );
            let exact = solve_game(&game, Budget::nodes(300_000));
            if let Some(best) = exact.best_score() {
                assert!(found.score <= best, "deal {number} {variant}");
            }
        }
    }
}

#[test]
fn a_beam_probe_stops_at_its_limit() {
    let game = Game::new(GameSetup::numbered(2, Variant::Standard, 0));
    let (lay, root) = Layout::new(game.table(), Variant::Standard, 0).unwrap();
    let mut nodes = 0;
    assert!(super::beam::probe(&lay, root, 4096, 0, &mut nodes, 500, None).is_none());
    assert_eq!(nodes, 501);
}

/// Here the pile of K♠ holds no ace and may become empty, so cards may move and the no-move
/// proof claims nothing; the move-aware one still finds 14 dead cards, and that is exact.
#[test]
fn cards_stay_dead_although_cards_can_move() {
    let (table, lay, root) = standard_position(
        [
            "10S 8S 2S 2D AD",
            "9D JD AH AC",
            "KS QC 3D",
            "QH AS 3C 2C 10C 7H",
        ],
        "9H KD 5S 4S",
    );
    let with_moves = lay.dead_cards_with_moves(&root, 1, &mut 0) & !lay.ace_mask;
    assert_eq!(
        with_moves.count_ones(),
        14,
        "{}",
        describe_bound(&lay, &root, &table)
    );
    assert_eq!(
        lay.dead_cards_if_nothing_moves(&root, u32::MAX, &mut 0),
        None
    );
    assert_eq!(
        lay.dead_cards(&root, u32::MAX, &mut 0) & !lay.ace_mask,
        with_moves
    );
    assert_eq!(lay.upper_bound(&root), 34);
    assert_eq!(reference::best_score(&lay, root, 2_000_000), Some(34));
}

/// Fact 5 of the move-aware bound: J♥ lies under A♠, and the only heart in play that could
/// justify it, A♥, lies under A♣ in another pile. Whichever ace leaves first, the other can
/// never follow (see `bound_moves.rs`), so J♥ and A♥ are never on top together and J♥ is
/// dead, although the piles could empty and let cards move.
#[test]
fn a_card_under_an_ace_is_not_justified_by_one_under_another_ace() {
    let (table, lay, root) = standard_position(
        ["AH AC 10C KS", "QS 3H JH AS", "KD 6D 9S", "KC 5S JS AD"],
        "4D 3C 9D 10H",
    );
    assert_eq!(
        lay.dead_cards_if_nothing_moves(&root, u32::MAX, &mut 0),
        None
    );
    let dead = lay.dead_cards_with_moves(&root, 1, &mut 0) & !lay.ace_mask;
    assert_dead(&lay, &root, &table, dead, "JH");
    // Q♠, 3♥ and J♥ under A♠ are all dead, and that is exact.
    assert_eq!(dead.count_ones(), 3);
    assert_eq!(lay.upper_bound(&root), 45);
    assert_eq!(reference::best_score(&lay, root, 2_000_000), Some(45));
}

/// The no-move analysis that starts from nothing (module `bound_moves`, "No card moves"): 5♥
/// can only go while 9♥ is on top, under 3♠, which can only go while 8♠ is on top, under 5♥.
/// Every pile holds an ace, so nothing ever moves. The no-move proof that starts from every
/// window keeps both alive (each waits for the other within one phase) and proves nothing;
/// starting from nothing proves all eight non-aces dead, and the bound is exact.
#[test]
fn cards_that_wait_for_each_other_are_dead() {
    let (table, lay, root) =
        standard_position(["AC 8S 5H", "AD 9H 3S", "AH KC", "AS KD"], "4C 4D QC QD");
    assert_eq!(
        lay.dead_cards_if_nothing_moves(&root, u32::MAX, &mut 0),
        Some(0)
    );
    let dead = lay.dead_cards_frozen(&root, &mut 0).dead & !lay.ace_mask;
    for card in ["5H", "3S", "8S", "9H"] {
        assert_dead(&lay, &root, &table, dead, card);
    }
    assert_eq!(dead.count_ones(), 8);
    assert_eq!(lay.upper_bound(&root), 40);
    assert_eq!(reference::best_score(&lay, root, 2_000_000), Some(40));
}

/// Fact 6 of the move-aware bound: A♥ lies under A♠ in the second pile, so J♥ and 3♥ between
/// them show only after A♠ has moved onto the pile without an ace, and then all four piles
/// hold an ace and nothing moves again. No heart higher than J♥ can then show beside it (A♥
/// lies under it), so both are dead, and the bound is exact. Without fact 6 the analysis lets
/// J♥ move onto an empty pile and proves nothing.
#[test]
fn cards_under_the_upper_of_two_aces_never_move() {
    let (table, lay, root) = standard_position(
        [
            "QS 2S AC 10C KS",
            "AH 3H JH AS",
            "KD QC 6D 9S",
            "KC 5S JS AD",
        ],
        "4D 3C 9D 10H",
    );
    assert_eq!(
        lay.dead_cards_if_nothing_moves(&root, u32::MAX, &mut 0),
        None
    );
    let dead = lay.dead_cards_with_moves(&root, 1, &mut 0) & !lay.ace_mask;
    for card in ["JH", "3H"] {
        assert_dead(&lay, &root, &table, dead, card);
    }
    assert_eq!(dead.count_ones(), 2);
    assert_eq!(lay.upper_bound(&root), 46);
    assert_eq!(reference::best_score(&lay, root, 2_000_000), Some(46));
}

/// The analysis in which any card may move, from the first deal. Deal 6's last row is J♦ Q♥
/// 10♣ 7♠, one card of each suit: after the last deal no pile is empty and no top card has a
/// higher card of its suit beside it, so nothing is discarded again, whatever happened
/// before. Those four cards are dead from the start, and only this analysis sees it: no pile
/// holds an ace yet, so the others claim nothing.
#[test]
fn a_last_row_of_four_suits_is_dead_from_the_start() {
    let game = Game::new(GameSetup::numbered(6, Variant::Standard, 0));
    let table = game.table();
    let (lay, root) = Layout::new(table, Variant::Standard, 0).unwrap();
    assert_eq!(lay.dead_cards(&root, u32::MAX, &mut 0) & !lay.ace_mask, 0);
    let dead = lay.dead_cards_from_the_start(&root, &mut 0) & !lay.ace_mask;
    for card in ["JD", "QH", "10C", "7S"] {
        assert_dead(&lay, &root, table, dead, card);
    }
    assert_eq!(dead.count_ones(), 4);
}

/// Deal 10's first position has 11 cards dead from the start, so its best score is at most
/// 37, which the beam probes reach: the solve ends there, within the probes' nodes. Without
/// that analysis the exact search needed about two million nodes to prove the loss.
#[test]
fn dead_cards_from_the_start_end_a_lost_deal_at_once() {
    let game = Game::new(GameSetup::numbered(10, Variant::Standard, 0));
    let outcome = solve(game.table(), Variant::Standard, 0, Budget::nodes(100_000));
    assert_eq!(outcome.winnable(), Some(false));
    assert_eq!(outcome.line_score(), 37);
}

/// The aces-only bound with aces free to move. Every pile holds an ace at its bottom, so no
/// pile ever empties and no ace ever moves. 8♥, still to be dealt onto A♥ Q♣ K♦, has no
/// higher heart but that A♥ below it, so it is dead. The no-move proof lets an ace under a
/// card still to come move away first (it may, where a pile can empty), so it misses it.
#[test]
fn aces_only_an_ace_that_never_moves_keeps_the_card_dealt_onto_it() {
    let (table, lay, root) = position(
        Variant::AcesOnly,
        ["AS 9C 3C", "AH QC", "AC 8S JS 8C", "AD JC"],
        "2D KD 2S 10C KC 8H 5H 9S",
    );
    assert_eq!(
        lay.dead_cards_if_nothing_moves(&root, u32::MAX, &mut 0),
        Some(0)
    );
    let dead = lay.dead_cards(&root, u32::MAX, &mut 0) & !lay.ace_mask;
    assert_dead(&lay, &root, &table, dead, "8H");
    assert_eq!(dead.count_ones(), 1);
    assert_eq!(lay.upper_bound(&root), 47);
    assert_eq!(reference::best_score(&lay, root, 2_000_000), Some(47));
}

/// Shortcut 5: with nothing to do but deal, the search goes straight on to the deal's child,
/// and the answer and its line stay those of the full search.
#[test]
fn a_position_with_nothing_to_do_but_deal_is_worth_its_deal() {
    let (table, lay, root) = standard_position(
        ["AC 3C 5S", "AH 7H", "9C 9D", "JC"],
        "2S 3H 4C AD KS QH AS 8D",
    );
    assert!(search::only_deal(&lay, &root));
    let reference = reference::best_score(&lay, root, 2_000_000);
    let outcome = solve(&table, Variant::Standard, 0, Budget::unlimited());
    assert_eq!(outcome.best_score(), reference);
    assert_eq!(outcome.line().first(), Some(&Action::Deal));
    // A discard, an empty pile or a joker left each give the player a choice.
    let (_, lay, pos) = standard_position(["5S", "7H", "9C", "JS"], "AS AH AC AD");
    assert!(!search::only_deal(&lay, &pos));
    let (_, lay, pos) = standard_position(["5S", "7H", "9C", ""], "AS AH AC AD");
    assert!(!search::only_deal(&lay, &pos));
    let with_joker = Table::from_parts(
        table.piles().clone(),
        None,
        table.stock_in_deal_order().collect(),
        table.removed().to_vec(),
        1,
        Variant::Standard,
    )
    .unwrap();
    let (lay, pos) = Layout::new(&with_joker, Variant::Standard, 1).unwrap();
    assert!(!search::only_deal(&lay, &pos));
}

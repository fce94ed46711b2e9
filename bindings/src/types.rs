//! The records and enums that cross the boundary, and their conversions from the core.
//!
//! Everything here is plain data. Values that come in from a shell (places, pile indexes,
//! settings, deal options) are checked on the way in by the `to_core` conversions; values
//! that go out are built from the core's types and never fail.

use acesup_core::cards as core_cards;
use acesup_core::game as core_game;
use acesup_core::hint as core_hint;
use acesup_core::records as core_records;
use acesup_core::round as core_round;
use acesup_core::rules as core_rules;
use acesup_core::session as core_session;
use acesup_core::snapshot as core_snapshot;
use acesup_core::stats as core_stats;

use crate::error::GameError;

/// A card's suit. Suits never outrank each other; they matter only for matching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Suit {
    /// Clubs (♣).
    Clubs,
    /// Diamonds (♦).
    Diamonds,
    /// Hearts (♥).
    Hearts,
    /// Spades (♠).
    Spades,
}

/// A card's rank, lowest first; aces are high.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Rank {
    /// 2.
    Two,
    /// 3.
    Three,
    /// 4.
    Four,
    /// 5.
    Five,
    /// 6.
    Six,
    /// 7.
    Seven,
    /// 8.
    Eight,
    /// 9.
    Nine,
    /// 10.
    Ten,
    /// Jack.
    Jack,
    /// Queen.
    Queen,
    /// King.
    King,
    /// Ace (the highest rank; aces are never discarded).
    Ace,
}

/// One playing card.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Card {
    /// The rank.
    pub rank: Rank,
    /// The suit.
    pub suit: Suit,
    /// The card's text: rank `2`–`10`, `J`, `Q`, `K`, `A` and suit letter `C`, `D`, `H`, `S`
    /// (e.g. `10H`). Custom decks are written with these codes.
    pub code: String,
}

impl From<core_cards::Card> for Card {
    fn from(card: core_cards::Card) -> Card {
        let suit = match card.suit {
            core_cards::Suit::Clubs => Suit::Clubs,
            core_cards::Suit::Diamonds => Suit::Diamonds,
            core_cards::Suit::Hearts => Suit::Hearts,
            core_cards::Suit::Spades => Suit::Spades,
        };
        let rank = match card.rank {
            core_cards::Rank::Two => Rank::Two,
            core_cards::Rank::Three => Rank::Three,
            core_cards::Rank::Four => Rank::Four,
            core_cards::Rank::Five => Rank::Five,
            core_cards::Rank::Six => Rank::Six,
            core_cards::Rank::Seven => Rank::Seven,
            core_cards::Rank::Eight => Rank::Eight,
            core_cards::Rank::Nine => Rank::Nine,
            core_cards::Rank::Ten => Rank::Ten,
            core_cards::Rank::Jack => Rank::Jack,
            core_cards::Rank::Queen => Rank::Queen,
            core_cards::Rank::King => Rank::King,
            core_cards::Rank::Ace => Rank::Ace,
        };
        Card {
            rank,
            suit,
            code: card.to_string(),
        }
    }
}

/// A place on the table: one of the four piles (index 0–3, left to right; people see 1–4) or
/// the free cell (free-cell variant only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Place {
    /// A pile, by 0-based index (0–3). Other indexes are refused with
    /// the error `NoSuchPile`.
    Pile {
        /// 0–3, left to right.
        index: u8,
    },
    /// The free cell.
    Cell,
}

impl Place {
    /// The core's place; refuses pile indexes above 3.
    pub(crate) fn to_core(self) -> Result<core_rules::Place, GameError> {
        match self {
            Place::Pile { index } => pile_index(index).map(core_rules::Place::Pile),
            Place::Cell => Ok(core_rules::Place::Cell),
        }
    }
}

impl std::fmt::Display for Place {
    /// How people name the place: `pile 1`–`pile 4` or `the free cell`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Pile { index } => write!(f, "pile {}", u16::from(*index) + 1),
            Place::Cell => f.write_str("the free cell"),
        }
    }
}

impl From<core_rules::Place> for Place {
    fn from(place: core_rules::Place) -> Place {
        match place {
            core_rules::Place::Pile(pile) => Place::Pile {
                index: pile_number(pile),
            },
            core_rules::Place::Cell => Place::Cell,
        }
    }
}

/// A core pile index as the 0-based number the boundary uses.
pub(crate) fn pile_number(pile: core_rules::PileIndex) -> u8 {
    u8::from(pile)
}

/// A checked pile index.
pub(crate) fn pile_index(index: u8) -> Result<core_rules::PileIndex, GameError> {
    core_rules::PileIndex::try_from(index).map_err(|_| GameError::NoSuchPile { index })
}

/// The rule variant of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Variant {
    /// The classic game: any top card may go onto an empty pile.
    Standard,
    /// Only an ace may be moved onto an empty pile.
    AcesOnly,
    /// A fifth place that holds one card and that deals never touch.
    FreeCell,
}

impl From<core_rules::Variant> for Variant {
    fn from(variant: core_rules::Variant) -> Variant {
        match variant {
            core_rules::Variant::Standard => Variant::Standard,
            core_rules::Variant::AcesOnly => Variant::AcesOnly,
            core_rules::Variant::FreeCell => Variant::FreeCell,
        }
    }
}

impl From<Variant> for core_rules::Variant {
    fn from(variant: Variant) -> core_rules::Variant {
        match variant {
            Variant::Standard => core_rules::Variant::Standard,
            Variant::AcesOnly => core_rules::Variant::AcesOnly,
            Variant::FreeCell => core_rules::Variant::FreeCell,
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum GameStatus {
    /// Still going.
    Playing,
    /// All 48 non-aces removed.
    Won,
    /// The stock is empty and nothing productive is left.
    Lost,
    /// The player gave up.
    Resigned,
}

impl From<core_game::Status> for GameStatus {
    fn from(status: core_game::Status) -> GameStatus {
        match status {
            core_game::Status::Playing => GameStatus::Playing,
            core_game::Status::Won => GameStatus::Won,
            core_game::Status::Lost => GameStatus::Lost,
            core_game::Status::Resigned => GameStatus::Resigned,
        }
    }
}

/// One change to the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Action {
    /// One stock card onto each pile, left to right.
    Deal,
    /// Remove the top card of a place.
    Discard {
        /// Where the card is.
        from: Place,
    },
    /// Move a top card onto an empty pile or the empty cell.
    Move {
        /// Where the card is.
        from: Place,
        /// Where it goes.
        to: Place,
    },
    /// Play a joker: remove every non-ace card of one pile.
    Joker {
        /// The pile, 0–3.
        pile: u8,
    },
}

impl From<core_rules::Action> for Action {
    fn from(action: core_rules::Action) -> Action {
        match action {
            core_rules::Action::Deal => Action::Deal,
            core_rules::Action::Discard { from } => Action::Discard { from: from.into() },
            core_rules::Action::Move { from, to } => Action::Move {
                from: from.into(),
                to: to.into(),
            },
            core_rules::Action::Joker { pile } => Action::Joker {
                pile: pile_number(pile),
            },
        }
    }
}

/// A hint's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Hint {
    /// Take this action.
    Play {
        /// The suggested action.
        action: Action,
    },
    /// Nothing useful is left.
    NoUsefulMove,
}

impl From<core_hint::Hint> for Hint {
    fn from(hint: core_hint::Hint) -> Hint {
        match hint {
            core_hint::Hint::Play(action) => Hint::Play {
                action: action.into(),
            },
            core_hint::Hint::NoUsefulMove => Hint::NoUsefulMove,
        }
    }
}

/// How often each helper was used in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Counters {
    /// Successful table actions (deals, discards, moves, jokers).
    pub moves: u32,
    /// Undos.
    pub undos: u32,
    /// Redos.
    pub redos: u32,
    /// Hints asked for.
    pub hints: u32,
    /// Jokers played (an undone joker still counts).
    pub jokers_used: u32,
    /// Restarts.
    pub restarts: u32,
}

impl From<core_game::Counters> for Counters {
    fn from(c: core_game::Counters) -> Counters {
        Counters {
            moves: c.moves,
            undos: c.undos,
            redos: c.redos,
            hints: c.hints,
            jokers_used: c.jokers_used,
            restarts: c.restarts,
        }
    }
}

/// What a shell may do with one top card (a pile's top card or the cell's card).
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct TopCard {
    /// Where the card is.
    pub place: Place,
    /// The card.
    pub card: Card,
    /// Whether it may be discarded now.
    pub can_discard: bool,
    /// Places it may be dropped on now (empty piles, the empty cell).
    pub move_targets: Vec<Place>,
    /// What a double tap would do, if anything.
    pub smart_move: Option<Action>,
}

/// The round of five in progress or just finished.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct RoundProgress {
    /// The qualifying limit: a round result above it does not qualify.
    pub limit: u32,
    /// Cards left in each finished hand, in order (0 is "Aces Up").
    pub hands: Vec<u32>,
    /// Whether the round is over (five hands, or a hand reached 0).
    pub complete: bool,
    /// The lowest hand so far.
    pub result: Option<u32>,
    /// Whether the result so far is within the limit.
    pub qualifies: bool,
}

impl From<&core_round::Round> for RoundProgress {
    fn from(round: &core_round::Round) -> RoundProgress {
        RoundProgress {
            limit: round.limit,
            hands: round.hands.clone(),
            complete: round.is_complete(),
            result: round.result(),
            qualifies: round.qualifies(),
        }
    }
}

/// Totals over finished rounds of five.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct RoundHistory {
    /// Rounds finished.
    pub played: u32,
    /// Rounds whose result was within their limit.
    pub qualified: u32,
    /// The lowest round result, if any round finished.
    pub best_result: Option<u32>,
}

impl From<&core_round::RoundHistory> for RoundHistory {
    fn from(history: &core_round::RoundHistory) -> RoundHistory {
        RoundHistory {
            played: history.played,
            qualified: history.qualified,
            best_result: history.best_result,
        }
    }
}

/// Everything a shell needs to draw the table and enable its buttons after an action.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct TableSnapshot {
    /// The four piles, each bottom to top.
    pub piles: Vec<Vec<Card>>,
    /// The free cell's card.
    pub cell: Option<Card>,
    /// Whether the variant has a free cell (draw it).
    pub has_cell: bool,
    /// Cards left in the stock.
    pub stock: u32,
    /// Cards removed so far (the score).
    pub score: u32,
    /// Non-ace cards still on the table or in the stock (48 − score).
    pub cards_left: u32,
    /// Where the game stands.
    pub status: GameStatus,
    /// The rule variant.
    pub variant: Variant,
    /// The deal number; `None` for a custom deck.
    pub deal_number: Option<u64>,
    /// Helper use so far.
    pub counters: Counters,
    /// Jokers still available.
    pub jokers_left: u8,
    /// Jokers the game started with (0: jokers are off).
    pub jokers_per_game: u8,
    /// Piles (0–3) a joker could clear now.
    pub joker_targets: Vec<u8>,
    /// Whether the stock can be dealt.
    pub can_deal: bool,
    /// Whether undo is available (and switched on).
    pub can_undo: bool,
    /// Whether redo is available (and undo switched on).
    pub can_redo: bool,
    /// Whether a hint may be asked for.
    pub can_hint: bool,
    /// Whether restart is possible (the game is in progress and not at its start).
    pub can_restart: bool,
    /// Every top card with what may be done with it: piles left to right, then the cell.
    pub tops: Vec<TopCard>,
    /// The hint just given, shown until the next action.
    pub hint: Option<Hint>,
    /// Active play time so far, in milliseconds.
    pub play_time_ms: u64,
    /// The round of five in progress or just finished, if any.
    pub round: Option<RoundProgress>,
    /// Why the latest state could not be saved, if it could not.
    pub save_problem: Option<String>,
}

impl From<core_snapshot::Snapshot> for TableSnapshot {
    fn from(s: core_snapshot::Snapshot) -> TableSnapshot {
        TableSnapshot {
            piles: s
                .piles
                .into_iter()
                .map(|pile| pile.into_iter().map(Card::from).collect())
                .collect(),
            cell: s.cell.map(Card::from),
            has_cell: s.has_cell,
            stock: s.stock,
            score: s.score,
            cards_left: s.cards_left,
            status: s.status.into(),
            variant: s.variant.into(),
            deal_number: s.deal_number,
            counters: s.counters.into(),
            jokers_left: s.jokers_left,
            jokers_per_game: s.jokers_per_game,
            joker_targets: s.joker_targets.into_iter().map(pile_number).collect(),
            can_deal: s.can_deal,
            can_undo: s.can_undo,
            can_redo: s.can_redo,
            can_hint: s.can_hint,
            can_restart: s.can_restart,
            tops: s
                .tops
                .into_iter()
                .map(|top| TopCard {
                    place: top.place.into(),
                    card: top.card.into(),
                    can_discard: top.can_discard,
                    move_targets: top.move_targets.into_iter().map(Place::from).collect(),
                    smart_move: top.smart_move.map(Action::from),
                })
                .collect(),
            hint: s.hint.map(Hint::from),
            play_time_ms: s.play_time_ms,
            round: s.round.as_ref().map(RoundProgress::from),
            save_problem: s.save_problem,
        }
    }
}

/// A hint together with the table after asking for it (asking is counted).
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct HintResult {
    /// The suggestion.
    pub hint: Hint,
    /// The table, with the hint shown and counted.
    pub snapshot: TableSnapshot,
}

/// The player's settings.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct Settings {
    /// The variant of new games.
    pub variant: Variant,
    /// Jokers each new game starts with, 0–9 (0 switches the power-up off).
    pub jokers_per_game: u8,
    /// Undo and redo allowed.
    pub undo_enabled: bool,
    /// Hints allowed.
    pub hints_enabled: bool,
    /// The qualifying limit of a round of five, 0–48.
    pub round_limit: u32,
    /// Random new games only use deals the solver proves winnable (without jokers).
    pub winnable_only: bool,
}

impl From<&core_session::Settings> for Settings {
    fn from(s: &core_session::Settings) -> Settings {
        Settings {
            variant: s.variant.into(),
            jokers_per_game: s.jokers_per_game,
            undo_enabled: s.undo_enabled,
            hints_enabled: s.hints_enabled,
            round_limit: s.round_limit,
            winnable_only: s.winnable_only,
        }
    }
}

impl From<Settings> for core_session::Settings {
    fn from(s: Settings) -> core_session::Settings {
        core_session::Settings {
            variant: s.variant.into(),
            jokers_per_game: s.jokers_per_game,
            undo_enabled: s.undo_enabled,
            hints_enabled: s.hints_enabled,
            round_limit: s.round_limit,
            winnable_only: s.winnable_only,
        }
    }
}

/// The solver's verdict on a position of a finished game (post-game review).
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct Analysis {
    /// `true`: winnable; `false`: proven not; `None`: the solver's budget ran out.
    pub winnable: Option<bool>,
    /// The exact best final score, when the answer is definite.
    pub best_score: Option<u32>,
    /// A final score `line` reaches (the best score when definite).
    pub lower_bound: u32,
    /// No line can score more than this.
    pub upper_bound: u32,
    /// From the position: a solution, an optimal line, or the best line found. Shells can
    /// replay it step by step.
    pub line: Vec<Action>,
    /// The solver's work: positions generated, plus the rounds of its move-aware bound.
    pub nodes: u64,
    /// Time the solver took, in milliseconds.
    pub millis: u64,
}

impl From<core_session::Analysis> for Analysis {
    fn from(a: core_session::Analysis) -> Analysis {
        Analysis {
            winnable: a.winnable,
            best_score: a.best_score,
            lower_bound: a.lower_bound,
            upper_bound: a.upper_bound,
            line: a.line.into_iter().map(Action::from).collect(),
            nodes: a.nodes,
            millis: a.millis,
        }
    }
}

/// Where a new game's cards come from.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Enum)]
pub enum DealChoice {
    /// A fresh random deal number.
    Random,
    /// A given deal number (any value; the same number gives the same cards everywhere).
    Number {
        /// The deal number.
        number: u64,
    },
    /// An explicit card order: 52 card codes separated by spaces or commas, in deal order
    /// (the first four are the first deal, piles left to right), e.g. `"AS 10H TD …"`.
    Deck {
        /// The card codes.
        cards: String,
    },
}

/// Options for a new game.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct NewGameOptions {
    /// The cards.
    pub deal: DealChoice,
    /// The variant, or `None` for the settings' variant.
    pub variant: Option<Variant>,
}

/// Statistics of one variant.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct VariantStatistics {
    /// Games finished (won, lost or resigned).
    pub played: u32,
    /// Games won.
    pub won: u32,
    /// `won / played`, 0 when nothing was played.
    pub win_rate: f64,
    /// Wins in a row up to the latest game.
    pub current_streak: u32,
    /// The longest run of wins.
    pub best_streak: u32,
    /// The best score, if any game finished.
    pub best_score: Option<u32>,
    /// The average score, if any game finished.
    pub average_score: Option<f64>,
    /// Games per score: entry `n` counts the games that scored `n` (0–48).
    pub score_histogram: Vec<u32>,
}

impl From<&core_stats::VariantStats> for VariantStatistics {
    fn from(s: &core_stats::VariantStats) -> VariantStatistics {
        VariantStatistics {
            played: s.played,
            won: s.won,
            win_rate: s.win_rate(),
            current_streak: s.current_streak,
            best_streak: s.best_streak,
            best_score: s.best_score,
            average_score: s.average_score(),
            score_histogram: s.score_histogram.clone(),
        }
    }
}

/// Statistics per variant.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct Statistics {
    /// The standard game.
    pub standard: VariantStatistics,
    /// Aces to empty piles only.
    pub aces_only: VariantStatistics,
    /// One free cell.
    pub free_cell: VariantStatistics,
}

impl From<&core_stats::Statistics> for Statistics {
    fn from(s: &core_stats::Statistics) -> Statistics {
        Statistics {
            standard: (&s.standard).into(),
            aces_only: (&s.aces_only).into(),
            free_cell: (&s.free_cell).into(),
        }
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct GameRecord {
    /// The deal number; `None` for a custom deck.
    pub deal_number: Option<u64>,
    /// The deck as 52 card codes in deal order (plays the same deal again as a custom deck).
    pub deck: String,
    /// The rule variant.
    pub variant: Variant,
    /// Jokers the game started with.
    pub jokers_per_game: u8,
    /// How it ended: won, lost or resigned.
    pub status: GameStatus,
    /// Cards removed.
    pub score: u32,
    /// Non-ace cards left (48 − score; 0 is "Aces Up").
    pub cards_left: u32,
    /// Helper use.
    pub counters: Counters,
    /// Active play time in milliseconds.
    pub play_time_ms: u64,
    /// When the game started (milliseconds since the Unix epoch).
    pub started_at_ms: u64,
    /// When it ended (milliseconds since the Unix epoch).
    pub ended_at_ms: u64,
    /// Every command in order, in the text form of saves and scripts (piles numbered 1–4):
    /// `deal`, `discard 3`, `move 1 4`, `move 2 cell`, `joker 2`, `undo`, `redo`, `restart`,
    /// `resign`, `hint`. Smart moves appear as the action they resolved to.
    pub log: Vec<String>,
}

impl From<&core_records::GameRecord> for GameRecord {
    fn from(r: &core_records::GameRecord) -> GameRecord {
        GameRecord {
            deal_number: r.setup.deal_number,
            deck: r.setup.deck.to_string(),
            variant: r.setup.variant.into(),
            jokers_per_game: r.setup.jokers,
            status: r.status.into(),
            score: r.score,
            cards_left: r.cards_left(),
            counters: r.counters.into(),
            play_time_ms: r.play_time_ms,
            started_at_ms: r.started_at_ms,
            ended_at_ms: r.ended_at_ms,
            log: r.log.iter().map(ToString::to_string).collect(),
        }
    }
}

/// A save file that was damaged when the session opened. It was set aside (renamed), not
/// deleted; everything else loaded.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct LoadProblem {
    /// The case, as `error_code` names it: `save_damaged` or `save_wrong_schema`.
    pub code: String,
    /// A readable explanation (English; shells map `code` to their own text).
    pub detail: String,
}

import AcesUpCore
import Foundation

/// The time every scenario starts at (milliseconds since the epoch).
let clockStartMs: UInt64 = 1_000_000_000

/// A clock the scenario moves by hand.
final class ManualClock: TimeSource, @unchecked Sendable {
    private let lock = NSLock()
    private var now: UInt64

    init(start: UInt64) { now = start }

    func nowMs() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return now
    }

    func advance(by ms: UInt64) {
        lock.lock()
        now += ms
        lock.unlock()
    }
}

/// The scenario files: `ACESUP_SCENARIOS=<dir>`, or tests/scenarios next to this package.
func scenarioFiles() throws -> [URL] {
    let dir: URL
    if let path = ProcessInfo.processInfo.environment["ACESUP_SCENARIOS"] {
        dir = URL(fileURLWithPath: path)
    } else {
        dir = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios")
    }
    return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "json" }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
}

// MARK: - Normalization: the same JSON shapes every runner builds

private func number<T: BinaryInteger>(_ value: T) -> JSON { .number(Double(value)) }

private func optional<T>(_ value: T?, _ transform: (T) -> JSON) -> JSON {
    value.map(transform) ?? .null
}

private func placeValue(_ place: Place) -> JSON {
    switch place {
    case .pile(let index): return number(index)
    case .cell: return .string("cell")
    }
}

private func placeText(_ place: Place) -> String {
    switch place {
    case .pile(let index): return String(index)
    case .cell: return "cell"
    }
}

func actionText(_ action: Action) -> String {
    switch action {
    case .deal: return "deal"
    case .discard(let from): return "discard \(placeText(from))"
    case .move(let from, let to): return "move \(placeText(from)) \(placeText(to))"
    case .joker(let pile): return "joker \(pile)"
    }
}

private func hintText(_ hint: Hint) -> String {
    switch hint {
    case .play(let action): return actionText(action)
    case .noUsefulMove: return "no_useful_move"
    }
}

func variantCode(_ variant: Variant) -> String {
    switch variant {
    case .standard: return "standard"
    case .acesOnly: return "aces_only"
    case .freeCell: return "free_cell"
    }
}

func variant(code: String) -> Variant {
    switch code {
    case "aces_only": return .acesOnly
    case "free_cell": return .freeCell
    default: return .standard
    }
}

private func statusCode(_ status: GameStatus) -> String {
    switch status {
    case .playing: return "playing"
    case .won: return "won"
    case .lost: return "lost"
    case .resigned: return "resigned"
    }
}

private func counters(_ c: Counters) -> JSON {
    .object([
        "moves": number(c.moves), "undos": number(c.undos), "redos": number(c.redos),
        "hints": number(c.hints), "jokers_used": number(c.jokersUsed), "restarts": number(c.restarts),
    ])
}

func normalize(_ s: TableSnapshot) -> JSON {
    let tops: [JSON] = s.tops.map { top in
        .object([
            "place": placeValue(top.place),
            "card": .string(top.card.code),
            "can_discard": .bool(top.canDiscard),
            "move_targets": .array(top.moveTargets.map(placeValue)),
            "smart_move": optional(top.smartMove) { .string(actionText($0)) },
        ])
    }
    let round = optional(s.round) { r -> JSON in
        .object([
            "limit": number(r.limit), "hands": .array(r.hands.map(number)), "complete": .bool(r.complete),
            "result": optional(r.result, number), "qualifies": .bool(r.qualifies),
        ])
    }
    return .object([
        "piles": .array(s.piles.map { .string($0.map(\.code).joined(separator: " ")) }),
        "cell": optional(s.cell) { .string($0.code) },
        "has_cell": .bool(s.hasCell),
        "stock": number(s.stock),
        "score": number(s.score),
        "cards_left": number(s.cardsLeft),
        "status": .string(statusCode(s.status)),
        "variant": .string(variantCode(s.variant)),
        "deal_number": optional(s.dealNumber) { .string(String($0)) },
        "counters": counters(s.counters),
        "jokers_left": number(s.jokersLeft),
        "jokers_per_game": number(s.jokersPerGame),
        "joker_targets": .array(s.jokerTargets.map(number)),
        "can_deal": .bool(s.canDeal),
        "can_undo": .bool(s.canUndo),
        "can_redo": .bool(s.canRedo),
        "can_hint": .bool(s.canHint),
        "can_restart": .bool(s.canRestart),
        "tops": .array(tops),
        "hint": optional(s.hint) { .string(hintText($0)) },
        "play_time_ms": number(s.playTimeMs),
        "round": round,
        "save_problem": optional(s.saveProblem) { .string($0) },
    ])
}

private func histogram(_ buckets: [UInt32]) -> String {
    buckets.enumerated().filter { $0.element > 0 }.map { "\($0.offset):\($0.element)" }
        .joined(separator: " ")
}

private func variantStatistics(_ s: VariantStatistics) -> JSON {
    .object([
        "played": number(s.played), "won": number(s.won), "win_rate": .number(s.winRate),
        "current_streak": number(s.currentStreak), "best_streak": number(s.bestStreak),
        "best_score": optional(s.bestScore, number), "average_score": optional(s.averageScore) { .number($0) },
        "score_histogram": .string(histogram(s.scoreHistogram)),
    ])
}

private func record(_ r: GameRecord) -> JSON {
    .object([
        "deal_number": optional(r.dealNumber) { .string(String($0)) },
        "deck": .string(r.deck),
        "variant": .string(variantCode(r.variant)),
        "jokers_per_game": number(r.jokersPerGame),
        "status": .string(statusCode(r.status)),
        "score": number(r.score),
        "cards_left": number(r.cardsLeft),
        "counters": counters(r.counters),
        "play_time_ms": number(r.playTimeMs),
        "started_at_ms": number(r.startedAtMs),
        "ended_at_ms": number(r.endedAtMs),
        "log": .array(r.log.map { .string($0) }),
    ])
}

private func settingsValue(_ s: Settings) -> JSON {
    .object([
        "variant": .string(variantCode(s.variant)), "jokers_per_game": number(s.jokersPerGame),
        "undo_enabled": .bool(s.undoEnabled), "hints_enabled": .bool(s.hintsEnabled),
        "round_limit": number(s.roundLimit), "winnable_only": .bool(s.winnableOnly),
    ])
}

private func analysisValue(_ a: Analysis) -> JSON {
    .object([
        "winnable": optional(a.winnable) { .bool($0) },
        "best_score": optional(a.bestScore, number),
        "lower_bound": number(a.lowerBound),
        "upper_bound": number(a.upperBound),
        "line": .array(a.line.map { .string(actionText($0)) }),
    ])
}

/// `NoSuchPile(index: 4)` -> `no_such_pile`: the error's case as the scenarios write it.
func caseCode(_ error: GameError) -> String {
    let name = String(describing: error).prefix { $0 != "(" }
    var code = ""
    for (index, char) in name.enumerated() {
        if char.isUppercase && index > 0 { code += "_" }
        code += char.lowercased()
    }
    return code
}

// MARK: - Running

struct ScenarioFailure: Error, CustomStringConvertible {
    let description: String
}

private enum Outcome {
    case snapshot(TableSnapshot)
    case done
    /// An analysis step succeeded; its result is kept as the runner's last analysis.
    case analyzed
    case failed(GameError)
}

private func place(_ step: JSON, _ key: String) throws -> Place {
    switch step[key] {
    case .string("cell"): return .cell
    case .number(let value) where value >= 0 && value <= 255: return .pile(index: UInt8(value))
    default: throw ScenarioFailure(description: "\(key): not a place")
    }
}

private func dealChoice(_ spec: JSON) -> DealChoice? {
    if let deck = spec["deck"]?.string { return .deck(cards: deck) }
    if let number = spec["deal_number"] {
        let text = number.string ?? number.description
        return UInt64(text).map { .number(number: $0) }
    }
    if spec["random"]?.bool == true { return .random }
    return nil
}

private func newGameOptions(_ spec: JSON) -> NewGameOptions? {
    dealChoice(spec).map { NewGameOptions(deal: $0, variant: spec["variant"]?.string.map { variant(code: $0) }) }
}

/// The settings with a scenario's changes applied. An unknown key or a value of the wrong type
/// fails the scenario, as in the Rust and Kotlin runners.
private func merged(_ current: Settings, _ changes: JSON?) throws -> Settings {
    var s = current
    func bad(_ key: String) -> ScenarioFailure {
        ScenarioFailure(description: "setting \(key): missing or of the wrong type")
    }
    for (key, value) in changes?.object ?? [:] {
        switch key {
        case "variant":
            guard let code = value.string else { throw bad(key) }
            s.variant = variant(code: code)
        case "jokers_per_game":
            guard let n = value.int, let jokers = UInt8(exactly: n) else { throw bad(key) }
            s.jokersPerGame = jokers
        case "undo_enabled":
            guard let on = value.bool else { throw bad(key) }
            s.undoEnabled = on
        case "hints_enabled":
            guard let on = value.bool else { throw bad(key) }
            s.hintsEnabled = on
        case "round_limit":
            guard let n = value.int, let limit = UInt32(exactly: n) else { throw bad(key) }
            s.roundLimit = limit
        case "winnable_only":
            guard let on = value.bool else { throw bad(key) }
            s.winnableOnly = on
        default:
            throw ScenarioFailure(description: "unknown setting \(key)")
        }
    }
    return s
}

/// Replays one scenario file; returns what did not match (empty: it passed).
final class ScenarioRunner {
    private let scenario: JSON
    private let dir: URL
    private let clock = ManualClock(start: clockStartMs)
    private var session: Session!
    /// The result of the latest successful `analyze_deal` / `analyze_position` step.
    private var lastAnalysis: Analysis?

    init(file: URL) throws {
        scenario = try JSON.parse(Data(contentsOf: file))
        dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("acesup-scenario-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    private func open(_ path: String) throws -> Session {
        try Session.withTimeSource(storageDir: path, timeSource: clock)
    }

    func run() throws -> [String] {
        defer { try? FileManager.default.removeItem(at: dir) }
        let setup = scenario["setup"] ?? .object([:])
        session = try open(dir.path)
        if let changes = setup["settings"] {
            _ = try session.setSettings(settings: merged(session.settings(), changes))
        }
        if let options = newGameOptions(setup) { _ = try session.newGame(options: options) }
        var problems: [String] = []
        for (index, step) in (scenario["steps"]?.array ?? []).enumerated() {
            try check(step, at: "step \(index + 1) (\(step["do"]?.description ?? "?"))", problems: &problems)
        }
        session = nil
        return problems
    }

    private func check(_ step: JSON, at: String, problems: inout [String]) throws {
        let outcome = try perform(step)
        let expectedError = step["error"]?.string
        switch outcome {
        case .failed(let error):
            let code = caseCode(error)
            if code != errorCode(error: error) {
                problems.append("\(at): case \(code) reads back as \(errorCode(error: error))")
            }
            if errorMessage(error: error).isEmpty { problems.append("\(at): empty error message") }
            if code != expectedError { problems.append("\(at): expected \(expectedError ?? "success"), got error \(code)") }
        case .snapshot(let returned):
            if let expectedError { problems.append("\(at): expected error \(expectedError), got success") }
            if normalize(returned) != normalize(session.snapshot()) {
                problems.append("\(at): the returned snapshot differs from snapshot()")
            }
        case .done, .analyzed:
            if let expectedError { problems.append("\(at): expected error \(expectedError), got success") }
        }
        if let expect = step["expect"] {
            compare(expect, try actual(expect), path: at, problems: &problems)
        }
    }

    private func perform(_ step: JSON) throws -> Outcome {
        let s = session!
        do {
            switch step["do"]?.string ?? "" {
            case "snapshot": return .snapshot(s.snapshot())
            case "deal": return .snapshot(try s.deal())
            case "discard": return .snapshot(try s.discard(from: place(step, "from")))
            case "move": return .snapshot(try s.moveCard(from: place(step, "from"), to: place(step, "to")))
            case "cell": return .snapshot(try s.moveToCell(from: place(step, "from")))
            case "smart": return .snapshot(try s.smartMove(place: place(step, "place")))
            case "joker":
                guard let pile = step["pile"]?.int.flatMap({ UInt8(exactly: $0) }) else {
                    throw ScenarioFailure(description: "joker needs a pile 0-255")
                }
                return .snapshot(try s.useJoker(pile: pile))
            case "undo": return .snapshot(try s.undo())
            case "redo": return .snapshot(try s.redo())
            case "restart": return .snapshot(try s.restart())
            case "resign": return .snapshot(try s.resign())
            case "hint":
                let result = try s.hint()
                guard result.snapshot.hint == result.hint else {
                    throw ScenarioFailure(description: "the hint result does not show its hint")
                }
                return .snapshot(result.snapshot)
            case "new_game" where step["same_deal"]?.bool == true:
                guard let number = s.snapshot().dealNumber else {
                    throw ScenarioFailure(description: "same_deal needs a deal number")
                }
                let options = NewGameOptions(
                    deal: .number(number: number), variant: step["variant"]?.string.map { variant(code: $0) })
                return .snapshot(try s.newGame(options: options))
            case "new_game":
                guard let options = newGameOptions(step) else {
                    throw ScenarioFailure(description: "new_game needs a deal")
                }
                return .snapshot(try s.newGame(options: options))
            case "start_round": return .snapshot(try s.startRound())
            case "set_settings": return .snapshot(try s.setSettings(settings: merged(s.settings(), step["settings"])))
            case "pause":
                s.pause()
                return .done
            case "resume":
                s.resume()
                return .done
            case "advance_clock":
                clock.advance(by: UInt64(step["ms"]?.int ?? 0))
                return .done
            case "reopen":
                session = try open(dir.path)
                return .done
            case "open":
                let path = (step["path"]?.string ?? "").replacingOccurrences(of: "{dir}", with: dir.path)
                session = try open(path)
                return .done
            case "write_file":
                let url = dir.appendingPathComponent(step["name"]?.string ?? "")
                try Data((step["text"]?.string ?? "").utf8).write(to: url)
                return .done
            case "analyze_deal":
                lastAnalysis = try s.analyzeDeal()
                return .analyzed
            case "analyze_position":
                guard let at = step["step"]?.int.flatMap({ UInt32(exactly: $0) }) else {
                    throw ScenarioFailure(description: "analyze_position needs a step 0-4294967295")
                }
                lastAnalysis = try s.analyzePosition(step: at)
                return .analyzed
            case "replay_analysis_line":
                guard let line = lastAnalysis?.line else {
                    throw ScenarioFailure(description: "replay_analysis_line needs an analysis first")
                }
                var last = s.snapshot()
                for action in line {
                    switch action {
                    case .deal: last = try s.deal()
                    case .discard(let from): last = try s.discard(from: from)
                    case .move(let from, let to): last = try s.moveCard(from: from, to: to)
                    case .joker(let pile): last = try s.useJoker(pile: pile)
                    }
                }
                return .snapshot(last)
            case "check":
                return .done
            case let verb:
                throw ScenarioFailure(description: "unknown step \(verb)")
            }
        } catch let error as GameError {
            return .failed(error)
        }
    }

    private func actual(_ expect: JSON) throws -> JSON {
        guard case .object(var view) = normalize(session.snapshot()) else { return .null }
        for key in expect.object?.keys.sorted() ?? [] {
            switch key {
            case "statistics":
                let st = session.statistics()
                view[key] = .object([
                    "standard": variantStatistics(st.standard), "aces_only": variantStatistics(st.acesOnly),
                    "free_cell": variantStatistics(st.freeCell),
                ])
            case "records":
                view[key] = .array(session.records().map(record))
            case "best_records":
                let query = expect[key]
                let limit = UInt32(query?["limit"]?.int ?? 0)
                let best = session.bestRecords(variant: variant(code: query?["variant"]?.string ?? ""), limit: limit)
                view[key] = .object([
                    "variant": query?["variant"] ?? .null, "limit": number(limit), "records": .array(best.map(record)),
                ])
            case "settings":
                view[key] = settingsValue(session.settings())
            case "analysis":
                view[key] = optional(lastAnalysis, analysisValue)
            case "round_history":
                let h = session.roundHistory()
                view[key] = .object([
                    "played": number(h.played), "qualified": number(h.qualified),
                    "best_result": optional(h.bestResult, number),
                ])
            case "load_problems":
                view[key] = .array(session.loadProblems().map { .string($0.code) })
            default:
                break
            }
        }
        return .object(view)
    }
}

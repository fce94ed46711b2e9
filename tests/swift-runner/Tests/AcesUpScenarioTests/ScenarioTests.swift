import AcesUpCore
import Foundation
import XCTest

/// Replays every shared scenario of tests/scenarios through the Swift bindings.
final class ScenarioTests: XCTestCase {
    func testEveryScenarioReplaysAsExpected() throws {
        let files = try scenarioFiles()
        XCTAssertGreaterThanOrEqual(files.count, 40, "only \(files.count) scenarios")
        var failed: [String] = []
        for file in files {
            let name = file.deletingPathExtension().lastPathComponent
            let problems: [String]
            do {
                problems = try ScenarioRunner(file: file).run()
            } catch {
                problems = ["could not run: \(error)"]
            }
            if !problems.isEmpty {
                failed.append(name)
                XCTFail("\(name):\n  " + problems.joined(separator: "\n  "))
            }
        }
        print("swift scenarios: \(files.count - failed.count) passed, \(failed.count) failed")
    }
}

/// The parts of the API the scenarios do not reach: free functions, error fields, paths.
final class BindingsTests: XCTestCase {
    func testDeckOfDealMatchesTheDealtTable() throws {
        let deck = deckOfDeal(number: 1).split(separator: " ").map(String.init)
        XCTAssertEqual(deck.count, 52)
        XCTAssertEqual(Array(deck.prefix(4)), ["8D", "10C", "5D", "9H"])
        let session = try Session.inMemory(settings: defaultSettings())
        let snapshot = try session.newGame(options: NewGameOptions(deal: .number(number: 1), variant: .freeCell))
        XCTAssertEqual(snapshot.piles.map { $0.map(\.code) }, deck.prefix(4).map { [$0] })
        XCTAssertEqual(snapshot.variant, .freeCell)
        XCTAssertNil(session.storageDir())
    }

    func testCustomDeckTextIsChecked() throws {
        XCTAssertEqual(try parseDeck(text: deckOfDeal(number: 9)).count, 52)
        XCTAssertThrowsError(try parseDeck(text: "AS KS")) { error in
            XCTAssertEqual(error as? GameError, .DeckWrongCount(found: 2))
        }
        XCTAssertThrowsError(try parseDeck(text: "AS 1X")) { error in
            XCTAssertEqual(error as? GameError, .DeckBadCard(position: 2, text: "1X"))
        }
    }

    func testErrorsCarryTheirFieldsAndAReadableMessage() throws {
        let session = try Session.inMemory(settings: defaultSettings())
        XCTAssertThrowsError(try session.discard(from: .pile(index: 4))) { error in
            guard let error = error as? GameError else { return XCTFail("not a GameError: \(error)") }
            XCTAssertEqual(error, .NoSuchPile(index: 4))
            XCTAssertEqual(errorCode(error: error), "no_such_pile")
            XCTAssertEqual(errorMessage(error: error), "there is no pile with index 4: piles are 0 to 3")
        }
    }

    func testStoragePathsAreChecked() throws {
        XCTAssertThrowsError(try Session(storageDir: "relative/dir")) { error in
            XCTAssertEqual((error as? GameError).map(caseCode), "invalid_path")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("acesup-swift-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = try Session(storageDir: dir.path)
        XCTAssertEqual(session.storageDir(), dir.path)
        XCTAssertEqual(session.loadProblems(), [])
    }

    func testDefaultsAndVersion() {
        let settings = defaultSettings()
        XCTAssertEqual(settings.variant, .standard)
        XCTAssertEqual(settings.jokersPerGame, 1)
        XCTAssertEqual(settings.roundLimit, 5)
        XCTAssertFalse(libraryVersion().isEmpty)
    }
}

/// Latency of one action + snapshot round trip through the C FFI (in-memory session, no disk).
final class LatencyBenchmarkTests: XCTestCase {
    func testActionRoundTripIsFast() throws {
        let session = try Session.inMemory(settings: defaultSettings())
        _ = try session.newGame(options: NewGameOptions(deal: .number(number: 1), variant: nil))
        _ = try session.deal()
        for _ in 0..<1000 {
            _ = try session.undo()
            _ = try session.redo()
        }
        let calls = 4000
        var samples: [UInt64] = []
        samples.reserveCapacity(calls)
        for index in 0..<calls {
            let start = DispatchTime.now().uptimeNanoseconds
            let snapshot = index % 2 == 0 ? try session.undo() : try session.redo()
            samples.append(DispatchTime.now().uptimeNanoseconds - start)
            XCTAssertEqual(snapshot.piles.count, 4)
        }
        samples.sort()
        let median = Double(samples[(calls - 1) / 2]) / 1000
        let p99 = Double(samples[Int(Double(calls - 1) * 0.99)]) / 1000
        print(String(format: "swift latency: action + snapshot round trip median %.1f us, p99 %.1f us (%d calls)", median, p99, calls))
        // A frame is 16 ms; one touch must cost far less.
        XCTAssertLessThan(p99, 16_000)
    }
}

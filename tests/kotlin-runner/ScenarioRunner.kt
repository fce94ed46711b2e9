package app.acesup.scenarios

import app.acesup.core.Action
import app.acesup.core.Analysis
import app.acesup.core.Card
import app.acesup.core.Counters
import app.acesup.core.DealChoice
import app.acesup.core.GameException
import app.acesup.core.GameRecord
import app.acesup.core.GameStatus
import app.acesup.core.Hint
import app.acesup.core.NewGameOptions
import app.acesup.core.Place
import app.acesup.core.Session
import app.acesup.core.Settings
import app.acesup.core.TableSnapshot
import app.acesup.core.TimeSource
import app.acesup.core.Variant
import app.acesup.core.VariantStatistics
import app.acesup.core.errorCode
import app.acesup.core.errorMessage
import java.io.File
import java.nio.file.Files
import java.util.concurrent.atomic.AtomicLong

/** The time every scenario starts at (milliseconds since the epoch). */
const val CLOCK_START_MS = 1_000_000_000L

/** A clock the scenario moves by hand. */
class ManualClock(start: Long) : TimeSource {
    val now = AtomicLong(start)

    override fun nowMs(): ULong = now.get().toULong()
}

/** The scenario files: `-Dacesup.scenarios=<dir>` (scripts/test-all.sh sets it). */
fun scenarioFiles(): List<File> {
    val dir = File(System.getProperty("acesup.scenarios") ?: "tests/scenarios")
    val files = dir.listFiles { file -> file.name.endsWith(".json") }?.sortedBy { it.name }
    return requireNotNull(files) { "no scenario directory at ${dir.absolutePath}" }
}

// ---- normalization: the same JSON shapes every runner builds --------------------------------

private fun placeValue(place: Place): Any =
    when (place) {
        is Place.Pile -> place.index.toLong()
        Place.Cell -> "cell"
    }

private fun placeText(place: Place): String =
    when (place) {
        is Place.Pile -> place.index.toString()
        Place.Cell -> "cell"
    }

fun actionText(action: Action): String =
    when (action) {
        Action.Deal -> "deal"
        is Action.Discard -> "discard ${placeText(action.from)}"
        is Action.Move -> "move ${placeText(action.from)} ${placeText(action.to)}"
        is Action.Joker -> "joker ${action.pile}"
    }

private fun hintText(hint: Hint): String =
    when (hint) {
        is Hint.Play -> actionText(hint.action)
        Hint.NoUsefulMove -> "no_useful_move"
    }

fun variantCode(variant: Variant): String = variant.name.lowercase()

fun variantOf(code: String): Variant = Variant.entries.first { variantCode(it) == code }

private fun statusCode(status: GameStatus): String = status.name.lowercase()

private fun counters(c: Counters): Map<String, Any?> =
    mapOf(
        "moves" to c.moves.toLong(),
        "undos" to c.undos.toLong(),
        "redos" to c.redos.toLong(),
        "hints" to c.hints.toLong(),
        "jokers_used" to c.jokersUsed.toLong(),
        "restarts" to c.restarts.toLong(),
    )

private fun cardText(card: Card): String = card.code

fun normalize(s: TableSnapshot): Map<String, Any?> =
    mapOf(
        "piles" to s.piles.map { pile -> pile.joinToString(" ") { cardText(it) } },
        "cell" to s.cell?.let(::cardText),
        "has_cell" to s.hasCell,
        "stock" to s.stock.toLong(),
        "score" to s.score.toLong(),
        "cards_left" to s.cardsLeft.toLong(),
        "status" to statusCode(s.status),
        "variant" to variantCode(s.variant),
        "deal_number" to s.dealNumber?.toString(),
        "counters" to counters(s.counters),
        "jokers_left" to s.jokersLeft.toLong(),
        "jokers_per_game" to s.jokersPerGame.toLong(),
        "joker_targets" to s.jokerTargets.map { it.toLong() },
        "can_deal" to s.canDeal,
        "can_undo" to s.canUndo,
        "can_redo" to s.canRedo,
        "can_hint" to s.canHint,
        "can_restart" to s.canRestart,
        "tops" to
            s.tops.map { top ->
                mapOf(
                    "place" to placeValue(top.place),
                    "card" to cardText(top.card),
                    "can_discard" to top.canDiscard,
                    "move_targets" to top.moveTargets.map(::placeValue),
                    "smart_move" to top.smartMove?.let(::actionText),
                )
            },
        "hint" to s.hint?.let(::hintText),
        "play_time_ms" to s.playTimeMs.toLong(),
        "round" to
            s.round?.let { r ->
                mapOf(
                    "limit" to r.limit.toLong(),
                    "hands" to r.hands.map { it.toLong() },
                    "complete" to r.complete,
                    "result" to r.result?.toLong(),
                    "qualifies" to r.qualifies,
                )
            },
        "save_problem" to s.saveProblem,
    )

private fun histogram(buckets: List<UInt>): String =
    buckets.withIndex().filter { it.value > 0u }.joinToString(" ") { "${it.index}:${it.value}" }

private fun variantStatistics(s: VariantStatistics): Map<String, Any?> =
    mapOf(
        "played" to s.played.toLong(),
        "won" to s.won.toLong(),
        "win_rate" to s.winRate,
        "current_streak" to s.currentStreak.toLong(),
        "best_streak" to s.bestStreak.toLong(),
        "best_score" to s.bestScore?.toLong(),
        "average_score" to s.averageScore,
        "score_histogram" to histogram(s.scoreHistogram),
    )

private fun record(r: GameRecord): Map<String, Any?> =
    mapOf(
        "deal_number" to r.dealNumber?.toString(),
        "deck" to r.deck,
        "variant" to variantCode(r.variant),
        "jokers_per_game" to r.jokersPerGame.toLong(),
        "status" to statusCode(r.status),
        "score" to r.score.toLong(),
        "cards_left" to r.cardsLeft.toLong(),
        "counters" to counters(r.counters),
        "play_time_ms" to r.playTimeMs.toLong(),
        "started_at_ms" to r.startedAtMs.toLong(),
        "ended_at_ms" to r.endedAtMs.toLong(),
        "log" to r.log,
    )

private fun settings(s: Settings): Map<String, Any?> =
    mapOf(
        "variant" to variantCode(s.variant),
        "jokers_per_game" to s.jokersPerGame.toLong(),
        "undo_enabled" to s.undoEnabled,
        "hints_enabled" to s.hintsEnabled,
        "round_limit" to s.roundLimit.toLong(),
        "winnable_only" to s.winnableOnly,
    )

private fun analysis(a: Analysis): Map<String, Any?> =
    mapOf(
        "winnable" to a.winnable,
        "best_score" to a.bestScore?.toLong(),
        "lower_bound" to a.lowerBound.toLong(),
        "upper_bound" to a.upperBound.toLong(),
        "line" to a.line.map(::actionText),
    )

/** `NoSuchPile` -> `no_such_pile`: the case name as the scenarios write it. */
fun caseCode(error: GameException): String =
    (error::class.simpleName ?: "unknown").replace(Regex("([a-z0-9])([A-Z])"), "$1_$2").lowercase()

// ---- comparison -----------------------------------------------------------------------------

/**
 * Objects match partially (every expected key must exist and match), lists element by element
 * with equal length, numbers within 1e-9, everything else exactly.
 */
fun compare(
    expected: Any?,
    actual: Any?,
    path: String,
    problems: MutableList<String>,
) {
    when {
        expected is Map<*, *> && actual is Map<*, *> ->
            for ((key, value) in expected) {
                if (actual.containsKey(key)) {
                    compare(value, actual[key], "$path.$key", problems)
                } else {
                    problems.add("$path.$key: no such field")
                }
            }
        expected is List<*> && actual is List<*> ->
            if (expected.size == actual.size) {
                expected.indices.forEach { compare(expected[it], actual[it], "$path[$it]", problems) }
            } else {
                problems.add("$path: expected $expected, got $actual")
            }
        expected is Number && actual is Number -> {
            val same =
                if (expected is Long && actual is Long) {
                    expected == actual
                } else {
                    Math.abs(expected.toDouble() - actual.toDouble()) <= 1e-9
                }
            if (!same) problems.add("$path: expected $expected, got $actual")
        }
        expected != actual -> problems.add("$path: expected $expected, got $actual")
    }
}

// ---- running --------------------------------------------------------------------------------

private sealed interface Outcome {
    data class Snapshot(val snapshot: TableSnapshot) : Outcome

    data object Done : Outcome

    /** An analysis step succeeded; its result is kept as the runner's last analysis. */
    data object Analyzed : Outcome

    data class Failed(val error: GameException) : Outcome
}

private fun Map<String, Any?>.place(key: String): Place =
    when (val value = this[key]) {
        "cell" -> Place.Cell
        is Long -> Place.Pile(value.toUByte().also { require(value in 0..255) { "$key: $value" } })
        else -> error("$key: not a place: $value")
    }

private fun dealChoice(spec: Map<String, Any?>): DealChoice? =
    when {
        spec.containsKey("deck") -> DealChoice.Deck(spec["deck"] as String)
        spec.containsKey("deal_number") -> DealChoice.Number(spec["deal_number"].toString().toULong())
        spec["random"] == true -> DealChoice.Random
        else -> null
    }

private fun newGameOptions(spec: Map<String, Any?>): NewGameOptions? =
    dealChoice(spec)?.let { deal ->
        NewGameOptions(deal, (spec["variant"] as String?)?.let(::variantOf))
    }

private fun mergedSettings(
    current: Settings,
    changes: Map<*, *>,
): Settings {
    var s = current
    for ((key, value) in changes) {
        s =
            when (key) {
                "variant" -> s.copy(variant = variantOf(value as String))
                "jokers_per_game" -> s.copy(jokersPerGame = (value as Long).toUByte())
                "undo_enabled" -> s.copy(undoEnabled = value as Boolean)
                "hints_enabled" -> s.copy(hintsEnabled = value as Boolean)
                "round_limit" -> s.copy(roundLimit = (value as Long).toUInt())
                "winnable_only" -> s.copy(winnableOnly = value as Boolean)
                else -> error("unknown setting $key")
            }
    }
    return s
}

/** Replays one scenario file; returns what did not match (empty: it passed). */
class ScenarioRunner(private val file: File) {
    private val scenario = Json.parse(file.readText()) as Map<*, *>
    private val dir: File = Files.createTempDirectory("acesup-scenario-kotlin-").toFile()
    private val clock = ManualClock(CLOCK_START_MS)
    private lateinit var session: Session

    /** The result of the latest successful `analyze_deal` / `analyze_position` step. */
    private var lastAnalysis: Analysis? = null

    private fun open(path: String): Session = Session.withTimeSource(path, clock)

    private fun replace(next: Session) {
        session.close()
        session = next
    }

    fun run(): List<String> {
        val problems = mutableListOf<String>()
        try {
            @Suppress("UNCHECKED_CAST")
            val setup = scenario["setup"] as Map<String, Any?>
            session = open(dir.absolutePath)
            (setup["settings"] as Map<*, *>?)?.let { session.setSettings(mergedSettings(session.settings(), it)) }
            newGameOptions(setup)?.let { session.newGame(it) }
            @Suppress("UNCHECKED_CAST")
            val steps = scenario["steps"] as List<Map<String, Any?>>
            steps.forEachIndexed { index, step -> check(step, "step ${index + 1} (\"${step["do"]}\")", problems) }
            session.close()
        } finally {
            dir.deleteRecursively()
        }
        return problems
    }

    private fun check(
        step: Map<String, Any?>,
        at: String,
        problems: MutableList<String>,
    ) {
        val outcome = perform(step)
        val expectedError = step["error"] as String?
        when {
            outcome is Outcome.Failed -> {
                val code = caseCode(outcome.error)
                if (code != errorCode(outcome.error)) problems.add("$at: case $code reads back as ${errorCode(outcome.error)}")
                if (errorMessage(outcome.error).isEmpty()) problems.add("$at: empty error message")
                if (code != expectedError) problems.add("$at: expected ${expectedError ?: "success"}, got error $code")
            }
            expectedError != null -> problems.add("$at: expected error $expectedError, got success")
            outcome is Outcome.Snapshot ->
                if (normalize(outcome.snapshot) != normalize(session.snapshot())) {
                    problems.add("$at: the returned snapshot differs from snapshot()")
                }
            else -> {}
        }
        (step["expect"] as Map<*, *>?)?.let { expect -> compare(expect, actual(expect), at, problems) }
    }

    private fun perform(step: Map<String, Any?>): Outcome =
        try {
            val s = session
            when (val verb = step["do"]) {
                "snapshot" -> Outcome.Snapshot(s.snapshot())
                "deal" -> Outcome.Snapshot(s.deal())
                "discard" -> Outcome.Snapshot(s.discard(step.place("from")))
                "move" -> Outcome.Snapshot(s.moveCard(step.place("from"), step.place("to")))
                "cell" -> Outcome.Snapshot(s.moveToCell(step.place("from")))
                "smart" -> Outcome.Snapshot(s.smartMove(step.place("place")))
                "joker" -> Outcome.Snapshot(s.useJoker((step["pile"] as Long).toUByte()))
                "undo" -> Outcome.Snapshot(s.undo())
                "redo" -> Outcome.Snapshot(s.redo())
                "restart" -> Outcome.Snapshot(s.restart())
                "resign" -> Outcome.Snapshot(s.resign())
                "hint" -> {
                    val result = s.hint()
                    check(result.snapshot.hint == result.hint) { "the hint result shows its hint" }
                    Outcome.Snapshot(result.snapshot)
                }
                "new_game" ->
                    if (step["same_deal"] == true) {
                        val number = requireNotNull(s.snapshot().dealNumber) { "same_deal needs a deal number" }
                        val variant = (step["variant"] as String?)?.let(::variantOf)
                        Outcome.Snapshot(s.newGame(NewGameOptions(DealChoice.Number(number), variant)))
                    } else {
                        Outcome.Snapshot(s.newGame(requireNotNull(newGameOptions(step)) { "new_game needs a deal" }))
                    }
                "start_round" -> Outcome.Snapshot(s.startRound())
                "set_settings" -> Outcome.Snapshot(s.setSettings(mergedSettings(s.settings(), step["settings"] as Map<*, *>)))
                "pause" -> Outcome.Done.also { s.pause() }
                "resume" -> Outcome.Done.also { s.resume() }
                "advance_clock" -> Outcome.Done.also { clock.now.addAndGet(step["ms"] as Long) }
                "reopen" -> Outcome.Done.also { replace(open(dir.absolutePath)) }
                "open" -> Outcome.Done.also { replace(open((step["path"] as String).replace("{dir}", dir.absolutePath))) }
                "write_file" -> Outcome.Done.also { File(dir, step["name"] as String).writeText(step["text"] as String) }
                "analyze_deal" -> Outcome.Analyzed.also { lastAnalysis = s.analyzeDeal() }
                "analyze_position" -> Outcome.Analyzed.also { lastAnalysis = s.analyzePosition((step["step"] as Long).toUInt()) }
                "replay_analysis_line" -> replay(s, requireNotNull(lastAnalysis) { "replay_analysis_line needs an analysis first" }.line)
                "check" -> Outcome.Done
                else -> error("unknown step $verb")
            }
        } catch (e: GameException) {
            Outcome.Failed(e)
        }

    /** Plays `line` through the session, action by action; the first refusal ends the replay. */
    private fun replay(
        s: Session,
        line: List<Action>,
    ): Outcome {
        var last = s.snapshot()
        for (action in line) {
            last =
                when (action) {
                    Action.Deal -> s.deal()
                    is Action.Discard -> s.discard(action.from)
                    is Action.Move -> s.moveCard(action.from, action.to)
                    is Action.Joker -> s.useJoker(action.pile)
                }
        }
        return Outcome.Snapshot(last)
    }

    private fun actual(expect: Map<*, *>): Map<String, Any?> {
        val view = normalize(session.snapshot()).toMutableMap()
        for (key in expect.keys) {
            view[key as String] =
                when (key) {
                    "statistics" ->
                        session.statistics().let {
                            mapOf(
                                "standard" to variantStatistics(it.standard),
                                "aces_only" to variantStatistics(it.acesOnly),
                                "free_cell" to variantStatistics(it.freeCell),
                            )
                        }
                    "records" -> session.records().map(::record)
                    "best_records" -> {
                        val query = expect[key] as Map<*, *>
                        val limit = (query["limit"] as Long).toUInt()
                        val best = session.bestRecords(variantOf(query["variant"] as String), limit)
                        mapOf("variant" to query["variant"], "limit" to limit.toLong(), "records" to best.map(::record))
                    }
                    "settings" -> settings(session.settings())
                    "analysis" -> lastAnalysis?.let(::analysis)
                    "round_history" ->
                        session.roundHistory().let {
                            mapOf(
                                "played" to it.played.toLong(),
                                "qualified" to it.qualified.toLong(),
                                "best_result" to it.bestResult?.toLong(),
                            )
                        }
                    "load_problems" -> session.loadProblems().map { it.code }
                    else -> continue
                }
        }
        return view
    }
}

package app.acesup.scenarios

import app.acesup.core.DealChoice
import app.acesup.core.NewGameOptions
import app.acesup.core.Session
import app.acesup.core.defaultSettings
import org.junit.Assert.assertTrue
import org.junit.Test

/** Latency of one action + snapshot round trip through JNA (in-memory session, no disk). */
class LatencyBenchmark {
    private fun percentile(
        sorted: LongArray,
        p: Double,
    ): Long = sorted[((sorted.size - 1) * p).toInt()]

    @Test
    fun actionRoundTripIsFast() {
        Session.inMemory(defaultSettings()).use { session ->
            session.newGame(NewGameOptions(DealChoice.Number(1uL), null))
            session.deal()
            repeat(1000) {
                session.undo()
                session.redo()
            }
            val calls = 4000
            val samples = LongArray(calls)
            for (i in 0 until calls) {
                val start = System.nanoTime()
                val snapshot = if (i % 2 == 0) session.undo() else session.redo()
                samples[i] = System.nanoTime() - start
                check(snapshot.piles.size == 4)
            }
            samples.sort()
            val median = percentile(samples, 0.5) / 1000.0
            val p99 = percentile(samples, 0.99) / 1000.0
            println("kotlin latency: action + snapshot round trip median %.1f us, p99 %.1f us (%d calls)".format(median, p99, calls))
            // A frame is 16 ms; one touch must cost far less.
            assertTrue("p99 $p99 us", p99 < 16_000.0)
        }
    }
}

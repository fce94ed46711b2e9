package app.acesup.scenarios

import app.acesup.core.DealChoice
import app.acesup.core.GameException
import app.acesup.core.NewGameOptions
import app.acesup.core.Session
import app.acesup.core.TableSnapshot
import app.acesup.core.defaultSettings
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.atomic.AtomicInteger

/** One Session hammered from 8 threads: no crash, no lost action, a consistent final state. */
class ConcurrencyTest {
    private fun cardsAccountedFor(s: TableSnapshot): Int = s.piles.sumOf { it.size } + (if (s.cell != null) 1 else 0) + s.stock.toInt() + s.score.toInt()

    @Test
    fun eightThreadsShareOneSession() {
        val threads = 8
        val rounds = 300
        Session.inMemory(defaultSettings()).use { session ->
            session.newGame(NewGameOptions(DealChoice.Number(1uL), null))
            session.deal()
            val hints = AtomicInteger()
            val undos = AtomicInteger()
            val redos = AtomicInteger()
            val refused = AtomicInteger()
            val problems = Collections.synchronizedList(mutableListOf<String>())
            val start = CountDownLatch(1)
            val workers =
                (0 until threads).map { t ->
                    Thread {
                        start.await()
                        repeat(rounds) { i ->
                            try {
                                val snapshot =
                                    when ((i + t) % 4) {
                                        0 -> session.hint().snapshot.also { hints.incrementAndGet() }
                                        1 -> session.undo().also { undos.incrementAndGet() }
                                        2 -> session.redo().also { redos.incrementAndGet() }
                                        else -> session.snapshot()
                                    }
                                if (cardsAccountedFor(snapshot) != 52) problems.add("thread $t: ${cardsAccountedFor(snapshot)} cards")
                                if (snapshot.stock != 44u && snapshot.stock != 48u) problems.add("thread $t: stock ${snapshot.stock}")
                            } catch (e: GameException.NothingToUndo) {
                                refused.incrementAndGet()
                            } catch (e: GameException.NothingToRedo) {
                                refused.incrementAndGet()
                            } catch (e: Throwable) {
                                problems.add("thread $t: $e")
                            }
                        }
                    }
                }
            workers.forEach { it.start() }
            start.countDown()
            workers.forEach { it.join() }

            assertEquals(emptyList<String>(), problems.toList())
            val end = session.snapshot()
            assertEquals(threads * rounds / 4, hints.get())
            assertEquals("every call either acted or was refused", threads * rounds / 2, undos.get() + redos.get() + refused.get())
            assertEquals("no lost hint", hints.get().toUInt(), end.counters.hints)
            assertEquals("no lost undo", undos.get().toUInt(), end.counters.undos)
            assertEquals("no lost redo", redos.get().toUInt(), end.counters.redos)
            val stepsBack = undos.get() - redos.get()
            assertTrue("undos - redos = $stepsBack", stepsBack == 0 || stepsBack == 1)
            assertEquals(if (stepsBack == 0) 44u else 48u, end.stock)
            assertEquals(1u, end.counters.moves)
            assertEquals(52, cardsAccountedFor(end))
            println("kotlin concurrency: $threads threads, ${threads * rounds} calls, ${hints.get()} hints, ${undos.get()} undos, ${redos.get()} redos, ${refused.get()} refused")
        }
    }
}

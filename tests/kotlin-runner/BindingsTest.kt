package app.acesup.scenarios

import app.acesup.core.DealChoice
import app.acesup.core.GameException
import app.acesup.core.NewGameOptions
import app.acesup.core.Place
import app.acesup.core.Session
import app.acesup.core.Variant
import app.acesup.core.deckOfDeal
import app.acesup.core.defaultSettings
import app.acesup.core.errorCode
import app.acesup.core.errorMessage
import app.acesup.core.libraryVersion
import app.acesup.core.parseDeck
import org.junit.Assert.assertEquals
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test
import java.nio.file.Files

/** The parts of the API the scenarios do not reach: free functions, error fields, paths. */
class BindingsTest {
    private inline fun <reified E : GameException> assertThrows(block: () -> Unit): E {
        try {
            block()
        } catch (e: GameException) {
            if (e is E) return e
            fail("expected ${E::class.simpleName}, got $e")
        }
        fail("expected ${E::class.simpleName}, nothing was thrown")
        error("unreachable")
    }

    @Test
    fun deckOfDealMatchesTheDealtTable() {
        val deck = deckOfDeal(1uL).split(" ")
        assertEquals(52, deck.size)
        assertEquals(listOf("8D", "10C", "5D", "9H"), deck.take(4))
        Session.inMemory(defaultSettings()).use { session ->
            val snapshot = session.newGame(NewGameOptions(DealChoice.Number(1uL), Variant.FREE_CELL))
            assertEquals(deck.take(4), snapshot.piles.map { it.single().code })
            assertEquals(Variant.FREE_CELL, snapshot.variant)
            assertNull(session.storageDir())
        }
    }

    @Test
    fun customDeckTextIsChecked() {
        assertEquals(52, parseDeck(deckOfDeal(9uL)).size)
        assertEquals(2uL, assertThrows<GameException.DeckWrongCount> { parseDeck("AS KS") }.found)
        val bad = assertThrows<GameException.DeckBadCard> { parseDeck("AS 1X") }
        assertEquals(2uL, bad.position)
        assertEquals("1X", bad.text)
    }

    @Test
    fun errorsCarryTheirFieldsAndAReadableMessage() {
        Session.inMemory(defaultSettings()).use { session ->
            val error = assertThrows<GameException.NoSuchPile> { session.discard(Place.Pile(4u)) }
            assertEquals(4.toUByte(), error.index)
            assertEquals("no_such_pile", errorCode(error))
            assertEquals("there is no pile with index 4: piles are 0 to 3", errorMessage(error))
        }
    }

    @Test
    fun storagePathsAreChecked() {
        assertThrows<GameException.InvalidPath> { Session("relative/dir") }
        assertThrows<GameException.InvalidPath> { Session("") }
        val dir = Files.createTempDirectory("acesup-kotlin-").toFile()
        try {
            Session(dir.absolutePath).use { session ->
                assertEquals(dir.absolutePath, session.storageDir())
                assertTrue(session.loadProblems().isEmpty())
            }
        } finally {
            dir.deleteRecursively()
        }
    }

    @Test
    fun defaultsAndVersion() {
        val settings = defaultSettings()
        assertEquals(Variant.STANDARD, settings.variant)
        assertEquals(1.toUByte(), settings.jokersPerGame)
        assertEquals(5u, settings.roundLimit)
        assertTrue(libraryVersion().isNotEmpty())
    }
}

package app.acesup.scenarios

import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test
import org.junit.runner.RunWith
import org.junit.runners.Parameterized
import java.io.File

/** Replays every shared scenario of tests/scenarios through the Kotlin bindings. */
@RunWith(Parameterized::class)
class ScenarioTest(
    private val name: String,
    private val file: File,
) {
    companion object {
        @JvmStatic
        @Parameterized.Parameters(name = "{0}")
        fun scenarios(): List<Array<Any>> = scenarioFiles().map { arrayOf(it.nameWithoutExtension, it) }
    }

    @Test
    fun replays() {
        val problems = ScenarioRunner(file).run()
        if (problems.isNotEmpty()) fail("$name:\n  " + problems.joinToString("\n  "))
    }
}

/** The scenario set itself. */
class ScenarioSetTest {
    @Test
    fun thereAreAtLeastFortyScenarios() {
        assertTrue("only ${scenarioFiles().size} scenarios", scenarioFiles().size >= 40)
    }
}

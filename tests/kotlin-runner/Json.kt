package app.acesup.scenarios

/**
 * A small JSON reader for the scenario files: objects become [Map] (in file order), arrays
 * [List], integral numbers [Long], other numbers [Double], and `true`/`false`/`null`.
 */
object Json {
    fun parse(text: String): Any? {
        val reader = Reader(text)
        val value = reader.value()
        reader.skipSpace()
        require(reader.atEnd()) { "trailing text at offset ${reader.pos}" }
        return value
    }

    private class Reader(private val text: String) {
        var pos = 0

        fun atEnd() = pos >= text.length

        fun skipSpace() {
            while (!atEnd() && text[pos].isWhitespace()) pos++
        }

        private fun expect(char: Char) {
            skipSpace()
            require(!atEnd() && text[pos] == char) { "expected '$char' at offset $pos" }
            pos++
        }

        fun value(): Any? {
            skipSpace()
            require(!atEnd()) { "unexpected end of JSON" }
            return when (val c = text[pos]) {
                '{' -> obj()
                '[' -> array()
                '"' -> string()
                't' -> literal("true", true)
                'f' -> literal("false", false)
                'n' -> literal("null", null)
                else -> if (c == '-' || c.isDigit()) number() else error("unexpected '$c' at offset $pos")
            }
        }

        private fun literal(
            word: String,
            result: Any?,
        ): Any? {
            require(text.startsWith(word, pos)) { "expected $word at offset $pos" }
            pos += word.length
            return result
        }

        private fun obj(): Map<String, Any?> {
            expect('{')
            val map = LinkedHashMap<String, Any?>()
            skipSpace()
            if (text[pos] == '}') {
                pos++
                return map
            }
            while (true) {
                skipSpace()
                val key = string()
                expect(':')
                map[key] = value()
                skipSpace()
                when (text[pos++]) {
                    ',' -> continue
                    '}' -> return map
                    else -> error("expected ',' or '}' at offset ${pos - 1}")
                }
            }
        }

        private fun array(): List<Any?> {
            expect('[')
            val list = ArrayList<Any?>()
            skipSpace()
            if (text[pos] == ']') {
                pos++
                return list
            }
            while (true) {
                list.add(value())
                skipSpace()
                when (text[pos++]) {
                    ',' -> continue
                    ']' -> return list
                    else -> error("expected ',' or ']' at offset ${pos - 1}")
                }
            }
        }

        private fun string(): String {
            require(text[pos] == '"') { "expected a string at offset $pos" }
            pos++
            val out = StringBuilder()
            while (true) {
                require(!atEnd()) { "unterminated string" }
                when (val c = text[pos++]) {
                    '"' -> return out.toString()
                    '\\' -> {
                        when (val e = text[pos++]) {
                            '"', '\\', '/' -> out.append(e)
                            'b' -> out.append('\b')
                            'f' -> out.append('\u000C')
                            'n' -> out.append('\n')
                            'r' -> out.append('\r')
                            't' -> out.append('\t')
                            'u' -> {
                                out.append(text.substring(pos, pos + 4).toInt(16).toChar())
                                pos += 4
                            }
                            else -> error("bad escape \\$e at offset ${pos - 1}")
                        }
                    }
                    else -> out.append(c)
                }
            }
        }

        private fun number(): Number {
            val start = pos
            while (!atEnd() && (text[pos].isDigit() || text[pos] in "+-.eE")) pos++
            val word = text.substring(start, pos)
            return word.toLongOrNull() ?: word.toDouble()
        }
    }
}

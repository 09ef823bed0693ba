import GNSSProtocol
import Testing

@Suite struct JSONReaderTests {
    private func parse(_ text: String) throws(JSONError) -> JSONValue { try JSONValue(parsing: text) }

    private func reason(_ bytes: [UInt8], maximumDepth: Int = JSONValue.defaultMaximumDepth) -> JSONError.Reason? {
        do {
            _ = try JSONValue(parsing: bytes, maximumDepth: maximumDepth)
            return nil
        } catch {
            return error.reason
        }
    }

    private func reason(_ text: String) -> JSONError.Reason? { reason(Array(text.utf8)) }

    @Test func parsesNestedDocumentInOrder() throws {
        let value = try parse(#" {"a":[1,-2.5e1,true,false,null,"x"],"b":{"c":{}},"d":[]} "#)
        #expect(
            value
                == .object([
                    JSONMember(
                        key: "a",
                        value: .array([.number(1), .number(-25), .bool(true), .bool(false), .null, .string("x")])),
                    JSONMember(key: "b", value: .object([JSONMember(key: "c", value: .object([]))])),
                    JSONMember(key: "d", value: .array([])),
                ]))
        #expect(value["a"]?.arrayValue?.count == 6)
        #expect(value["missing"] == nil)
    }

    @Test func parsesScalarsAtTopLevel() throws {
        #expect(try parse("0") == .number(0))
        #expect(try parse("-0.5") == .number(-0.5))
        #expect(try parse("1E+2") == .number(100))
        #expect(try parse("\"\"") == .string(""))
        #expect(try parse("null") == .null)
    }

    @Test func decodesEscapesAndUnicode() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u00e9\u20AC""#) == .string("é€"))
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse("\"né 😀\"") == .string("né 😀"))
        // gpsd's own ERROR echo of "?FOO;\n".
        #expect(try parse(#""Unrecognized request '?FOO;\n'""#) == .string("Unrecognized request '?FOO;\n'"))
    }

    @Test func rejectsMalformedNumbers() {
        for text in ["01", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "NaN", "Infinity", "--1"] {
            #expect(reason(text) != nil, "accepted \(text)")
        }
        #expect(reason("1e999") == .numberOutOfRange)
        #expect(reason("-1e400") == .numberOutOfRange)
    }

    @Test func rejectsBadStrings() {
        #expect(reason("\"abc") == .unexpectedEnd)
        #expect(reason("\"a\u{1}b\"") == .controlCharacterInString)
        #expect(reason("\"tab\there\"") == .controlCharacterInString)
        #expect(reason(#""\x41""#) == .invalidEscape)
        #expect(reason(#""\u12G4""#) == .invalidUnicodeEscape)
        #expect(reason(#""\ud83d""#) == .invalidUnicodeEscape)
        #expect(reason(#""\ude00""#) == .invalidUnicodeEscape)
        #expect(reason(#""\ud83d\u0041""#) == .invalidUnicodeEscape)
        #expect(reason([0x22, 0xC3, 0x28, 0x22]) == .invalidUTF8)
        #expect(reason([0x22, 0xFF, 0x22]) == .invalidUTF8)
        #expect(reason([0x22, 0xED, 0xA0, 0x80, 0x22]) == .invalidUTF8)  // UTF-8 encoded surrogate
        #expect(reason([0x22, 0x5C, 0x6E, 0xC0, 0x80, 0x22]) == .invalidUTF8)  // overlong NUL after an escape
    }

    @Test func rejectsStructuralErrors() {
        #expect(reason("") == .unexpectedEnd)
        #expect(reason("   ") == .unexpectedEnd)
        #expect(reason("[1,]") == .unexpectedByte(UInt8(ascii: "]")))
        #expect(reason("[1 2]") == .unexpectedByte(UInt8(ascii: "2")))
        #expect(reason(#"{"a" 1}"#) == .unexpectedByte(UInt8(ascii: "1")))
        #expect(reason(#"{"a":1,}"#) == .unexpectedByte(UInt8(ascii: "}")))
        #expect(reason("{a:1}") == .unexpectedByte(UInt8(ascii: "a")))
        #expect(reason(#"{"a":1}x"#) == .trailingData)
        #expect(reason("{} {}") == .trailingData)
        #expect(reason("tru") == .unexpectedEnd)
        #expect(reason("nul1") == .unexpectedByte(UInt8(ascii: "1")))
        #expect(reason(#"{"a":1,"a":2}"#) == .duplicateKey("a"))
    }

    @Test func reportsOffsetInMessage() throws {
        let error = try #require(throws: JSONError.self) { try JSONValue(parsing: #"{"a":x}"#) }
        #expect(error.offset == 5)
        #expect(error.description == "invalid JSON at byte 5: unexpected byte 0x78 'x'")
    }

    @Test func limitsNestingWithoutRecursion() throws {
        // A line of gpsd's maximum size made only of brackets must fail fast, not overflow the stack.
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 10_240)
        #expect(reason(deep) == .tooDeep(limit: JSONValue.defaultMaximumDepth))
        let objects = Array(String(repeating: #"{"a":"#, count: 2_000).utf8)
        #expect(reason(objects) == .tooDeep(limit: JSONValue.defaultMaximumDepth))
        // Exactly at the limit is fine.
        let atLimit = String(repeating: "[", count: 4) + String(repeating: "]", count: 4)
        #expect(try JSONValue(parsing: Array(atLimit.utf8), maximumDepth: 4).arrayValue?.count == 1)
        #expect(reason(Array(atLimit.utf8), maximumDepth: 3) == .tooDeep(limit: 3))
    }

    @Test func survivesGarbage() {
        // Deterministic pseudo-random bytes, seeded: every input must give a value or an error, never a crash.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let alphabet = Array(#"{}[]":,-0123456789.eE+truefalsn\u "#.utf8) + [0x00, 0x7F, 0xC3, 0xFF, 0x0A]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(state % 40) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1
            _ = try? JSONValue(parsing: bytes)
        }
    }
}

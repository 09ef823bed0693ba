import GNSSProtocol
import Testing

@Suite struct GPSDLineFramerTests {
    private func lines(_ outputs: [GPSDLineFramer.Output]) -> [String] {
        outputs.map {
            switch $0 {
            case .line(let bytes): String(decoding: bytes, as: UTF8.self)
            case .oversized(let count): "<dropped \(count)>"
            }
        }
    }

    @Test func splitsCRLFLinesAcrossChunks() {
        var framer = GPSDLineFramer()
        var got: [String] = []
        for chunk in ["{\"a\":1}\r", "\n{\"b\"", ":2}\r\n\r\n{\"c\":3}\n{\"d\""] {
            got += lines(framer.append(Array(chunk.utf8)))
        }
        #expect(got == [#"{"a":1}"#, #"{"b":2}"#, #"{"c":3}"#])
        #expect(framer.bufferedByteCount == 4)
        #expect(lines(framer.finish().map { [$0] } ?? []) == [#"{"d""#])
        #expect(framer.finish() == nil)
    }

    @Test func deliversByteByByte() {
        var framer = GPSDLineFramer()
        var got: [String] = []
        for byte in "one\r\ntwo\nthree\r\n".utf8 { got += lines(framer.append([byte])) }
        #expect(got == ["one", "two", "three"])
    }

    @Test func acceptsLineOfExactlyTheLimit() {
        var framer = GPSDLineFramer(maximumLineLength: 8)
        let out = framer.append(Array("12345678\r\n123456789\n".utf8))
        #expect(lines(out) == ["12345678", "<dropped 9>"])
        #expect(framer.droppedLineCount == 1)
    }

    @Test func dropsOversizedLineAndResynchronises() {
        var framer = GPSDLineFramer()
        var got: [String] = []
        got += lines(framer.append(Array("{\"ok\":1}\n".utf8)))
        // 30,000 bytes with no newline, in chunks: memory must stay bounded by the limit.
        let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 1_000)
        for _ in 0..<30 {
            got += lines(framer.append(junk))
            #expect(framer.bufferedByteCount <= GPSDLineFramer.defaultMaximumLineLength + 1)
        }
        got += lines(framer.append(Array("tail\r\n{\"ok\":2}\n".utf8)))
        #expect(got == [#"{"ok":1}"#, "<dropped 30005>", #"{"ok":2}"#])
        #expect(framer.droppedLineCount == 1)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func dropsOversizedLineInsideOneChunk() {
        var framer = GPSDLineFramer(maximumLineLength: 4)
        #expect(lines(framer.append(Array("abcdefgh\nab\n".utf8))) == ["<dropped 8>", "ab"])
    }

    @Test func reportsUnterminatedOversizedTailAtFinish() {
        var framer = GPSDLineFramer(maximumLineLength: 4)
        #expect(framer.append(Array("abcdefgh".utf8)).isEmpty)
        #expect(framer.finish() == .oversized(byteCount: 8))
        #expect(framer.droppedLineCount == 1)
    }
}

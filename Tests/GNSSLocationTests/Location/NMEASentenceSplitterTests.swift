import Testing

@testable import GNSSLocation

/// What the sentence splitter hands out: each sentence in storage of its own size, whatever came before it.
@Suite struct NMEASentenceSplitterTests {
    @Test func aSentenceAfterALongLineTakesNoMoreStorageThanItsBytes() {
        var splitter = NMEASentenceSplitter()
        let sentence = Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n".utf8)
        var emitted: [[UInt8]] = []
        // A line of junk longer than any sentence grows the splitter's line buffer to 512 bytes.
        splitter.feed(Array(repeating: UInt8(ascii: "x"), count: 300) + [0x0A]) { emitted.append($0) }
        for _ in 0..<3 { splitter.feed(sentence) { emitted.append($0) } }
        #expect(emitted == [sentence, sentence, sentence])
        for line in emitted {
            // The allocator rounds a request up by at most 16 bytes here; the line buffer would be 512.
            #expect(line.capacity < sentence.count + 32, "capacity \(line.capacity) for \(line.count) bytes")
        }
    }
}

import GNSSProtocol

/// Cuts the raw sentences out of an NMEA byte stream for ``LocationManager/events(bufferSize:includingSentences:holdingSource:)``:
/// each line that is a sentence, with its line end as received (`\r\n`, `\n`, or a lone `\r`, which goes out when the
/// next byte shows that no `\n` follows).
///
/// A sentence starts with `$` or `!` and an address (five more bytes at least), holds only printable ASCII, and
/// when it has a `*HH` checksum, the checksum matches (only spaces or tabs may follow it); other lines (bad
/// checksums, terminal escape sequences, binary noise) and lines longer than ``maximumSentenceLength`` are skipped.
struct NMEASentenceSplitter {
    /// The longest sentence passed on, without its line end: NMEA's 82 bytes, with room for the proprietary ones
    /// that exceed it.
    static let maximumSentenceLength = 256
    /// The longest line end kept: `\r\r\n`, as some receivers send; a longer run of `\r` makes the line skipped.
    static let maximumLineEndLength = 3

    private var line: [UInt8] = []
    /// How many bytes at the end of ``line`` are its line end (`\r` so far, while a `\n` may follow).
    private var lineEnd = 0
    private var skipping = false

    /// `bytes` cut after each line feed: the pieces a chunk is decoded in while sentences have subscribers, so that
    /// each sentence goes out just before the fixes it completes.
    static func lines(of bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.endIndex
            pieces.append(bytes[start..<end])
            start = end
        }
        return pieces
    }

    /// Forgets a line in progress: nobody listened to the bytes since.
    mutating func reset() {
        if !line.isEmpty || skipping || lineEnd > 0 {
            line.removeAll(keepingCapacity: true)
            lineEnd = 0
            skipping = false
        }
    }

    /// Feeds `bytes`; `emit` receives each complete sentence with its line end.
    mutating func feed(_ bytes: some Collection<UInt8>, emit: ([UInt8]) -> Void) {
        for byte in bytes {
            if lineEnd > 0, byte != 0x0A, byte != 0x0D { endLine(emit: emit) }
            if byte == 0x0A || byte == 0x0D {
                lineEnd += 1
                if !skipping {
                    line.append(byte)
                    if lineEnd > Self.maximumLineEndLength { skipping = true }
                }
                if byte == 0x0A { endLine(emit: emit) }
            } else if !skipping {
                line.append(byte)
                if line.count > Self.maximumSentenceLength {
                    skipping = true
                    line.removeAll(keepingCapacity: true)
                }
            }
        }
    }

    /// Ends the line in ``line``: emits it if it is a sentence, and starts the next.
    ///
    /// The sentence goes out in storage of its own size; ``line`` keeps its buffer for the next line. Handing out
    /// ``line`` itself gave every sentence the buffer's capacity (512 bytes after one line longer than 256), and the
    /// sentences a flood leaves waiting for the subscribers are thousands.
    private mutating func endLine(emit: ([UInt8]) -> Void) {
        if !skipping, Self.isSentence(line[..<(line.count - lineEnd)]) { emit(Self.copy(of: line)) }
        line.removeAll(keepingCapacity: true)
        lineEnd = 0
        skipping = false
    }

    /// `bytes` in a buffer of their own, just large enough (`Array(_:)` of an array or of a whole slice shares it).
    private static func copy(of bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: bytes)
        }
    }

    /// Whether `text` (a line without its end) is a sentence: `$` or `!`, printable ASCII, and a matching
    /// checksum when it has one.
    static func isSentence(_ text: ArraySlice<UInt8>) -> Bool {
        guard text.count >= 6, let first = text.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!")
        else { return false }
        guard let star = text.firstIndex(of: UInt8(ascii: "*")) else {
            return text.allSatisfy(PrintableASCII.contains)
        }
        guard text[..<star].allSatisfy(PrintableASCII.contains), text.endIndex - star >= 3,
            let high = hexValue(text[star + 1]), let low = hexValue(text[star + 2]),
            text[(star + 3)...].allSatisfy({ $0 == 0x20 || $0 == 0x09 })
        else { return false }
        return high << 4 | low == NMEAChecksum.of(text[(text.startIndex + 1)..<star])
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }
}

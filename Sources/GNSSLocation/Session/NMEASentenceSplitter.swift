/// Cuts the raw sentences out of an NMEA byte stream for ``LocationManager/nmeaSentences(bufferSize:)``: each line
/// that starts with `$` or `!`, without its line end; other lines and lines longer than
/// ``maximumSentenceLength`` are skipped.
struct NMEASentenceSplitter {
    /// The longest sentence passed on: NMEA's 82 bytes, with room for the proprietary ones that exceed it.
    static let maximumSentenceLength = 256

    private var line: [UInt8] = []
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
        if !line.isEmpty || skipping {
            line.removeAll(keepingCapacity: true)
            skipping = false
        }
    }

    /// Feeds `bytes`; `emit` receives each complete sentence.
    mutating func feed(_ bytes: some Collection<UInt8>, emit: ([UInt8]) -> Void) {
        for byte in bytes {
            if byte == 0x0A || byte == 0x0D {
                if !skipping, let first = line.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!") {
                    emit(line)
                }
                line.removeAll(keepingCapacity: true)
                skipping = false
            } else if !skipping {
                line.append(byte)
                if line.count > Self.maximumSentenceLength {
                    skipping = true
                    line.removeAll(keepingCapacity: true)
                }
            }
        }
    }
}

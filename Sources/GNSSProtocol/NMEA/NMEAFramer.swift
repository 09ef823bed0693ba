/// Cuts a byte stream into NMEA sentences: `$` or `!` up to CR and/or LF.
///
/// Complete sentences inside one chunk are handed out in place (no copy); only a sentence split across two chunks
/// is carried over in a small buffer that is allocated once. Bytes outside sentences are skipped and counted,
/// `#` comment lines are skipped, a sentence interrupted by a new `$`/`!` (two sentences spliced together) is
/// dropped, so is a sentence the input ends in before its line end, and a sentence longer than
/// ``maximumSentenceLength`` is dropped up to the end of its line or the next `$`/`!`, whichever comes first, with
/// the bytes after its first ``maximumSentenceLength`` counted as noise. u-blox UBX packets between sentences are
/// framed whole (``UBXPacketScanner``), as gpsd frames them, so that no byte of theirs is taken for a sentence; the
/// leap seconds they state go to the sink.
struct NMEAFramer: Sendable {
    /// The longest sentence accepted, from `$` through the checksum, without CR/LF: 102 bytes, as gpsd allows
    /// (real Trimble and SkyTraq sentences exceed the standard's 82).
    static let maximumSentenceLength = 102

    private enum State: Sendable {
        case idle, inSentence, skippingLine, comment, binary
    }

    private var state = State.idle
    private var atLineStart = true
    private var carry: [UInt8]
    private var binary = UBXPacketScanner()

    /// Framing counters: `sentences`, `tooLong`, `truncated`, `noiseBytes`, `comments`.
    var statistics = NMEAStatistics()

    init() {
        carry = []
        carry.reserveCapacity(Self.maximumSentenceLength + 2)
    }

    @inline(__always) private static func isEnd(_ c: UInt8) -> Bool { c == 0x0A || c == 0x0D }
    @inline(__always) private static func isStart(_ c: UInt8) -> Bool { c == 0x24 || c == 0x21 }

    /// Frames `chunk`, handing `sink` each complete sentence (from `$` to before the line end).
    @inline(__always)
    mutating func feed<Sink: NMEASentenceSink>(
        _ chunk: UnsafeRawBufferPointer, into sink: inout Sink, reports: inout some NMEAReportSink
    ) {
        guard let raw = chunk.baseAddress, chunk.count > 0 else { return }
        let p = raw.assumingMemoryBound(to: UInt8.self)
        let n = chunk.count
        let limit = Self.maximumSentenceLength
        var i = 0
        while i < n {
            switch state {
            case .inSentence:
                // Continue a sentence begun in an earlier chunk.
                var j = i
                let room = limit - carry.count
                while j < n, j - i <= room {
                    let c = p[j]
                    if Self.isEnd(c) || Self.isStart(c) { break }
                    j += 1
                }
                if j - i > room {
                    statistics.tooLong += 1
                    statistics.sentences += 1
                    carry.removeAll(keepingCapacity: true)
                    state = .skippingLine
                    i = j
                } else if j == n {
                    carry.append(contentsOf: UnsafeBufferPointer(start: p + i, count: j - i))
                    i = j
                } else if Self.isEnd(p[j]) {
                    carry.append(contentsOf: UnsafeBufferPointer(start: p + i, count: j - i))
                    statistics.sentences += 1
                    carry.withUnsafeBufferPointer { sink.sentence($0, reports: &reports) }
                    carry.removeAll(keepingCapacity: true)
                    state = .idle
                    i = j
                } else {
                    statistics.truncated += 1
                    statistics.sentences += 1
                    carry.removeAll(keepingCapacity: true)
                    state = .idle
                    i = j
                }
            case .skippingLine:
                // After an over-long sentence: the next line end or sentence start resynchronises (a receiver that
                // lost a line end still sends its next sentence), and what lies between is noise.
                let start = i
                while i < n, !Self.isEnd(p[i]), !Self.isStart(p[i]) { i += 1 }
                statistics.noiseBytes += i - start
                if i < n {
                    state = .idle
                    if Self.isEnd(p[i]) {
                        atLineStart = true
                        i += 1
                    }
                }
            case .binary:
                let (next, outcome) = binary.feed(p, from: i, count: n)
                i = next
                switch outcome {
                case .needsMore: break
                case .notAPacket:
                    statistics.noiseBytes += 1
                    state = .idle
                case .packet(let leapSeconds):
                    statistics.binaryPackets += 1
                    if let leapSeconds { sink.leapSeconds(leapSeconds) }
                    state = .idle
                case .dropped:
                    statistics.noiseBytes += binary.bytesRead
                    state = .idle
                }
            case .comment:
                while i < n, !Self.isEnd(p[i]) { i += 1 }
                if i < n {
                    state = .idle
                    atLineStart = true
                    i += 1
                }
            case .idle:
                let c = p[i]
                if Self.isStart(c) {
                    let taken = sink.lineSentence(at: p + i, available: n &- i, reports: &reports)
                    if taken != 0 {
                        // A plain line, decoded already: what the scan below would find, and its line end.
                        statistics.sentences += 1
                        atLineStart = true
                        i &+= taken &+ 1
                        if i < n && p[i] == 0x0A { i &+= 1 }
                        continue
                    }
                    atLineStart = false
                    var j = i + 1
                    let end = Swift.min(n, i + limit + 1)
                    // Eight bytes at a time (in bounds: j + 8 <= end <= n) to the first line end or sentence
                    // start; a candidate that is neither (a tab, a space ...) resumes the scan just after it.
                    while j &+ 8 <= end {
                        let candidates = NMEAWord.lineStopCandidates(NMEAWord.load(p + j))
                        if candidates != 0 {
                            j &+= candidates.trailingZeroBitCount &>> 3
                            let d = p[j]
                            if Self.isEnd(d) || Self.isStart(d) { break }
                            j &+= 1
                        } else {
                            j &+= 8
                        }
                    }
                    while j < end {
                        let d = p[j]
                        if Self.isEnd(d) || Self.isStart(d) { break }
                        j += 1
                    }
                    if j == end && end == n && j - i <= limit {
                        carry.append(contentsOf: UnsafeBufferPointer(start: p + i, count: j - i))
                        state = .inSentence
                        i = j
                    } else if j - i > limit {
                        statistics.tooLong += 1
                        statistics.sentences += 1
                        state = .skippingLine
                        i = j
                    } else if Self.isEnd(p[j]) {
                        statistics.sentences += 1
                        sink.sentence(UnsafeBufferPointer(start: p + i, count: j - i), reports: &reports)
                        i = j
                    } else {
                        statistics.truncated += 1
                        statistics.sentences += 1
                        i = j
                    }
                } else if Self.isEnd(c) {
                    atLineStart = true
                    i += 1
                } else if c == 0xB5 {
                    binary.begin()
                    state = .binary
                    atLineStart = false
                    i += 1
                } else if c == 0x23 && atLineStart {
                    statistics.comments += 1
                    state = .comment
                    i += 1
                } else {
                    if c != 0x20 && c != 0x09 { statistics.noiseBytes += 1 }
                    atLineStart = false
                    i += 1
                }
            }
        }
    }

    /// Ends the input: a last sentence without a line end is dropped and counted as truncated, as gpsd drops it. The
    /// input may have ended inside it (a dropped connection, a cut file), and a cut sentence without a checksum would
    /// decode to wrong values (`408` cut to `4`).
    mutating func finish() {
        if state == .binary {
            statistics.truncated += 1
        } else if state == .inSentence {
            statistics.truncated += 1
            statistics.sentences += 1
            carry.removeAll(keepingCapacity: true)
        }
        state = .idle
        atLineStart = true
    }
}

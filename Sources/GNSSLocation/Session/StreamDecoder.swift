import GNSSProtocol

/// The decoder a source's bytes go through: NMEA 0183, or gpsd's JSON protocol.
struct StreamDecoder: Sendable {
    /// What decoding produced, in stream order, with the raw sentences that the session cut out beside it.
    enum Output: Sendable {
        case fix(Fix)
        case sky(SkyView)
        case problem(String)
        case deviceGone(String)
        /// A raw NMEA sentence, for the subscribers that take them.
        case sentence([UInt8])

        init(_ event: NMEAEvent) {
            switch event {
            case .fix(let fix): self = .fix(fix)
            case .sky(let sky): self = .sky(sky)
            }
        }

        /// Whether this is a report from the receiver (a fix or a satellite view), which proves a connection healthy.
        var isReport: Bool {
            switch self {
            case .fix, .sky: true
            case .problem, .deviceGone, .sentence: false
            }
        }

        var time: Int64? {
            switch self {
            case .fix(let fix): fix.time?.millisecondsSince1970
            case .sky(let sky): sky.time?.millisecondsSince1970
            case .problem, .deviceGone, .sentence: nil
            }
        }

        mutating func shiftTime(by milliseconds: Int64) {
            switch self {
            case .fix(var fix):
                fix.time?.millisecondsSince1970 += milliseconds
                self = .fix(fix)
            case .sky(var sky):
                sky.time?.millisecondsSince1970 += milliseconds
                self = .sky(sky)
            case .problem, .deviceGone, .sentence: break
            }
        }
    }

    private var nmea: NMEADecoder?
    private var gpsd: GPSDStreamDecoder?
    /// gpsd only: the bytes received after the last line feed, i.e. the length of the line in progress.
    private var unterminatedByteCount = 0

    init(for source: LocationSource) {
        if case .gpsd = source {
            gpsd = GPSDStreamDecoder()
        } else {
            nmea = NMEADecoder(liveDevice: source.description)
        }
    }

    /// Prepares for the next connection to the same source. gpsd's protocol starts afresh. NMEA keeps what the
    /// decoder learnt (the date above all, so that a GGA before the connection's first RMC still has its time), as
    /// gpsd 3.22 keeps its session's NMEA state when it reopens a device: ``finish()`` already dropped the sentence
    /// the old connection cut short and reported its cycle.
    mutating func reconnect() {
        guard gpsd != nil else { return }
        gpsd = GPSDStreamDecoder()
        unterminatedByteCount = 0
    }

    /// How many bytes of `bytes`, the next chunk, count against the ``GarbageThrottle``'s allowance.
    ///
    /// NMEA: all of them. gpsd: all but the skipped middle of an over-long line, from its
    /// ``GNSSProtocol/GPSDLineFramer/defaultMaximumLineLength``th byte to its ``GarbageThrottle/freeLineLength``th:
    /// the framer drops those bytes without looking at them, so a long line is skipped at full read speed, and the
    /// fixes after it are not held back by a slowdown meant for input with no reports. A line that goes on past that
    /// is garbage like any other.
    func throttledByteCount(of bytes: [UInt8]) -> Int {
        guard gpsd != nil else { return bytes.count }
        let (limit, free) = (GPSDLineFramer.defaultMaximumLineLength, GarbageThrottle.freeLineLength)
        var lineLength = unterminatedByteCount
        var start = bytes.startIndex
        var skipped = 0
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.endIndex
            let (from, to) = (lineLength, lineLength + (end - start))
            skipped += max(0, min(to, free) - max(from, limit))
            lineLength = end < bytes.endIndex || bytes[end - 1] == UInt8(ascii: "\n") ? 0 : to
            start = end
        }
        return bytes.count - skipped
    }

    /// Decodes the next chunk; throws ``GPSDProtocolError`` when a gpsd connection is not speaking gpsd's protocol.
    mutating func decode(_ bytes: [UInt8]) throws(GPSDProtocolError) -> [Output] {
        var outputs: [Output] = []
        if nmea != nil {
            nmea?.feed(bytes) { outputs.append(Output($0)) }
        } else if let events = try gpsd?.receive(bytes) {
            if let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) {
                unterminatedByteCount = bytes.count - lastNewline - 1
            } else {
                unterminatedByteCount += bytes.count
            }
            for event in events {
                switch event {
                case .message(.tpv(let fix)): outputs.append(.fix(fix))
                case .message(.sky(let sky)): outputs.append(.sky(sky))
                case .message(.device(let device)) where device.activation == .inactive:
                    outputs.append(.deviceGone(device.path))
                case .message(.error(let message)): outputs.append(.problem("gpsd says: \(message)"))
                case .message: break
                case .invalidLine(let error): outputs.append(.problem("invalid line from gpsd: \(error)"))
                case .oversizedLine(let count):
                    outputs.append(.problem("gpsd sent a \(count)-byte line, over the limit; dropped it"))
                }
            }
        }
        return outputs
    }

    /// Flushes what the decoder holds at the end of the stream: the last NMEA cycle, or for gpsd a report of the
    /// line the connection cut short (gpsd ends every line, so a cut line is lost, never decoded).
    mutating func finish() -> [Output] {
        var outputs: [Output] = []
        nmea?.finish { outputs.append(Output($0)) }
        if gpsd != nil, unterminatedByteCount > 0 {
            let count = unterminatedByteCount
            let limit = GPSDLineFramer.defaultMaximumLineLength
            outputs.append(
                .problem(
                    count > limit
                        ? "gpsd sent a line of \(count) bytes without an end, over the \(limit)-byte limit; dropped it"
                        : "the connection ended in the middle of a line from gpsd (\(count) bytes); dropped it"))
            unterminatedByteCount = 0
        }
        return outputs
    }
}

extension StreamDecoder.Output {
    /// The connection's last problem once this output is delivered: a problem replaces it, a fix clears it.
    func problemAfter(_ previous: String?) -> String? {
        switch self {
        case .problem(let message): message
        case .deviceGone(let path): "gpsd reports that \(path) is gone"
        case .fix: nil
        case .sky, .sentence: previous
        }
    }
}

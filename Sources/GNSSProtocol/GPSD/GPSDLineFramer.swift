/// Splits a byte stream into lines, with a bounded line length.
///
/// Lines end at LF; one CR before the LF is removed (gpsd ends lines with CR LF). Empty lines are skipped. A line
/// longer than ``maximumLineLength`` is dropped, counted and reported as ``Output/oversized(byteCount:)`` when its
/// end arrives; the framer then resynchronises at that newline. The framer never holds more than
/// `maximumLineLength + 1` bytes, whatever it is fed.
public struct GPSDLineFramer: Sendable {
    /// gpsd's own limit on one JSON response, `GPS_JSON_RESPONSE_MAX`: 10,240 bytes.
    public static let defaultMaximumLineLength = 10_240

    /// What the framer found in the bytes it was given.
    public enum Output: Sendable, Hashable {
        /// A complete line, without its terminator.
        case line([UInt8])
        /// A line longer than the limit was dropped; `byteCount` is its length without the LF.
        case oversized(byteCount: Int)
    }

    /// The longest line, in bytes without the terminator, that is delivered.
    public let maximumLineLength: Int
    /// How many oversized lines have been dropped so far.
    public private(set) var droppedLineCount = 0
    private var buffer: [UInt8] = []
    private var discarding = false
    private var discardedCount = 0

    /// Creates a framer for lines of at most `maximumLineLength` bytes (at least 1).
    public init(maximumLineLength: Int = GPSDLineFramer.defaultMaximumLineLength) {
        self.maximumLineLength = max(1, maximumLineLength)
    }

    /// The bytes held for a line not yet terminated (at most `maximumLineLength + 1`).
    public var bufferedByteCount: Int { buffer.count }

    /// Feeds bytes and calls `body` with each line or oversize report they complete, in stream order.
    public mutating func append<E: Error>(
        _ chunk: some BidirectionalCollection<UInt8>, _ body: (Output) throws(E) -> Void
    ) throws(E) {
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let piece = chunk[start..<newline]
            start = chunk.index(after: newline)
            if discarding {
                let total = discardedCount + piece.count
                discarding = false
                discardedCount = 0
                droppedLineCount += 1
                try body(.oversized(byteCount: total))
                continue
            }
            let lastByte = piece.last ?? buffer.last
            let length = buffer.count + piece.count - (lastByte == UInt8(ascii: "\r") ? 1 : 0)
            if length > maximumLineLength {
                let total = buffer.count + piece.count
                buffer.removeAll(keepingCapacity: true)
                droppedLineCount += 1
                try body(.oversized(byteCount: total))
                continue
            }
            guard length > 0 else {
                buffer.removeAll(keepingCapacity: true)
                continue
            }
            var line = buffer
            line.append(contentsOf: piece)
            line.removeLast(line.count - length)
            buffer.removeAll(keepingCapacity: true)
            try body(.line(line))
        }
        let rest = chunk[start...]
        if discarding {
            discardedCount += rest.count
        } else if buffer.count + rest.count > maximumLineLength + 1 {
            discarding = true
            discardedCount = buffer.count + rest.count
            buffer = []
        } else {
            buffer.append(contentsOf: rest)
        }
    }

    /// Feeds bytes and returns the lines and oversize reports they complete, in stream order.
    public mutating func append(_ chunk: some BidirectionalCollection<UInt8>) -> [Output] {
        var outputs: [Output] = []
        append(chunk) { outputs.append($0) }
        return outputs
    }

    /// Ends the stream: returns the unterminated last line (or its oversize report), if any, and resets.
    public mutating func finish() -> Output? {
        defer {
            buffer = []
            discarding = false
            discardedCount = 0
        }
        if discarding {
            droppedLineCount += 1
            return .oversized(byteCount: discardedCount)
        }
        var line = buffer
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line.isEmpty ? nil : .line(line)
    }
}

/// Turns the bytes a gpsd connection delivers into messages: frames lines, decodes them, and checks the banner.
///
/// The first non-empty line must be a VERSION banner with a supported protocol; otherwise ``receive(_:)`` throws
/// a ``GPSDProtocolError`` and the connection should be closed. After that, bad and oversized lines are reported
/// as events and counted, never fatal.
public struct GPSDStreamDecoder: Sendable {
    private var framer: GPSDLineFramer
    /// The server's banner, once received.
    public private(set) var version: GPSDVersion?
    /// How many lines could not be decoded.
    public private(set) var invalidLineCount = 0

    /// Creates a decoder for a new connection.
    public init(maximumLineLength: Int = GPSDLineFramer.defaultMaximumLineLength) {
        framer = GPSDLineFramer(maximumLineLength: maximumLineLength)
    }

    /// How many oversized lines were dropped.
    public var droppedLineCount: Int { framer.droppedLineCount }

    /// Feeds the next bytes of the connection and returns what they complete, in stream order.
    public mutating func receive(_ chunk: some BidirectionalCollection<UInt8>) throws(GPSDProtocolError)
        -> [GPSDStreamEvent]
    {
        var events: [GPSDStreamEvent] = []
        var banner = version
        var invalidCount = invalidLineCount
        try framer.append(chunk) { (output) throws(GPSDProtocolError) in
            switch output {
            case .oversized(let count):
                if banner == nil { throw .missingVersionBanner(firstLine: "<\(count) bytes>") }
                events.append(.oversizedLine(byteCount: count))
            case .line(let line):
                let decoded: GPSDMessage
                do throws(GPSDDecodingError) {
                    decoded = try GPSDMessage(line: line)
                } catch {
                    if banner == nil { throw .missingVersionBanner(firstLine: Self.printable(line)) }
                    invalidCount += 1
                    events.append(.invalidLine(error))
                    return
                }
                if banner == nil {
                    guard case .version(let received) = decoded else {
                        throw .missingVersionBanner(firstLine: Self.printable(line))
                    }
                    try received.requireSupported()
                    banner = received
                }
                events.append(.message(decoded))
            }
        }
        version = banner
        invalidLineCount = invalidCount
        return events
    }

    /// The first 80 bytes of a line, non-printable bytes shown as `?`.
    private static func printable(_ line: [UInt8]) -> String {
        String(decoding: line.prefix(80).map { PrintableASCII.contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}

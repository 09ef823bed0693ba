/// A gpsd server this client cannot talk to: the connection, not one line, is at fault.
public enum GPSDProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server speaks a protocol major version older than ``GPSDVersion/minimumProtocolMajor``.
    case unsupportedProtocol(GPSDVersion)
    /// The first line was not a VERSION banner: the peer is probably not gpsd (an NMEA-over-TCP server, say).
    /// Carries a printable prefix of the line.
    case missingVersionBanner(firstLine: String)

    /// For example `gpsd 2.39 speaks protocol 2.5; this client needs protocol 3 or later`.
    public var description: String {
        switch self {
        case .unsupportedProtocol(let v):
            "gpsd \(v.release) speaks protocol \(v.protocolMajor).\(v.protocolMinor); this client needs protocol "
                + "\(GPSDVersion.minimumProtocolMajor) or later"
        case .missingVersionBanner(let line):
            "the server did not start with gpsd's VERSION banner (first line: \"\(line)\"); is it a gpsd?"
        }
    }
}

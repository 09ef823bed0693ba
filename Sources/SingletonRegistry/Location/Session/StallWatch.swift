/// Decides when a network source's silence means it stalled, arms the reader's idle timeout accordingly, and words
/// the reason.
///
/// gpsd: until its VERSION banner arrives, silence is a stall, and so is a banner still incomplete a whole timeout
/// after connecting. After the banner, a gpsd with no device (or whose device went away) legitimately says nothing,
/// so silence counts only once this connection has delivered a fix (until a DEVICE report says the device is gone)
/// or in the middle of a line, which gpsd always finishes. The reader is told only when that changes, so an idle
/// gpsd leaves its reader asleep in `poll(2)` with no timeout at all. NMEA over TCP: a server streams all the time,
/// so silence is a stall from the connect on. Other sources are never timed.
struct StallWatch: Sendable {
    /// How long a silence may last; `nil` for a source that is never timed.
    let timeout: Duration?
    private let name: String
    private let isGPSD: Bool
    private let connectedAt = ContinuousClock.now
    private var receivedAny = false
    /// gpsd: a fix came on this connection and no report since said the device is gone.
    private var expectsReports = false
    /// Whether the reader's idle timeout is set now.
    private var armed: Bool

    init(source: LocationSource, timeout: Duration?) {
        name = source.description
        switch source {
        case .gpsd:
            isGPSD = true
            self.timeout = timeout
        case .nmeaTCP:
            isGPSD = false
            self.timeout = timeout
        case .nmeaFile, .nmeaStandardInput, .nmeaSerial, .nmeaReplay:
            isGPSD = false
            self.timeout = nil
        }
        armed = self.timeout != nil
    }

    /// Takes note of one decoded output.
    mutating func note(_ output: StreamDecoder.Output) {
        switch output {
        case .fix: expectsReports = true
        case .deviceGone: expectsReports = false
        case .sky, .problem: break
        }
    }

    /// After a chunk was decoded: re-arms or disarms `reader`'s idle timeout when the phase changed, and returns a
    /// failure when gpsd's banner is overdue.
    mutating func update(after decoder: StreamDecoder, reader: ByteReader) -> String? {
        receivedAny = true
        guard isGPSD, let timeout else { return nil }
        if !decoder.receivedBanner, connectedAt.duration(to: .now) > timeout {
            return "\(name) sent no complete VERSION banner within \(Self.text(timeout)) after connecting (stalled)"
        }
        let wanted = !decoder.receivedBanner || expectsReports || decoder.isInsideLine
        if wanted != armed {
            armed = wanted
            reader.idleTimeout = wanted ? timeout : nil
        }
        return nil
    }

    /// Why the connection was given up after `silence` without a byte.
    func stallReason(_ silence: Duration) -> String {
        "\(name) sent nothing for \(Self.text(silence))\(receivedAny ? "" : " after connecting") (stalled)"
    }

    /// `10 s`, `200 ms`.
    static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        return "\(seconds * 1_000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}

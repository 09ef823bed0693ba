/// A streaming NMEA 0183 decoder that agrees with gpsd: bytes in, one ``Fix`` per fix cycle and ``SkyView``s out.
///
/// A value type with no isolation and no Foundation: feed it chunks of any size from whatever context owns it.
/// Complete sentences are parsed in place; once warmed up the decoder allocates nothing per sentence (a sky view
/// shares its satellite array with the decoder until one of them changes it).
///
/// Dates: RMC's two-digit year is read in the century of the last ZDA, else as 1980–2079; then, by default, a time
/// before 2017 is moved 1024 GPS weeks forward, as gpsd moves it (``WeekRolloverRule/gpsd``, for a receiver whose
/// week number rolled over). Decode a recording with ``WeekRolloverRule/asSent`` to keep its dates.
///
/// ```swift
/// var decoder = NMEADecoder()
/// decoder.feed(bytes) { event in print(event) }
/// decoder.finish { event in print(event) }
/// ```
public struct NMEADecoder: Sendable {
    private var framer = NMEAFramer()
    private var sentences: NMEASentenceDecoder

    /// Creates a decoder; `device` is copied into every fix and sky view (TPV/SKY `device`); `weekRollover` says
    /// what becomes of a date that may be 1024 weeks late: gpsd's correction, for a live receiver, unless told
    /// ``WeekRolloverRule/asSent``, for a recording.
    public init(device: String? = nil, weekRollover: WeekRolloverRule = .gpsd) {
        sentences = NMEASentenceDecoder(
            device: device, weekRollover: weekRollover, reportsFirstCycleEachSentence: false)
    }

    /// Creates a decoder that reports as the gpsd daemon does (`gpsdecode` does not): until the first cycle has
    /// ended, a fix after every sentence that sets a position or mode, so that a client has a position at once.
    package init(liveDevice device: String) {
        sentences = NMEASentenceDecoder(device: device, weekRollover: .gpsd, reportsFirstCycleEachSentence: true)
    }

    /// What the decoder has seen so far.
    public var statistics: NMEAStatistics {
        var s = sentences.counts
        let f = framer.statistics
        s.sentences = f.sentences
        s.tooLong = f.tooLong
        s.truncated = f.truncated
        s.noiseBytes = f.noiseBytes
        s.binaryPackets = f.binaryPackets
        s.comments = f.comments
        return s
    }

    /// Decodes `bytes`, calling `emit` for every fix and sky view they complete.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, emit: (NMEAEvent) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var reports = NMEAEventForwarder(emit: emit)
            framer.feed(bytes, into: &sentences, reports: &reports)
        }
    }

    /// Decodes a collection of bytes (`[UInt8]`, `ArraySlice<UInt8>`, `Data` ...).
    public mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes, emit: (NMEAEvent) -> Void) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            feed(UnsafeRawBufferPointer(buffer), emit: emit)
        }
        if done == nil {
            Array(bytes).withUnsafeBytes { feed($0, emit: emit) }
        }
    }

    /// Ends the input: drops a last sentence that lacks a line end (it may be cut, and gpsd drops it too) and
    /// reports the cycle in progress.
    public mutating func finish(emit: (NMEAEvent) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var reports = NMEAEventForwarder(emit: emit)
            finish(into: &reports)
        }
    }

    /// Decodes `bytes`, writing the gpsd JSON line of every fix and sky view they complete into `lines`.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer, writingTo lines: inout GPSDReportLines) {
        framer.feed(bytes, into: &sentences, reports: &lines)
    }

    /// Ends the input as ``finish(emit:)`` does, writing the last lines into `lines`.
    package mutating func finish(writingTo lines: inout GPSDReportLines) {
        finish(into: &lines)
    }

    private mutating func finish(into reports: inout some NMEAReportSink) {
        framer.finish()
        sentences.finish(reports: &reports)
    }

    /// Decodes a whole input at once as ``init(liveDevice:)``'s decoder does: every event in order, the last cycle
    /// included.
    package static func decode(_ bytes: [UInt8], liveDevice device: String) -> [NMEAEvent] {
        var decoder = NMEADecoder(liveDevice: device)
        var events: [NMEAEvent] = []
        decoder.feed(bytes) { events.append($0) }
        decoder.finish { events.append($0) }
        return events
    }

    /// Decodes a whole input at once: every event in order, the last cycle included, and the statistics.
    public static func decode(
        _ bytes: [UInt8], device: String? = nil, weekRollover: WeekRolloverRule = .gpsd
    ) -> (events: [NMEAEvent], statistics: NMEAStatistics) {
        var decoder = NMEADecoder(device: device, weekRollover: weekRollover)
        var events: [NMEAEvent] = []
        decoder.feed(bytes) { events.append($0) }
        decoder.finish { events.append($0) }
        return (events, decoder.statistics)
    }
}

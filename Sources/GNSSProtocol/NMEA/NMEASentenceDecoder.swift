/// Checks each framed sentence (printable bytes, `*HH` checksum, address) and hands it to its parser.
struct NMEASentenceDecoder: NMEASentenceSink, Sendable {
    /// Merges sentences into fixes and sky views.
    var cycle: CycleAssembler
    /// Per-sentence counters (`decoded`, `badChecksum`, `unsupported`, `malformed`); the event counts live in
    /// the assembler, which reports the events.
    private var tallies = NMEAStatistics()
    /// ``CommaPlaces/table``, kept so that a line's scan borrows its storage.
    private let commaPlaces = CommaPlaces.table

    /// Per-sentence counters (`decoded`, `badChecksum`, `unsupported`, `malformed`, `fixes`, `skyViews`).
    var counts: NMEAStatistics {
        var c = tallies
        c.fixes = cycle.fixesReported
        c.skyViews = cycle.skyViewsReported
        c.weekRolloverCorrections = cycle.clock.rolloverCorrections
        return c
    }

    init(device: String?, weekRollover: WeekRolloverRule, reportsFirstCycleEachSentence: Bool) {
        cycle = CycleAssembler(device: device, reportsFirstCycleEachSentence: reportsFirstCycleEachSentence)
        cycle.clock.weekRollover = weekRollover
    }

    @inline(__always)
    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c &- 0x30
        case 0x41...0x46: c &- 0x37
        case 0x61...0x66: c &- 0x57
        default: nil
        }
    }

    /// Reports the cycle in progress and a pending sky view at the end of the input.
    mutating func finish(reports: inout some NMEAReportSink) {
        cycle.finish(&reports)
    }

    /// Entries in the field table: enough for ``NMEAFields/capacity`` + 1, and for every comma
    /// ``NMEAWord/scanLine(_:available:limit:starts:)`` may record with the eight bytes it stores at once.
    static let tableSize = Swift.max(NMEAFields.capacity + 1, NMEAFramer.maximumSentenceLength + 14)

    mutating func sentence(_ s: UnsafeBufferPointer<UInt8>, reports: inout some NMEAReportSink) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.tableSize) { table in
            let starts = table.baseAddress!
            let p = s.baseAddress!
            let n = s.count
            // Only sentences that may be parsed (a known type, DBT, whose fields are counted, and the proprietary
            // families of the ones parsed) have their commas recorded: logs carry many unsupported sentences.
            let splitting =
                n >= 6 && p[0] == 0x24
                && (p[1] == 0x50
                    ? p[2] == 0x47 || p[2] == 0x53 || p[2] == 0x54  // $PGRME, $PSRFEPE, $PSTI, $PTNTHTM
                    : NMEASentenceType.from(p[3], p[4], p[5]) != nil || (p[3] == 0x44 && p[4] == 0x42 && p[5] == 0x54))
            let scanned =
                splitting
                ? NMEAWord.scanSentence(p, n, starts: starts)
                : NMEAWord.checkSentence(p, n)
            decode(s, scanned: scanned, starts: starts, reports: &reports)
        }
    }

    /// Keeps the leap seconds a u-blox packet stated for every fix from now on, as gpsd keeps them in its context.
    mutating func leapSeconds(_ seconds: Int) {
        cycle.fix.leapSeconds = seconds
    }

    mutating func lineSentence(
        at p: UnsafePointer<UInt8>, available: Int, reports: inout some NMEAReportSink
    ) -> Int {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.tableSize) { table in
            let starts = table.baseAddress!
            // Every line is split: recording the commas of one that is not parsed costs less than telling it apart.
            let scan = commaPlaces.withUnsafeBufferPointer { places in
                NMEAWord.scanLine(
                    p, available: available, limit: NMEAFramer.maximumSentenceLength, starts: starts,
                    places: places.baseAddress!)
            }
            guard let scanned = scan else { return 0 }
            let n = scanned.stop &+ 3
            decode(UnsafeBufferPointer(start: p, count: n), scanned: scanned, starts: starts, reports: &reports)
            return n
        }
    }

    /// Checks and parses sentence `s`, scanned into `scanned` and the field table `starts` (which only
    /// sentences that may be parsed need).
    @inline(__always)
    private mutating func decode(
        _ s: UnsafeBufferPointer<UInt8>, scanned: (stop: Int, sum: UInt8, count: Int),
        starts: UnsafeMutablePointer<UInt8>, reports: inout some NMEAReportSink
    ) {
        let p = s.baseAddress!
        let n = s.count
        let type = n >= 6 ? NMEASentenceType.from(p[3], p[4], p[5]) : nil
        let k = scanned.stop
        let sum = scanned.sum
        if k < n && p[k] != 0x2A {
            tallies.malformed += 1
            return
        }
        let bodyEnd = k
        if k < n {
            guard n - k >= 3, let hi = Self.hexValue(p[k + 1]), let lo = Self.hexValue(p[k + 2]) else {
                tallies.malformed += 1
                return
            }
            var t = k + 3
            while t < n, p[t] == 0x20 || p[t] == 0x09 { t += 1 }
            guard t == n else {
                tallies.malformed += 1
                return
            }
            guard hi << 4 | lo == sum else {
                tallies.badChecksum += 1
                return
            }
        }
        // Every `$` sentence that passes its checksum reaches gpsd's parser, which then forgets which talker sent the
        // last GSV and GSA: a proprietary sentence inside a GSV series starts the next series' view afresh.
        // (Sentences of a known type do so below, once the cycle they end has gone out.)
        if p[0] == 0x24 && (type == nil || p[1] == 0x50) { cycle.sky.forgetTalkers() }
        // Address: a two-letter talker and a three-letter type; `$P...` is proprietary, `!` is AIS.
        if p[0] == 0x24, p[1] == 0x50, bodyEnd >= 6,
            applyProprietary(p, bodyEnd, bodyEnd < n, scanned.count, starts, &reports)
        {
            tallies.decoded += 1
            cycle.sentenceDone(&reports)
            return
        }
        guard p[0] == 0x24, bodyEnd >= 6, p[1] != 0x50, bodyEnd == 6 || p[6] == 0x2C else {
            tallies.unsupported += 1
            // gpsd reports after any sentence it does not decode when in continuation mode.
            if p[0] == 0x24 && cycle.continuation { cycle.sentenceDone(&reports) }
            return
        }
        var fields = NMEAFields(base: p + 1, starts: starts, count: scanned.count)
        guard let type else {
            tallies.unsupported += 1
            // DBT (depth below transducer) is gpsd 3.22's cycle continuer when it has its 6 fields, counted as
            // gpsd does: the checksum's place is a field.
            if p[3] == 0x44, p[4] == 0x42, p[5] == 0x54,
                fields.count + (bodyEnd < n ? 1 : 0) >= 8
            {
                cycle.cycleContinuer()
                cycle.applyDBT(fields)
            }
            cycle.sentenceDone(&reports)
            return
        }
        // A time field that is not a time (`256161`, `12a519`, empty) cannot say which cycle the sentence belongs
        // to: the sentence is malformed, and neither starts a cycle nor joins the current one. (A GGA without a time
        // that says "no fix" is also gpsd's forced no-fix report, which the daemon sends.)
        if let timeField = type.timeField {
            guard let time = fields.timeOfDay(timeField) else {
                if type == .gga, fields.isEmpty(1), !fields.isEmpty(6), fields.leadingInt(6) == 0,
                    cycle.reportNoFixWithoutTime(&reports)
                {
                    tallies.decoded += 1
                    cycle.sentenceDone(&reports)
                    return
                }
                tallies.malformed += 1
                return
            }
            fields.time = time
        }
        if type != .gsv && type != .gsa {
            // A cycle that a timestamped sentence ends goes out before the view completed at its end: gpsd sends
            // that view when its last GSV arrives, after its last report of the cycle.
            if let timeOfDay = fields.time { cycle.reportBeforeCycle(startingAt: timeOfDay, &reports) }
            cycle.otherSentence(&reports)
        }
        let ok =
            switch type {
            case .gga: cycle.applyGGA(fields, reports: &reports)
            case .rmc: cycle.applyRMC(fields, reports: &reports)
            case .gll: cycle.applyGLL(fields, reports: &reports)
            case .gns: cycle.applyGNS(fields, reports: &reports)
            case .gsa: cycle.applyGSA(fields, talker: p[1], p[2])
            case .gsv: cycle.applyGSV(fields, talker: p[1], p[2], reports: &reports)
            case .vtg: cycle.applyVTG(fields)
            case .zda: cycle.applyZDA(fields, reports: &reports)
            case .gbs: cycle.applyGBS(fields, reports: &reports)
            case .psrfepe, .psti030: true
            case .hdg: cycle.applyHDG(fields)
            case .gst: cycle.applyGST(fields, reports: &reports)
            case .hdt: cycle.applyHDT(fields, reports: &reports)
            }
        cycle.sentenceDone(&reports)
        if ok { tallies.decoded += 1 } else { tallies.malformed += 1 }
    }

    /// Applies the proprietary sentences decoded (`$PSRFEPE`, `$PGRME`, `$PGRMF`, `$PSTI,030`, `$PTNTHTM`); false
    /// for others. `checked`: a checksum follows the body.
    private mutating func applyProprietary(
        _ p: UnsafePointer<UInt8>, _ bodyEnd: Int, _ checked: Bool, _ count: Int, _ starts: UnsafeMutablePointer<UInt8>,
        _ reports: inout some NMEAReportSink
    ) -> Bool {
        let fields = NMEAFields(base: p + 1, starts: starts, count: count)
        if bodyEnd >= 8, p[2] == 0x53, p[3] == 0x52, p[4] == 0x46, p[5] == 0x45, p[6] == 0x50, p[7] == 0x45 {
            cycle.applyPSRFEPE(fields, reports: &reports)
            return true
        }
        if bodyEnd >= 6, p[2] == 0x47, p[3] == 0x52, p[4] == 0x4D, p[5] == 0x45 || p[5] == 0x46,
            bodyEnd == 6 || p[6] == 0x2C
        {
            if p[5] == 0x45 { cycle.applyPGRME(fields) } else { cycle.applyPGRMF(fields) }
            return true
        }
        if bodyEnd >= 9, p[2] == 0x53, p[3] == 0x54, p[4] == 0x49, p[5] == 0x2C, p[6] == 0x30, p[7] == 0x33,
            p[8] == 0x30, bodyEnd == 9 || p[9] == 0x2C
        {
            cycle.applyPSTI030(fields, reports: &reports)
            return true
        }
        if bodyEnd >= 8, p[2] == 0x54, p[3] == 0x4E, p[4] == 0x54, p[5] == 0x48, p[6] == 0x54, p[7] == 0x4D,
            bodyEnd == 8 || p[8] == 0x2C
        {
            guard Attitude.isCompletePTNTHTM(fields, checked: checked) else { return false }
            var attitude = Attitude(ptnthtm: fields)
            attitude.device = cycle.device
            reports.attitude(attitude)
            return true
        }
        return false
    }
}

/// Checks each framed sentence (printable bytes, `*HH` checksum, address) and hands it to its parser.
struct NMEASentenceDecoder: NMEASentenceSink, Sendable {
    /// Merges sentences into fixes and sky views.
    var epoch: EpochAssembler
    /// Per-sentence counters (`decoded`, `badChecksum`, `unsupported`, `malformed`, `fixes`, `skyViews`).
    var counts = NMEAStatistics()

    init(device: String?) { epoch = EpochAssembler(device: device) }

    @inline(__always)
    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c &- 0x30
        case 0x41...0x46: c &- 0x37
        case 0x61...0x66: c &- 0x57
        default: nil
        }
    }

    /// Counts an event and passes it on.
    @inline(__always)
    mutating func count(_ event: NMEAEvent, _ emit: (NMEAEvent) -> Void) {
        switch event {
        case .fix: counts.fixes += 1
        case .sky: counts.skyViews += 1
        }
        emit(event)
    }

    /// Reports the cycle in progress and a pending sky view at the end of the input.
    mutating func finish(emit: (NMEAEvent) -> Void) {
        var e = epoch
        epoch = EpochAssembler(device: nil)
        e.finish { count($0, emit) }
        epoch = e
    }

    mutating func sentence(_ s: UnsafeBufferPointer<UInt8>, emit: (NMEAEvent) -> Void) {
        let p = s.baseAddress!
        let n = s.count
        var sum: UInt8 = 0
        var k = 1
        while k < n {
            let c = p[k]
            if c == 0x2A { break }
            if c < 0x20 || c > 0x7E {
                counts.malformed += 1
                return
            }
            sum ^= c
            k += 1
        }
        let bodyEnd = k
        if k < n {
            guard n - k >= 3, let hi = Self.hexValue(p[k + 1]), let lo = Self.hexValue(p[k + 2]) else {
                counts.malformed += 1
                return
            }
            var t = k + 3
            while t < n, p[t] == 0x20 || p[t] == 0x09 { t += 1 }
            guard t == n else {
                counts.malformed += 1
                return
            }
            guard hi << 4 | lo == sum else {
                counts.badChecksum += 1
                return
            }
        }
        // Address: a two-letter talker and a three-letter type; `$P...` is proprietary, `!` is AIS.
        guard p[0] == 0x24, bodyEnd >= 6, p[1] != 0x50, bodyEnd == 6 || p[6] == 0x2C else {
            counts.unsupported += 1
            return
        }
        var e = epoch
        epoch = Self.placeholder
        defer { epoch = e }
        guard let type = NMEASentenceType.from(p[3], p[4], p[5]) else {
            counts.unsupported += 1
            e.otherSentence { count($0, emit) }
            return
        }
        let fields = NMEAFields(UnsafeBufferPointer(start: p + 1, count: bodyEnd - 1))
        let system = NMEASatelliteNumbering.system(talker: p[1], p[2])
        if type != .gsv && type != .gsa { e.otherSentence { count($0, emit) } }
        let ok: Bool
        switch type {
        case .gga: ok = e.applyGGA(fields) { count($0, emit) }
        case .rmc: ok = e.applyRMC(fields) { count($0, emit) }
        case .gll: ok = e.applyGLL(fields) { count($0, emit) }
        case .gns: ok = e.applyGNS(fields) { count($0, emit) }
        case .gsa: ok = e.applyGSA(fields, system: system)
        case .gsv: ok = e.applyGSV(fields, system: system)
        case .vtg: ok = e.applyVTG(fields)
        case .zda: ok = e.applyZDA(fields) { count($0, emit) }
        }
        if ok { counts.decoded += 1 } else { counts.malformed += 1 }
    }

    private static let placeholder = EpochAssembler(device: nil)
}

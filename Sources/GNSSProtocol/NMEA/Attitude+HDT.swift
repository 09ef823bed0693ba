extension Attitude {
    /// The heading of HDT sentence `fields`, taken as gpsd 3.22 takes it: field 1, when present and within 0...360
    /// degrees; `nil` otherwise (gpsd then reports nothing).
    init?(hdt fields: NMEAFields) {
        guard let heading = fields.double(1), heading >= 0, heading <= 360 else { return nil }
        self.init()
        self.heading = heading
    }

    /// The heading of `sentence`, an HDT sentence that passed its checksum (`$--HDT,...*hh` and its line end), as
    /// the decoder reports it; `device` names the source. `nil` for any other sentence, or one without a heading.
    package init?(hdtSentence sentence: [UInt8], device: String?) {
        var n = sentence.count
        while n > 0, sentence[n - 1] == 0x0A || sentence[n - 1] == 0x0D { n -= 1 }
        guard n >= 7, n <= NMEAFramer.maximumSentenceLength, sentence[0] == 0x24, sentence[3] == 0x48,
            sentence[4] == 0x44, sentence[5] == 0x54, sentence[6] == 0x2C
        else { return nil }
        let parsed = sentence.withUnsafeBufferPointer { buffer in
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: NMEASentenceDecoder.tableSize) { table in
                let p = buffer.baseAddress!
                let scanned = NMEAWord.scanSentence(p, n, starts: table.baseAddress!)
                return Self(hdt: NMEAFields(base: p + 1, starts: table.baseAddress!, count: scanned.count))
            }
        }
        guard var attitude = parsed else { return nil }
        attitude.device = device
        self = attitude
    }
}

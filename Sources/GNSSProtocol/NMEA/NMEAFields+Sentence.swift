extension NMEAFields {
    /// Calls `body` with the fields of `sentence`, a whole sentence that passed its checksum (`$--XYZ,...*hh` and its
    /// line end) whose type is the three letters `type`; `nil`, without calling it, for any other sentence.
    static func reading<T>(
        _ sentence: [UInt8], type: (UInt8, UInt8, UInt8), _ body: (NMEAFields) -> T
    ) -> T? {
        withBody(of: sentence) { n in
            n >= 7 && sentence[3] == type.0 && sentence[4] == type.1 && sentence[5] == type.2 && sentence[6] == 0x2C
        } _: { fields, _ in
            body(fields)
        }
    }

    /// Calls `body` with the fields of `sentence`, a whole proprietary sentence that passed its checksum, whose
    /// address is `address` (`PTNTHTM`), and whether a checksum ends it; `nil`, without calling it, for any other.
    static func reading<T>(
        _ sentence: [UInt8], proprietary address: [UInt8], _ body: (NMEAFields, Bool) -> T
    ) -> T? {
        let a = address.count
        return withBody(of: sentence) { n in
            n >= a + 2 && sentence[1...a].elementsEqual(address) && sentence[a + 1] == 0x2C
        } _: { fields, checked in
            body(fields, checked)
        }
    }

    /// The scan both readings share: `sentence` without its line end, `$` first and at most
    /// ``NMEAFramer/maximumSentenceLength`` bytes long, whose length `accepts`, split into fields for `body`, with
    /// whether a checksum ends it; `nil` for any other.
    private static func withBody<T>(
        of sentence: [UInt8], accepting accepts: (Int) -> Bool, _ body: (NMEAFields, Bool) -> T
    ) -> T? {
        var n = sentence.count
        while n > 0, sentence[n - 1] == 0x0A || sentence[n - 1] == 0x0D { n -= 1 }
        guard n > 0, n <= NMEAFramer.maximumSentenceLength, sentence[0] == 0x24, accepts(n) else { return nil }
        return sentence.withUnsafeBufferPointer { buffer in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: NMEASentenceDecoder.tableSize) { table in
                let p = buffer.baseAddress!
                let scanned = NMEAWord.scanSentence(p, n, starts: table.baseAddress!)
                return body(NMEAFields(base: p + 1, starts: table.baseAddress!, count: scanned.count), scanned.stop < n)
            }
        }
    }
}

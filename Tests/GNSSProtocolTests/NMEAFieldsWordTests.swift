import TestSupport
import Testing

@testable import GNSSProtocol

/// The number fields read eight bytes at a time give, bit for bit, what reading them byte by byte gives, for every
/// field they accept: numbers and angles of every length and shape near the ones they take, placed first and last in
/// a sentence.
@Suite struct NMEAFieldsWordTests {
    /// Fields of digits, points, signs and other bytes, 0 to 12 bytes long, from a fixed seed.
    static func fields() -> [String] {
        var generator = SplitMix64(seed: 0x5EED_F1E1_D5)
        let alphabet = Array("0123456789") + Array("0123456789.") + ["-", "+", "E", " ", "/", ":"]
        var out = [
            "", ".", "-", "+", "-.", "0", "-0", "5.", ".5", "4807.038", "01131.000", "12345678", "1234.5678",
            "123456.78", "0.000000001", "9999999.9", "-12345.67", "5050.41262", "00420.82281",
        ]
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 13)
            let digitsOnly = generator.next() % 2 == 0
            out.append(
                String(
                    (0..<length).map { _ in
                        digitsOnly
                            ? alphabet[Int(generator.next() % 21)]
                            : alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    }))
        }
        return out
    }

    /// The sentences `field` is read in: as the first field after the address and as the last before the checksum.
    static func sentences(_ field: String) -> [(sentence: [UInt8], index: Int)] {
        [("GPGGA,\(field),N", 1), ("GPGGA,1,2,\(field)", 3)].map { body, index in
            (Array(NMEAChecksum.sentence(body).utf8), index)
        }
    }

    /// How many generated fields, in each of their sentences, `words` reads (the rest it leaves to the byte-by-byte
    /// reading); each value it gives is expected to equal `bytes`'s to the bit.
    static func accepted(
        words: (NMEAFields, Int, Int) -> Double?, bytes: (NMEAFields, Int, Int) -> Double?
    ) -> Int {
        var accepted = 0
        for field in fields() {
            for (sentence, index) in sentences(field) {
                let checked: Bool? = NMEAFields.reading(sentence, type: (0x47, 0x47, 0x41)) { fields in
                    let (s, e) = fields.range(index)
                    guard let value = words(fields, s, e) else { return false }
                    #expect(value.bitPattern == bytes(fields, s, e)?.bitPattern, "field \(field)")
                    return true
                }
                if checked == true { accepted += 1 }
            }
        }
        return accepted
    }

    @Test func doublesReadByWordsEqualTheByteByByteReading() {
        let accepted = Self.accepted(
            words: { $0.wordDouble($1, $2) }, bytes: { NMEAFields.parseDouble($0.base, $1, $2) })
        // The shapes the word reading is for are most of the generated fields with a digit: it must take them.
        #expect(accepted > 10_000)
    }

    @Test func anglesReadByWordsEqualTheByteByByteReading() {
        let accepted = Self.accepted(
            words: { $0.wordDegreesMinutes($1, $2) }, bytes: { $0.byteDegreesMinutes($1, $2) })
        #expect(accepted > 1_000)
    }
}

/// The NMEA 0183 checksum, and sentences framed with it: for code that writes NMEA (the daemon's demo track,
/// generators, test fixtures).
public enum NMEAChecksum {
    /// The XOR of `body`, the bytes between `$` and `*`.
    public static func of(_ body: some Sequence<UInt8>) -> UInt8 {
        body.reduce(0, ^)
    }

    /// Appends `$BODY*HH` to `out`, then CR LF unless `lineEnd` is false; `lowercase` writes the hex digits in
    /// lower case, as some receivers do.
    public static func appendSentence(
        _ body: String, lowercase: Bool = false, lineEnd: Bool = true, to out: inout [UInt8]
    ) {
        let sum = of(body.utf8)
        let digits = lowercase ? lowercaseDigits : uppercaseDigits
        out.append(UInt8(ascii: "$"))
        out.append(contentsOf: body.utf8)
        out.append(UInt8(ascii: "*"))
        out.append(digits[Int(sum >> 4)])
        out.append(digits[Int(sum & 0x0F)])
        if lineEnd { out += [0x0D, 0x0A] }
    }

    /// `$BODY*HH`, then CR LF unless `lineEnd` is false.
    public static func sentence(_ body: String, lowercase: Bool = false, lineEnd: Bool = true) -> String {
        var out: [UInt8] = []
        appendSentence(body, lowercase: lowercase, lineEnd: lineEnd, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static let uppercaseDigits = Array("0123456789ABCDEF".utf8)
    private static let lowercaseDigits = Array("0123456789abcdef".utf8)
}

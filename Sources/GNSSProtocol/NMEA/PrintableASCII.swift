/// Printable ASCII, `0x20...0x7E`: the only bytes an NMEA sentence may hold (a relayed sentence with any other is
/// dropped), and the only ASCII bytes a log line shows as they are.
///
/// A terminal takes the others for commands: `ESC ] 0 ; … BEL` retitles the window, `ESC [ 2 J` clears the screen,
/// and a NUL cuts the line for some readers. ``appendEscaped(_:to:)`` writes them as text instead.
package enum PrintableASCII {
    /// Whether `byte` is printable ASCII.
    @inlinable
    package static func contains(_ byte: UInt8) -> Bool { byte >= 0x20 && byte <= 0x7E }

    /// Appends `text` as UTF-8 to `out`, a line end (`\n`, `\r`) as a space and every other control character as
    /// its code: a C0 control or DEL as `\x1B`, a C1 control (U+0080 to U+009F, which some terminals obey too) as
    /// `\u009B`. Printable ASCII and every other character are kept.
    package static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80, contains(UInt8(value)) {
                out.append(UInt8(value))
            } else if value == 0x0A || value == 0x0D {
                out.append(UInt8(ascii: " "))
            } else if value < 0x80 {
                out.append(contentsOf: "\\x".utf8)
                appendHex(value, digits: 2, to: &out)
            } else if value <= 0x9F {
                out.append(contentsOf: "\\u".utf8)
                appendHex(value, digits: 4, to: &out)
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
    }

    /// Appends `value` in `digits` upper-case hexadecimal digits.
    private static func appendHex(_ value: UInt32, digits: Int, to out: inout [UInt8]) {
        for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
            let digit = UInt8((value >> UInt32(shift)) & 0xF)
            out.append(digit < 10 ? 0x30 + digit : 0x41 + digit - 10)
        }
    }
}

import GNSSProtocol

/// One request a gpsd client sends the listener, as ``next(in:)`` reads it from the client's bytes.
///
/// gpsd's grammar: `?NAME;` or `?NAME=` followed by one JSON object and an optional `;`; several requests may share
/// a line, and whitespace, newlines and stray `;` between them are skipped. Anything that does not start with `?`
/// is an unrecognized request up to the end of its line.
package enum GPSDClientRequest: Sendable, Hashable {
    /// `?WATCH;` (no change) or `?WATCH={...}`: the members the client set.
    case watch(GPSDWatchChange)
    /// `?POLL;`.
    case poll
    /// `?DEVICES;`.
    case devices
    /// `?DEVICE;`: the current device. `?DEVICE={...}` (configuration) is an ``error(_:)``.
    case device
    /// `?VERSION;`.
    case version
    /// A request the listener answers with gpsd's `ERROR` object carrying this message.
    case error(String)

    /// The longest request name read; a longer one is unrecognized.
    static let maximumNameLength = 16

    /// Reads the first request of `bytes`: the request and how many bytes it took (the whitespace before it
    /// included), or `nil` when `bytes` holds only whitespace or the start of a request whose end has not come yet.
    ///
    /// It never reads a byte twice and needs no more memory than the request: bad input gives an ``error(_:)``.
    package static func next(in bytes: ArraySlice<UInt8>) -> (request: GPSDClientRequest, consumed: Int)? {
        var index = bytes.startIndex
        while index < bytes.endIndex, isSkipped(bytes[index]) { index += 1 }
        guard index < bytes.endIndex else { return nil }
        let start = index
        guard bytes[index] == UInt8(ascii: "?") else { return unrecognized(bytes, from: start) }
        index += 1
        let nameStart = index
        while index < bytes.endIndex, index - nameStart <= maximumNameLength, isLetter(bytes[index]) { index += 1 }
        guard index < bytes.endIndex else { return nil }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        switch bytes[index] {
        case UInt8(ascii: ";"), 0x0A, 0x0D:
            return (simple(name, text: bytes[start...index]), index + 1 - bytes.startIndex)
        case UInt8(ascii: "="):
            guard let end = objectEnd(bytes, from: index + 1) else { return nil }
            guard case .found(let close) = end else {
                guard case .malformed(let lineEnd) = end else { return nil }
                return (.error("Invalid \(name): not a JSON object"), lineEnd + 1 - bytes.startIndex)
            }
            var consumed = close + 1
            if consumed < bytes.endIndex, bytes[consumed] == UInt8(ascii: ";") { consumed += 1 }
            return (withObject(name, bytes[(index + 1)...close]), consumed - bytes.startIndex)
        default:
            return unrecognized(bytes, from: start)
        }
    }

    /// How many bytes at the start of `bytes` are whitespace, newlines or `;` between requests: what a reader drops
    /// when ``next(in:)`` finds no request, so that blank lines never pile up.
    package static func separators(in bytes: ArraySlice<UInt8>) -> Int {
        bytes.prefix(while: isSkipped).count
    }

    /// The request `?name;`.
    private static func simple(_ name: String, text: ArraySlice<UInt8>) -> GPSDClientRequest {
        switch name {
        case "WATCH": .watch(GPSDWatchChange())
        case "POLL": .poll
        case "DEVICES": .devices
        case "DEVICE": .device
        case "VERSION": .version
        default: .error("Unrecognized request '\(printable(text))'")
        }
    }

    /// The request `?name=object`.
    private static func withObject(_ name: String, _ object: ArraySlice<UInt8>) -> GPSDClientRequest {
        switch name {
        case "WATCH":
            do throws(GPSDWatchChangeError) {
                return .watch(try GPSDWatchChange(parsing: object))
            } catch {
                return .error("Invalid WATCH: \(error.message)")
            }
        case "DEVICE": return .error("?DEVICE= configuration is not supported by singletond")
        case "POLL", "DEVICES", "VERSION": return .error("Invalid \(name): takes no arguments")
        default: return .error("Unrecognized request '?\(printable(ArraySlice(name.utf8)))='")
        }
    }

    /// An unrecognized request from `start` to the end of its line; `nil` while the line has no end yet.
    private static func unrecognized(
        _ bytes: ArraySlice<UInt8>, from start: Int
    ) -> (request: GPSDClientRequest, consumed: Int)? {
        guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return nil }
        return (.error("Unrecognized request '\(printable(bytes[start..<newline]))'"), newline + 1 - bytes.startIndex)
    }

    /// Where the JSON object that starts at `start` ends.
    private enum ObjectEnd {
        /// At this index, its closing brace.
        case found(Int)
        /// It is not an object, or its line ends (at this index) before it does.
        case malformed(lineEnd: Int)
    }

    /// Finds the end of the object at `start` by its braces outside strings; `nil` while it has not arrived.
    private static func objectEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> ObjectEnd? {
        guard start < bytes.endIndex else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        var index = start
        if bytes[index] != UInt8(ascii: "{") {
            guard let newline = bytes[index...].firstIndex(of: 0x0A) else { return nil }
            return .malformed(lineEnd: newline)
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0A { return .malformed(lineEnd: index) }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return .found(index) }
            }
            index += 1
        }
        return nil
    }

    /// At most 64 bytes of `text` for an error message, control bytes and non-ASCII shown as `\xNN`.
    static func printable(_ text: ArraySlice<UInt8>) -> String {
        var out = ""
        for byte in text.prefix(64) {
            if byte >= 0x20, byte < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else if byte == 0x0A {
                out += "\\n"
            } else {
                let hex = String(byte, radix: 16)
                out += "\\x" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return text.count > 64 ? out + "..." : out
    }

    private static func isSkipped(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ";")
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
    }
}

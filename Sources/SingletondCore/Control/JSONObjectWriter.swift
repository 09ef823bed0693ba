import GNSSProtocol

/// Builds one JSON object as bytes, member by member, for the daemon's own reports (STATUS, SURVEY, ERROR).
///
/// Numbers and strings are written by ``GNSSProtocol/GPSDJSONWriter``, so they look like gpsd's.
package struct JSONObjectWriter: Sendable {
    /// The bytes so far; ``finish(newline:)`` closes the object.
    package private(set) var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var empty = true

    /// Starts an object.
    package init() {}

    private mutating func key(_ name: String) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        GPSDJSONWriter.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Adds a string member.
    package mutating func string(_ name: String, _ value: String) {
        key(name)
        GPSDJSONWriter.appendString(value, to: &bytes)
    }

    /// Adds an integer member.
    package mutating func int(_ name: String, _ value: Int) {
        key(name)
        GPSDJSONWriter.appendInt(value, to: &bytes)
    }

    /// Adds a number member with `decimals` digits after the point; a non-finite or absent value is `null`.
    package mutating func number(_ name: String, _ value: Double?, decimals: Int) {
        key(name)
        if let value, value.isFinite {
            GPSDJSONWriter.appendFixed(value, decimals: decimals, to: &bytes)
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
    }

    /// Adds a boolean member.
    package mutating func bool(_ name: String, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Adds a `null` member.
    package mutating func null(_ name: String) {
        key(name)
        bytes.append(contentsOf: "null".utf8)
    }

    /// Adds a member whose value is already-encoded JSON.
    package mutating func raw(_ name: String, _ json: [UInt8]) {
        key(name)
        bytes.append(contentsOf: json)
    }

    /// Adds an object member built by `build`.
    package mutating func object(_ name: String, _ build: (inout JSONObjectWriter) -> Void) {
        var inner = JSONObjectWriter()
        build(&inner)
        raw(name, inner.finish(newline: false))
    }

    /// The finished object, with a trailing newline when `newline` is set.
    package func finish(newline: Bool = true) -> [UInt8] {
        var out = bytes
        out.append(UInt8(ascii: "}"))
        if newline { out.append(0x0A) }
        return out
    }

    /// `{"class":"ERROR","message":...}` and a newline: gpsd's error report.
    package static func error(_ message: String) -> [UInt8] {
        var writer = JSONObjectWriter()
        writer.string("class", "ERROR")
        writer.string("message", message)
        return writer.finish()
    }
}

/// A request a client sends to gpsd, as the bytes to write.
public enum GPSDRequest: Sendable, Hashable {
    /// `?WATCH={"enable":true,"json":true}` (optionally restricted to one device) starts the JSON stream;
    /// `?WATCH={"enable":false}` stops it.
    case watch(enable: Bool, device: String? = nil)
    /// `?VERSION;` asks for the banner again.
    case version
    /// `?DEVICES;` asks for the device list.
    case devices
    /// `?POLL;` asks for the latest fix of every device at once.
    case poll

    /// `?WATCH={"enable":true,"json":true}\n`: what a client sends to start receiving TPV and SKY reports.
    public static let enableWatch: [UInt8] = GPSDRequest.watch(enable: true).bytes
    /// `?WATCH={"enable":false}\n`: what a client sends to stop the stream.
    public static let disableWatch: [UInt8] = GPSDRequest.watch(enable: false).bytes

    /// The request as gpsd expects it, ending with a newline.
    ///
    /// Send each request in its own write: gpsd 3.22 answers an unknown request with an ERROR that swallows
    /// every request that came with it in the same read.
    public var bytes: [UInt8] { Array(text.utf8) }

    /// The request as text, ending with a newline.
    public var text: String {
        switch self {
        case .watch(true, nil): "?WATCH={\"enable\":true,\"json\":true}\n"
        case .watch(true, let device?): "?WATCH={\"enable\":true,\"json\":true,\"device\":\(Self.quoted(device))}\n"
        case .watch(false, nil): "?WATCH={\"enable\":false}\n"
        case .watch(false, let device?): "?WATCH={\"enable\":false,\"device\":\(Self.quoted(device))}\n"
        case .version: "?VERSION;\n"
        case .devices: "?DEVICES;\n"
        case .poll: "?POLL;\n"
        }
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

import GNSSProtocol

/// One request to the control socket: a JSON object on one line, named by its `cmd` member.
package enum ControlRequest: Sendable, Hashable {
    /// `{"cmd":"status"}`: the registry's managers, the location state and last fix, the task state.
    case status
    /// `{"cmd":"fix"}`: the last TPV.
    case fix
    /// `{"cmd":"watch"}`: a TPV line per fix until the client leaves; `"enable":false` stops it.
    case watch(enable: Bool)
    /// `{"cmd":"survey","seconds":N}`: a position survey of N seconds (the daemon's default when absent).
    case survey(seconds: Double?)
    /// `{"cmd":"cancel"}`: cancels the running survey.
    case cancel

    /// The commands, for error messages.
    package static let commands = ["status", "fix", "watch", "survey", "cancel"]

    /// Parses one request line (without its newline).
    ///
    /// - Throws: ``ControlRequestError`` with a message for the client's `ERROR` reply.
    package static func parse(_ line: some Collection<UInt8>) throws(ControlRequestError) -> ControlRequest {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line, maximumDepth: 4)
        } catch {
            throw ControlRequestError("not a JSON request: \(error)")
        }
        guard case .object(let members) = value else {
            throw ControlRequestError("a request is a JSON object such as {\"cmd\":\"status\"}")
        }
        guard let cmd = value["cmd"] else { throw ControlRequestError("the request has no \"cmd\"") }
        guard let name = cmd.stringValue else { throw ControlRequestError("\"cmd\" must be a string") }
        let allowed: Set<String>
        let request: ControlRequest
        switch name {
        case "status":
            (allowed, request) = (["cmd"], .status)
        case "fix":
            (allowed, request) = (["cmd"], .fix)
        case "cancel":
            (allowed, request) = (["cmd"], .cancel)
        case "watch":
            var enable = true
            if let member = value["enable"] {
                guard let flag = member.boolValue else { throw ControlRequestError("\"enable\" must be true or false") }
                enable = flag
            }
            (allowed, request) = (["cmd", "enable"], .watch(enable: enable))
        case "survey":
            var seconds: Double?
            if let member = value["seconds"], member != .null {
                guard let number = member.doubleValue, number > 0, number <= RunOptions.maximumSurveySeconds else {
                    throw ControlRequestError(
                        "\"seconds\" must be a number of seconds between 0 and \(Int(RunOptions.maximumSurveySeconds))")
                }
                seconds = number
            }
            (allowed, request) = (["cmd", "seconds"], .survey(seconds: seconds))
        default:
            throw ControlRequestError(
                "unknown command \"\(name.prefix(64))\"; known: \(commands.joined(separator: ", "))")
        }
        if let extra = members.first(where: { !allowed.contains($0.key) }) {
            throw ControlRequestError("\"\(name)\" takes no member \"\(extra.key.prefix(64))\"")
        }
        return request
    }

    /// The request as one JSON line, as ``ControlClient`` sends it.
    package var line: [UInt8] {
        var writer = JSONObjectWriter()
        switch self {
        case .status: writer.string("cmd", "status")
        case .fix: writer.string("cmd", "fix")
        case .cancel: writer.string("cmd", "cancel")
        case .watch(let enable):
            writer.string("cmd", "watch")
            if !enable { writer.bool("enable", false) }
        case .survey(let seconds):
            writer.string("cmd", "survey")
            if let seconds { writer.number("seconds", seconds, decimals: 3) }
        }
        return writer.finish()
    }
}

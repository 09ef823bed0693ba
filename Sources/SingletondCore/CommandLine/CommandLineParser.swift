/// Reads a `singletond` command line into a ``SingletondCommand``.
///
/// A pure function of the arguments: no environment, no file system, so it can be tested and fuzzed alone.
/// Options take their value as the next argument or after `=` (`--output=x.json`).
package enum CommandLineParser {
    /// Parses `arguments` (without the program name).
    ///
    /// `--help` (or `-h`) and `--version` win wherever they stand, as in `singletond run --gpsd --help`, except
    /// after `decode`, which reads its own arguments.
    ///
    /// - Throws: ``UsageError`` naming the first argument that is wrong.
    package static func parse(_ arguments: [String]) throws(UsageError) -> SingletondCommand {
        guard let first = arguments.first else { return .run(RunOptions()) }
        let rest = Array(arguments.dropFirst())
        if first != "decode" {
            if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) { return .help }
            if arguments.contains("--version") { return .version }
        }
        switch first {
        case "run": return .run(try parseRun(rest))
        case "status": return .status(try parseClient(rest, command: first, allowsSeconds: false).options)
        case "watch": return .watch(try parseClient(rest, command: first, allowsSeconds: false).options)
        case "cancel": return .cancel(try parseClient(rest, command: first, allowsSeconds: false).options)
        case "survey":
            let parsed = try parseClient(rest, command: first, allowsSeconds: true)
            return .survey(seconds: parsed.seconds, parsed.options)
        case "decode": return .decode(rest)
        case "help":
            guard rest.isEmpty else { throw UsageError("unexpected argument '\(rest[0])' after \(first)") }
            return .help
        default:
            if first.hasPrefix("-") { return .run(try parseRun(arguments)) }
            throw UsageError("unknown command '\(first)'")
        }
    }

    /// Splits `--name=value` into its parts; other arguments have no inline value.
    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func parseRun(_ arguments: [String]) throws(UsageError) -> RunOptions {
        var options = RunOptions()
        var source: SourceOption?
        var baud: Int?
        var seen: Set<String> = []
        var index = 0

        func value(for name: String, inline: String?) throws(UsageError) -> String {
            if let inline {
                guard !inline.isEmpty else { throw UsageError("\(name) needs a value") }
                return inline
            }
            guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
                throw UsageError("\(name) needs a value")
            }
            index += 1
            return arguments[index]
        }
        func setSource(_ new: SourceOption, _ name: String) throws(UsageError) {
            guard source == nil else { throw UsageError("\(name): only one source can be given") }
            source = new
        }

        while index < arguments.count {
            let (name, inline) = split(arguments[index])
            if name.hasPrefix("--") {
                guard seen.insert(name).inserted || ["--gpsd", "--nmea", "--nmea-tcp", "--demo"].contains(name)
                else { throw UsageError("\(name) given twice") }
            }
            switch name {
            case "--gpsd":
                var address = inline
                if address == nil, index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") {
                    index += 1
                    address = arguments[index]
                }
                if let address {
                    let (host, port) = try parseAddress(address, option: name, defaultPort: 2947)
                    try setSource(.gpsd(host: host, port: port), name)
                } else {
                    try setSource(.gpsd(host: "127.0.0.1", port: 2947), name)
                }
            case "--nmea":
                try setSource(.nmea(path: try value(for: name, inline: inline), baud: nil), name)
            case "--nmea-tcp":
                let (host, port) = try parseAddress(
                    try value(for: name, inline: inline), option: name, defaultPort: nil)
                try setSource(.nmeaTCP(host: host, port: port), name)
            case "--demo":
                guard inline == nil else { throw UsageError("--demo takes no value") }
                try setSource(.demo, name)
            case "--baud":
                let text = try value(for: name, inline: inline)
                guard let rate = Int(text), (50...4_000_000).contains(rate) else {
                    throw UsageError("--baud: '\(text)' is not a serial speed")
                }
                baud = rate
            case "--control":
                options.control = try value(for: name, inline: inline)
            case "--replay-speed":
                let text = try value(for: name, inline: inline)
                guard let speed = Double(text), speed >= 0.001, speed <= 1_000 else {
                    throw UsageError("--replay-speed: '\(text)' is not a speed between 0.001 and 1000")
                }
                options.replaySpeed = speed
            case "--listen":
                let text = try value(for: name, inline: inline)
                guard let address = ListenAddress(parsing: text) else {
                    throw UsageError("--listen: '\(text)' is not [HOST:]PORT with an IPv4 HOST and a port 1-65535")
                }
                options.listen = address
            case "--output":
                options.output = try value(for: name, inline: inline)
            case "--log-level":
                let text = try value(for: name, inline: inline)
                guard let level = LogLevel(name: text) else {
                    throw UsageError("--log-level: '\(text)' is not one of trace, debug, info, notice, warning, error")
                }
                options.logLevel = level
            case "--survey-seconds":
                options.surveySeconds = try parseSeconds(try value(for: name, inline: inline), option: name)
            case "--stop-timeout":
                let seconds = try parseSeconds(
                    try value(for: name, inline: inline), option: name, maximum: RunOptions.maximumStopSeconds)
                options.stopTimeout = .milliseconds(Int64((seconds * 1_000).rounded(.up)))
            case "-":
                throw UsageError("unexpected argument '-' (did you mean --nmea -?)")
            default:
                if name.hasPrefix("-") { throw UsageError("unknown option '\(name)'") }
                throw UsageError("unexpected argument '\(name)'")
            }
            index += 1
        }
        if case .nmea(let path, _) = source, let baud {
            guard path != "-" else { throw UsageError("--baud needs a serial device, not standard input") }
            source = .nmea(path: path, baud: baud)
        } else if baud != nil {
            throw UsageError("--baud only goes with --nmea PATH")
        }
        options.source = source ?? .demo
        if options.replaySpeed != nil {
            guard case .nmea(let path, nil) = options.source, path != "-" else {
                throw UsageError("--replay-speed only goes with --nmea FILE")
            }
        }
        return options
    }

    private static func parseClient(
        _ arguments: [String], command: String, allowsSeconds: Bool
    ) throws(UsageError) -> (options: ClientOptions, seconds: Double?) {
        var control: String?
        var timeout: Duration?
        var seconds: Double?
        var index = 0
        while index < arguments.count {
            let (name, inline) = split(arguments[index])
            switch name {
            case "--control":
                guard control == nil else { throw UsageError("--control given twice") }
                if let inline, !inline.isEmpty {
                    control = inline
                } else if inline == nil, index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") {
                    index += 1
                    control = arguments[index]
                } else {
                    throw UsageError("--control needs a value")
                }
            case "--timeout":
                guard timeout == nil else { throw UsageError("--timeout given twice") }
                let text: String
                if let inline {
                    text = inline
                } else if index + 1 < arguments.count {
                    index += 1
                    text = arguments[index]
                } else {
                    throw UsageError("--timeout needs a value")
                }
                let value = try parseSeconds(text, option: name, maximum: ClientOptions.maximumTimeoutSeconds)
                timeout = .milliseconds(Int64((value * 1_000).rounded(.up)))
            default:
                if allowsSeconds, seconds == nil, !name.hasPrefix("-") {
                    seconds = try parseSeconds(name, option: "survey")
                } else if name.hasPrefix("-") {
                    throw UsageError("unknown option '\(name)' for \(command)")
                } else {
                    throw UsageError("unexpected argument '\(name)' for \(command)")
                }
            }
            index += 1
        }
        return (ClientOptions(control: control, timeout: timeout ?? .seconds(5)), seconds)
    }

    /// Parses a length of time: a positive number of seconds up to `maximum`.
    static func parseSeconds(
        _ text: String, option: String, maximum: Double = RunOptions.maximumSurveySeconds
    ) throws(UsageError) -> Double {
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= maximum else {
            throw UsageError("\(option): '\(text)' is not a number of seconds between 0 and \(Int(maximum))")
        }
        return seconds
    }

    /// Parses `HOST:PORT`, `[IPv6]:PORT`, or `HOST` alone when a default port exists.
    static func parseAddress(
        _ text: String, option: String, defaultPort: UInt16?
    ) throws(UsageError) -> (host: String, port: UInt16) {
        let bad = UsageError("\(option): '\(text)' is not HOST:PORT")
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw bad }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { throw bad }
                portText = after.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":") {
            guard text[text.index(after: colon)...].firstIndex(of: ":") == nil else {
                throw UsageError("\(option): write an IPv6 address in brackets, as [\(text)]:PORT")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = Substring(text)
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else { throw bad }
        if let portText {
            guard let port = UInt16(portText), port > 0 else {
                throw UsageError("\(option): '\(portText)' is not a port number (1-65535)")
            }
            return (String(host), port)
        }
        guard let defaultPort else { throw bad }
        return (String(host), defaultPort)
    }
}

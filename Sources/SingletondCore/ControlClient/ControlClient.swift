import GNSSProtocol
import Glibc
import SystemCalls

/// `singletond status | watch | survey | cancel`: a client of a running daemon's control socket.
///
/// Replies go to standard output as the daemon sends them (JSON lines, as `gpspipe -w` prints gpsd's); progress
/// and summaries go to standard error. Exit status 0 on success, 1 when the daemon cannot be reached, answers with
/// an error, or (for `survey`) the survey was cancelled.
package struct ControlClient {
    /// The socket's path.
    package var path: String
    /// How long to wait for the daemon to take a request and send its first answer.
    package var timeout: Duration
    /// Where progress, summaries and errors go: standard error, or a pipe in a test.
    var errorOutput: Int32 = 2

    /// Creates a client of the socket at `path` that waits at most `timeout` for the daemon's first answer.
    package init(path: String, timeout: Duration = .seconds(5)) {
        self.path = path
        self.timeout = timeout
    }

    /// Prints the daemon's status.
    package func status() -> Int32 { single(.status) }

    /// Cancels the daemon's survey and prints its answer.
    package func cancel() -> Int32 { single(.cancel) }

    /// Prints the daemon's TPV lines until interrupted; returns 1 when the daemon goes away.
    package func watch() -> Int32 {
        guard let lines = stream(.watch(enable: true)) else { return 1 }
        while let line = lines.next() {
            switch Self.className(line) {
            case "TPV": printOut(line)
            case "ERROR": return fail(line)
            default: continue
            }
        }
        printErr("singletond: the daemon closed the connection")
        return 1
    }

    /// Asks for a survey, shows its progress on standard error and prints the result.
    package func survey(seconds: Double?) -> Int32 {
        guard let lines = stream(.survey(seconds: seconds)) else { return 1 }
        while let line = lines.next() {
            guard let value = try? JSONValue(parsing: line) else { continue }
            switch value["class"]?.stringValue {
            case "PROGRESS":
                let percent = Int(((value["progress"]?.doubleValue ?? 0) * 100).rounded(.down))
                printErr("survey: \(percent)%")
            case "SURVEY":
                printOut(line)
                printErr(Self.summary(of: value))
                return value["status"]?.stringValue == "completed" ? 0 : 1
            case "ERROR":
                return fail(line)
            default:
                continue
            }
        }
        printErr("singletond: the daemon closed the connection before the survey ended")
        return 1
    }

    private func single(_ request: ControlRequest) -> Int32 {
        guard let connection = connect() else { return 1 }
        return single(request, on: connection)
    }

    /// Sends `request` on `connection` and prints the one answer.
    func single(_ request: ControlRequest, on connection: Connection) -> Int32 {
        guard send(request, on: connection) else { return 1 }
        guard let line = firstAnswer(on: connection) else { return 1 }
        if Self.className(line) == "ERROR" { return fail(line) }
        printOut(line)
        return 0
    }

    /// Sends `request` and waits for the first line of its answer within ``timeout``; the lines that follow are
    /// waited for as long as they take. `nil` (with the reason printed) when there is no first line.
    private func stream(_ request: ControlRequest) -> AnswerLines? {
        guard let connection = connect(), send(request, on: connection),
            let first = firstAnswer(on: connection)
        else { return nil }
        connection.limitWaits(to: nil)
        return AnswerLines(connection: connection, first: first)
    }

    /// The lines of a streamed answer: the first one, already read, then the rest as they come.
    private final class AnswerLines {
        private let connection: Connection
        private var first: [UInt8]?

        init(connection: Connection, first: [UInt8]) {
            self.connection = connection
            self.first = first
        }

        /// The next line without its newline; `nil` at the end of the stream.
        func next() -> [UInt8]? {
            defer { first = nil }
            return first ?? connection.readLine()
        }
    }

    /// The daemon's first answer, within ``timeout``; says what went wrong when there is none.
    private func firstAnswer(on connection: Connection) -> [UInt8]? {
        if let line = connection.readLine() { return line }
        if connection.timedOut {
            printErr("singletond: the daemon at \(path) did not answer within \(Self.describe(timeout))")
        } else {
            printErr("singletond: the daemon closed the connection without answering")
        }
        return nil
    }

    /// `5 s` for whole seconds, else `250 ms`.
    static func describe(_ duration: Duration) -> String {
        let milliseconds = Int(duration / .milliseconds(1))
        return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(milliseconds) ms"
    }

    private func connect() -> Connection? {
        switch UnixSocket.connect(to: path) {
        case .success(let fd):
            let connection = Connection(fd: fd)
            if let uid = System.peerUserID(fd), !UnixSocket.isTrusted(uid) {
                printErr(
                    "singletond: \(path) is served by uid \(uid), neither you nor root; refusing to talk to it "
                        + "(another user may be squatting the path)")
                return nil
            }
            connection.limitWaits(to: timeout)
            return connection
        case .failure(let failure):
            let hint =
                failure.errorNumber == ENOENT || failure.errorNumber == ECONNREFUSED
                ? " (is singletond running? use --control PATH if it listens elsewhere)" : ""
            printErr("singletond: \(failure)\(hint)")
            return nil
        }
    }

    /// Sends `request`; when that fails, prints why: the daemon's refusal if it sent one before it closed (too many
    /// clients: it answers and closes without reading), else the system's reason.
    private func send(_ request: ControlRequest, on connection: Connection) -> Bool {
        do throws(Errno) {
            try connection.send(request.line)
            return true
        } catch {
            if let line = connection.readLine(), Self.className(line) == "ERROR" {
                _ = fail(line)
            } else {
                printErr("singletond: cannot send the request to \(path): \(error)")
            }
            return false
        }
    }

    private func fail(_ line: [UInt8]) -> Int32 {
        let message = (try? JSONValue(parsing: line))?["message"]?.stringValue ?? String(decoding: line, as: UTF8.self)
        printErr("singletond: the daemon says: \(message)")
        return 1
    }

    static func className(_ line: [UInt8]) -> String? {
        (try? JSONValue(parsing: line))?["class"]?.stringValue
    }

    static func summary(of survey: JSONValue) -> String {
        func number(_ key: String, _ decimals: Int) -> String {
            guard let value = survey[key]?.doubleValue else { return "-" }
            var bytes: [UInt8] = []
            GPSDJSONWriter.appendFixed(value, decimals: decimals, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        let status = survey["status"]?.stringValue ?? "?"
        return "survey \(status) after \(number("elapsed", 1)) s: lat \(number("lat", 7)) lon \(number("lon", 7)) "
            + "alt \(number("alt", 2)) m, σN \(number("sigmaNorth", 2)) m σE \(number("sigmaEast", 2)) m "
            + "σU \(number("sigmaUp", 2)) m, CEP50 \(number("cep50", 2)) m CEP95 \(number("cep95", 2)) m, "
            + "\(number("used", 0)) fixes used, \(number("rejected", 0)) rejected"
    }

    private func printOut(_ line: [UInt8]) {
        _ = try? System.writeAll(1, line + [0x0A])
    }

    private func printErr(_ text: String) {
        _ = try? System.writeAll(errorOutput, Array((text + "\n").utf8))
    }

    /// A blocking connection that reads newline-terminated lines.
    final class Connection {
        let fd: Int32
        var buffer: [UInt8] = []
        var ended = false
        /// Whether the last ``readLine()`` gave up because the daemon sent nothing within the wait limit.
        var timedOut = false

        init(fd: Int32) { self.fd = fd }

        deinit { System.close(fd) }

        /// Sends all of `bytes`; throws the first failure.
        func send(_ bytes: [UInt8]) throws(Errno) { try System.writeAll(fd, bytes, socket: true) }

        /// Makes a blocked send or read give up after `limit` (`SO_SNDTIMEO`, `SO_RCVTIMEO`); `nil` waits for ever.
        func limitWaits(to limit: Duration?) {
            let microseconds = limit.map { max(1, Int($0 / .microseconds(1))) } ?? 0
            let value = timeval(tv_sec: microseconds / 1_000_000, tv_usec: microseconds % 1_000_000)
            System.setTimeOption(fd, name: SO_RCVTIMEO, value)
            System.setTimeOption(fd, name: SO_SNDTIMEO, value)
        }

        /// The next line without its newline; `nil` at end of stream. Lines are capped at 1 MiB.
        func readLine() -> [UInt8]? {
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = Array(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    return line
                }
                if ended || buffer.count > 1 << 20 { return nil }
                let count: Int
                do throws(Errno) {
                    count = try chunk.withUnsafeMutableBufferPointer { (bytes) throws(Errno) in
                        try System.read(fd, into: UnsafeMutableRawBufferPointer(bytes))
                    }
                } catch {
                    if error.code == EAGAIN || error.code == EWOULDBLOCK {
                        timedOut = true
                        return nil
                    }
                    ended = true
                    continue
                }
                if count == 0 {
                    ended = true
                    continue
                }
                buffer.append(contentsOf: chunk[0..<count])
            }
        }
    }
}

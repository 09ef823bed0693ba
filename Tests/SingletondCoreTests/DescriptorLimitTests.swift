import Foundation
import SingletondCore
import TestSupport
import Testing

/// The daemon at its file descriptor limit (`ulimit -n 56`, then more clients than it can hold), on the control
/// socket and on the gpsd listener: it sheds the clients it cannot take, telling each why, logs that once and the
/// count once descriptors are free, and serves again. Below ``SingletondCore/DescriptorBudget/floor`` it does not
/// start; just above it, clients leave the reserve free.
///
/// Before the fix each left the clients in the listening socket's backlog, which stayed ready: its poll loop spun,
/// logging `accept failed: Too many open files` hundreds of thousands of times, and those clients got no reply.
@Suite(.serialized, .hangBound) struct DescriptorLimitTests {
    /// A socket of the daemon, as a test reaches it.
    struct Socket: Sendable, CustomTestStringConvertible {
        /// How the log names it.
        var name: String
        /// The daemon's arguments for it, given a directory and a free port.
        var arguments: @Sendable (TemporaryDirectory, UInt16) -> [String]
        /// A new client of it.
        var connect: @Sendable (TemporaryDirectory, UInt16) -> StreamClient?
        /// What a client sends before it reads its first line.
        var request: String?
        /// What a served client's first line contains.
        var served: String
        var testDescription: String { name }
    }

    static let sockets = [
        Socket(
            name: "control socket", arguments: { directory, _ in ["--control", directory.file("c.sock")] },
            connect: { directory, _ in StreamClient(path: directory.file("c.sock")) },
            request: "{\"cmd\":\"status\"}\n", served: "\"class\":\"STATUS\""),
        Socket(
            name: "gpsd listener",
            arguments: { ["--control", $0.file("c.sock"), "--listen", "127.0.0.1:\($1)"] },
            connect: { _, port in StreamClient(port: port) }, request: nil, served: "\"class\":\"VERSION\""),
    ]

    @Test(arguments: sockets)
    func outOfDescriptorsClientsAreShedAndTheLogSaysSoOnceWithACount(socket: Socket) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let port = try freePort()
        let daemon = try SingletondProcess(socket.arguments(directory, port), descriptorLimit: 56)
        defer { daemon.kill() }
        #expect(await daemon.stderr.line(containing: "ready:") != nil, "no ready line: \(daemon.stderr.history)")

        // Each client (after its request, if any) waits for its first line: served, or shed with a reason.
        func firstLine() async throws -> (StreamClient, String?) {
            let client = try #require(socket.connect(directory, port))
            if let request = socket.request { client.send(request) }
            return (client, await client.readLine())
        }
        var served: [StreamClient] = []
        var shed = 0
        for _ in 0..<40 {
            let (client, line) = try await firstLine()
            if line?.contains("out of file descriptors") == true {
                shed += 1
            } else if line?.contains(socket.served) == true {
                served.append(client)
            } else {
                Issue.record("client \(served.count + shed + 1) got \(line ?? "no line")")
                return
            }
        }
        #expect(shed > 0, "the limit was never reached")
        #expect(!served.isEmpty)

        // Once the served clients leave, a new client is served again (one that comes before the daemon has seen
        // them leave is shed too), and the log says how many were shed.
        for client in served { client.disconnect() }
        var servedAgain = false
        for _ in 0..<1_000 where !servedAgain {
            let (_, line) = try await firstLine()
            servedAgain = line?.contains(socket.served) == true
            if line?.contains("out of file descriptors") == true { shed += 1 }
        }
        #expect(servedAgain)
        let count = await daemon.stderr.line(containing: "\(socket.name): file descriptors free again")
        #expect(count?.hasSuffix("refused \(shed) client(s) while out of them") == true, "\(count ?? "no count")")

        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        _ = await daemon.stderr.rest()
        let log = daemon.stderr.history
        #expect(log.count { $0.contains("out of file descriptors") } == 1, "\(log.prefix(20))")
        #expect(!log.contains { $0.contains("accept failed") }, "\(log.filter { !$0.contains("debug") }.prefix(20))")
    }

    @Test func belowTheFloorTheDaemonRefusesToStartAndWritesNothing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let limit = DescriptorBudget.floor - 1
        let daemon = try SingletondProcess(
            ["--control", directory.file("c.sock"), "--output", directory.file("out")], descriptorLimit: limit)
        defer { daemon.kill() }
        #expect(await daemon.exitStatus() == 1)
        let log = await daemon.stderr.rest()
        #expect(
            log.contains { $0.contains("file descriptor limit is \(limit), below the \(DescriptorBudget.floor)") },
            "\(log)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("out")))
        #expect(!FileManager.default.fileExists(atPath: directory.file("c.sock")))
    }

    /// Just above the floor, control clients are taken until one is refused: the daemon then still holds fewer
    /// descriptors than its limit less the reserve (without the reserve, clients took every descriptor, and
    /// libdispatch's worker monitor stopped the process with SIGILL when its next open failed), and it answers
    /// `status` again once clients leave.
    @Test func justAboveTheFloorClientsLeaveTheReserveToTheDaemon() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let limit = DescriptorBudget.floor
        let daemon = try SingletondProcess(["--control", directory.file("c.sock")], descriptorLimit: limit)
        defer { daemon.kill() }
        #expect(await daemon.stderr.line(containing: "ready:") != nil, "no ready line: \(daemon.stderr.history)")

        func status() async throws -> (StreamClient, String?) {
            let client = try #require(StreamClient(path: directory.file("c.sock")))
            client.send("{\"cmd\":\"status\"}\n")
            return (client, await client.readLine())
        }
        var served: [StreamClient] = []
        var refused = false
        for _ in 0..<limit where !refused {
            let (client, line) = try await status()
            if line?.contains("out of file descriptors") == true {
                refused = true
            } else if line?.contains("\"class\":\"STATUS\"") == true {
                served.append(client)
            } else {
                Issue.record("client \(served.count + 1) got \(line ?? "no line")")
                return
            }
        }
        #expect(refused, "the clients' share was never used up")
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fd").count
        #expect(open <= limit - DescriptorBudget.reserve + 2, "\(open) descriptors open of \(limit)")

        for client in served { client.disconnect() }
        var servedAgain = false
        for _ in 0..<1_000 where !servedAgain {
            servedAgain = try await status().1?.contains("\"class\":\"STATUS\"") == true
        }
        #expect(servedAgain)
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }
}

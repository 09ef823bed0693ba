import Foundation
import TestSupport
import Testing

/// The daemon at its file descriptor limit (`ulimit -n 32`, then more clients than it can hold): it sheds the
/// clients it cannot take, telling each why, logs that once and the count once descriptors are free, and serves
/// again.
///
/// Before the fix it left the clients in the listening socket's backlog, which stayed ready: its poll loop spun,
/// logging `accept failed: Too many open files` hundreds of thousands of times, and those clients got no reply.
@Suite(.serialized, .timeLimit(.minutes(3))) struct DescriptorLimitTests {
    @Test func outOfDescriptorsClientsAreShedAndTheLogSaysSoOnceWithACount() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let control = directory.file("c.sock")
        let daemon = try SingletondProcess(["--control", control], descriptorLimit: 32)
        defer { daemon.kill() }
        #expect(await daemon.stderr.line(containing: "ready:") != nil, "no ready line: \(daemon.stderr.history)")

        // Each client asks for the status and waits for its answer: served, or shed with a reason.
        var served: [StreamClient] = []
        var shed = 0
        for _ in 0..<40 {
            let client = try #require(StreamClient(path: control))
            client.send("{\"cmd\":\"status\"}\n")
            let reply = await client.readLine()
            if reply?.contains("out of file descriptors") == true {
                shed += 1
            } else if reply?.contains("\"class\":\"STATUS\"") == true {
                served.append(client)
            } else {
                Issue.record("client \(served.count + shed + 1) got \(reply ?? "no reply")")
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
            let client = try #require(StreamClient(path: control))
            client.send("{\"cmd\":\"status\"}\n")
            let reply = await client.readLine()
            servedAgain = reply?.contains("\"class\":\"STATUS\"") == true
            if reply?.contains("out of file descriptors") == true { shed += 1 }
        }
        #expect(servedAgain)
        let count = await daemon.stderr.line(containing: "file descriptors free again")
        #expect(count?.hasSuffix("refused \(shed) client(s) while out of them") == true, "\(count ?? "no count")")

        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        _ = await daemon.stderr.rest()
        let log = daemon.stderr.history
        #expect(log.count { $0.contains("out of file descriptors") } == 1, "\(log.prefix(20))")
        #expect(!log.contains { $0.contains("accept failed") }, "\(log.filter { !$0.contains("debug") })")
    }

    /// The gpsd listener at the limit too: it sheds the clients it cannot take with an `ERROR`, logs that once and
    /// the count once descriptors are free. Before, its poll loop spun on the ready socket, logging
    /// `accept failed` on every turn, and those clients got nothing.
    @Test func theGPSDListenerShedsClientsOutOfDescriptorsToo() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let port = try freePort()
        let daemon = try SingletondProcess(
            ["--control", directory.file("c.sock"), "--listen", "127.0.0.1:\(port)"], descriptorLimit: 32)
        defer { daemon.kill() }
        #expect(await daemon.stderr.line(containing: "ready:") != nil, "no ready line: \(daemon.stderr.history)")

        // Each client waits for its first line: the VERSION greeting, or an ERROR saying why it was shed.
        var greeted: [StreamClient] = []
        var shed = 0
        for _ in 0..<40 {
            let client = try #require(StreamClient(port: port))
            let line = await client.readLine()
            if line?.contains("out of file descriptors") == true {
                shed += 1
            } else if line?.contains("\"class\":\"VERSION\"") == true {
                greeted.append(client)
            } else {
                Issue.record("client \(greeted.count + shed + 1) got \(line ?? "no line")")
                return
            }
        }
        #expect(shed > 0, "the limit was never reached")
        #expect(!greeted.isEmpty)

        for client in greeted { client.disconnect() }
        var greetedAgain = false
        for _ in 0..<1_000 where !greetedAgain {
            let client = try #require(StreamClient(port: port))
            let line = await client.readLine()
            greetedAgain = line?.contains("\"class\":\"VERSION\"") == true
            if line?.contains("out of file descriptors") == true { shed += 1 }
        }
        #expect(greetedAgain)
        let count = await daemon.stderr.line(containing: "gpsd listener: file descriptors free again")
        #expect(count?.hasSuffix("refused \(shed) client(s) while out of them") == true, "\(count ?? "no count")")

        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        _ = await daemon.stderr.rest()
        let log = daemon.stderr.history
        #expect(log.count { $0.contains("out of file descriptors") } == 1, "\(log.prefix(20))")
        #expect(!log.contains { $0.contains("accept failed") }, "\(log.filter { !$0.contains("debug") }.prefix(20))")
    }
}

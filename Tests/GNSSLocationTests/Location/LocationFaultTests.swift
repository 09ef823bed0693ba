import Dispatch
import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// Peers that claim to be gpsd and misbehave: the manager names what went wrong in its state and `lastProblem`,
/// keeps reconnecting, and never crashes or grows without bound.
/// Reconnection backs off on the live clock: these tests wait for a real server to come back.
@Suite(.hangBound, .singletons { $0.clock = ContinuousClock() }) struct LocationFaultTests {
    static let banner =
        #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\r\n"
    static let tpv =
        #"{"class":"TPV","mode":3,"time":"2026-11-22T12:00:01.000Z","lat":48.1173,"lon":11.516667}"#
        + "\r\n"

    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        /// Not gpsd at all: a web server's answer instead of the banner.
        case noBanner
        /// The banner, then binary garbage lines.
        case garbage
        /// The banner, then a 20 KB line with no end.
        case overlongLine
        /// The banner, then half a TPV line, then the connection closes.
        case halfLine

        var testDescription: String { rawValue }

        var payload: [UInt8] {
            switch self {
            case .noBanner: Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8)
            case .garbage:
                Array(banner.utf8) + [0x01, 0xFF, 0x7E, 0x00, 0x13, 0x0A] + Array("%%%% not json\n".utf8)
            case .overlongLine: Array(banner.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 20_480)
            case .halfLine: Array(banner.utf8) + Array(tpv.utf8.prefix(40))
            }
        }

        /// What the reason and `lastProblem` must say.
        var explanation: String {
            switch self {
            case .noBanner:
                #"did not start with gpsd's VERSION banner (first line: "HTTP/1.1 400 Bad Request")"#
            case .garbage: "invalid line from gpsd"
            case .overlongLine:
                "gpsd sent a line of 20480 bytes without an end, over the 10240-byte limit"
            case .halfLine: "the connection ended in the middle of a line from gpsd (40 bytes)"
            }
        }
    }

    @Test(arguments: Fault.allCases) @RegistryActor
    func aMisbehavingGpsdIsNamedInTheStateAndRetried(fault: Fault) async throws {
        let payload = fault.payload
        // Every connection gets the same treatment, so every retry fails the same way.
        let peer = try LoopbackPeer { connection in
            LoopbackPeer.drain(connection)
            try? writeAll(connection, payload)
            LoopbackPeer.finish(connection)
        }
        defer { peer.close() }
        let manager = LocationManager().withoutLiveTimeouts()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        let first = try #require(await states.nextReconnectReason())
        #expect(first.contains(fault.explanation), "\(first)")
        if fault != .noBanner {
            #expect(
                first.hasPrefix("gpsd://127.0.0.1:\(peer.port) closed the connection; last problem: "),
                "\(first)")
        }
        // It keeps trying, and each failure says the same.
        let second = try #require(await states.nextReconnectReason())
        #expect(second.contains(fault.explanation), "\(second)")
        #expect(
            manager.lastProblem?.contains(fault.explanation) == true, "\(manager.lastProblem ?? "nil")")
        #expect(manager.fixCount == 0)
        await manager.shutdown()
        #expect(manager.state == .idle)
    }

    @Test @RegistryActor
    func anOverlongLineIsDroppedAndTheNextFixStillArrives() async throws {
        let stream =
            Array(Self.banner.utf8) + [UInt8](repeating: UInt8(ascii: "y"), count: 20_000)
            + Array("\r\n".utf8)
            + Array(Self.tpv.utf8)
        let peer = try LoopbackPeer { connection in
            LoopbackPeer.drain(connection)
            try? writeAll(connection, stream)
            LoopbackPeer.finish(connection)
        }
        defer { peer.close() }
        let manager = LocationManager().withoutLiveTimeouts()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var fixes = FixReader(manager.updates())
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))
        let fix = try #require(await fixes.read(1).first)
        #expect(fix.latitude == 48.1173)
        #expect(fix.time == GNSSTime(millisecondsSince1970: 1_795_348_801_000))
        // The connection then closes after a good fix: the reason does not blame the dropped line.
        let reason = try #require(await states.nextReconnectReason())
        #expect(reason == "gpsd://127.0.0.1:\(peer.port) closed the connection")
        await manager.shutdown()
    }

    /// A report with no position: delivered, but it does not clear `lastProblem` (only a position does).
    static let noFixTPV = #"{"class":"TPV","mode":1,"time":"2026-11-22T12:00:00.000Z"}"# + "\r\n"

    /// A peer that counts its connections and serves each through `serve(connection, index)` (1-based).
    static func countingPeer(
        _ connections: SanitizerVisibleMutex<Int>, serve: @escaping @Sendable (Int32, Int) -> Void
    ) throws -> LoopbackPeer {
        try LoopbackPeer { connection in
            let index = connections.withLock { count in
                count += 1
                return count
            }
            LoopbackPeer.drain(connection)
            serve(connection, index)
            LoopbackPeer.serveRequests(connection)
        }
    }

    @Test @RegistryActor
    func classesTheClientDoesNotUseAreIgnored() async throws {
        let others = [
            #"{"class":"GST","device":"/dev/ttyUSB0","time":"2026-11-22T12:00:00.000Z","rms":1.2,"major":2.5,"minor":1.1,"orient":30.0,"lat":1.5,"lon":1.4,"alt":2.8}"#,
            #"{"class":"TOFF","device":"/dev/ttyUSB0","real_sec":1795348800,"real_nsec":0,"clock_sec":1795348800,"clock_nsec":1200,"precision":-1}"#,
            #"{"class":"PPS","device":"/dev/ttyUSB0","real_sec":1795348800,"real_nsec":0,"clock_sec":1795348800,"clock_nsec":800,"precision":-20,"qErr":-1234}"#,
            #"{"class":"ATT","device":"/dev/ttyUSB0","time":"2026-11-22T12:00:00.000Z","heading":142.3,"mag_st":"N","pitch":16.9,"roll":-4.3}"#,
            #"{"class":"FOO","lat":"not a number","nested":[1,{"x":null}],"flag":true}"#,
        ]
        let stream = Array((Self.banner + others.map { $0 + "\r\n" }.joined() + Self.noFixTPV).utf8)
        let connections = SanitizerVisibleMutex(0)
        let peer = try Self.countingPeer(connections) { connection, _ in
            try? writeAll(connection, stream)
        }
        defer { peer.close() }
        let manager = LocationManager().withoutLiveTimeouts()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var fixes = FixReader(manager.updates())
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        // Had any of them failed the connection, the report after them would never come: each retry is the same.
        let fix = try #require(await fixes.read(1).first)
        #expect(fix.mode == .noFix)
        #expect(fix.time == GNSSTime(millisecondsSince1970: 1_795_348_800_000))
        #expect(manager.lastProblem == nil)
        #expect(manager.state == .waitingForFix(source: "gpsd://127.0.0.1:\(peer.port)"))
        #expect(connections.withLock { $0 } == 1)
        await manager.shutdown()
    }

    /// A bad line between two reports, and the problem it is named as.
    struct BadLine: Sendable, CustomTestStringConvertible {
        let name: String
        let line: [UInt8]
        let problem: String
        var testDescription: String { name }

        static let wrongType = BadLine(
            name: "a wrong type",
            line: Array(
                (#"{"class":"TPV","mode":3,"time":"2026-11-22T12:00:00.000Z","lat":"abc","lon":11.5}"# + "\r\n").utf8),
            problem: #"invalid line from gpsd: TPV field "lat": expected a number, found a string"#)
        /// Counted, not kept: the framer holds at most 10,240 bytes of a line.
        static let megabyte = BadLine(
            name: "a megabyte line",
            line: [UInt8](repeating: UInt8(ascii: "{"), count: 1 << 20) + Array("\n".utf8),
            problem: "gpsd sent a 1048576-byte line, over the limit; dropped it")
    }

    /// The bad line is named, the connection carries on, and the next fix clears the problem. The peer sends the
    /// good fix only once the test has looked at the problem, so the fix cannot clear it first.
    @Test(arguments: [BadLine.wrongType, .megabyte]) @RegistryActor
    func aBadLineIsNamedAndTheConnectionCarriesOn(bad: BadLine) async throws {
        let first = Array(Self.banner.utf8) + bad.line + Array(Self.noFixTPV.utf8)
        let connections = SanitizerVisibleMutex(0)
        let gate = DispatchSemaphore(value: 0)
        let peer = try Self.countingPeer(connections) { connection, _ in
            try? writeAll(connection, first)
            guard gate.wait(timeout: .now() + waitHangBound) == .success else { return }
            try? writeAll(connection, Array(Self.tpv.utf8))
        }
        defer { peer.close() }
        let manager = LocationManager().withoutLiveTimeouts()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var fixes = FixReader(manager.updates())
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        #expect(await fixes.read(1).first?.mode == .noFix)
        #expect(manager.lastProblem == bad.problem)
        gate.signal()
        #expect(await fixes.read(1).first?.latitude == 48.1173)
        #expect(manager.lastProblem == nil)
        await states.next { $0.name == "fixed" }
        #expect(!states.seen.contains { $0.name == "reconnecting" })
        #expect(connections.withLock { $0 } == 1)
        await manager.shutdown()
    }
}

import GNSSProtocol
import Glibc
import SingletonRegistry
import Testing

/// Peers that claim to be gpsd and misbehave: the manager names what went wrong in its state and `lastProblem`,
/// keeps reconnecting, and never crashes or grows without bound.
@Suite(.timeLimit(.minutes(1))) struct LocationFaultTests {
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
            try? LocationTesting.writeAll(connection, payload)
            LoopbackPeer.finish(connection)
        }
        defer { peer.close() }
        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        let first = try #require(await states.nextReconnectReason())
        #expect(first.contains(fault.explanation), "\(first)")
        if fault != .noBanner {
            #expect(
                first.hasPrefix("gpsd 127.0.0.1:\(peer.port) closed the connection; last problem: "),
                "\(first)")
        }
        // It keeps trying, and each failure says the same.
        let second = try #require(await states.nextReconnectReason())
        #expect(second.contains(fault.explanation), "\(second)")
        #expect(
            manager.lastProblem?.contains(fault.explanation) == true, "\(manager.lastProblem ?? "nil")")
        #expect(manager.fixCount == 0)
        await manager.stop()
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
            try? LocationTesting.writeAll(connection, stream)
            LoopbackPeer.finish(connection)
        }
        defer { peer.close() }
        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var fixes = FixReader(manager.updates())
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))
        let fix = try #require(await fixes.read(1).first)
        #expect(fix.latitude == 48.1173)
        #expect(fix.time == GNSSTime(millisecondsSince1970: 1_795_348_801_000))
        // The connection then closes after a good fix: the reason does not blame the dropped line.
        let reason = try #require(await states.nextReconnectReason())
        #expect(reason == "gpsd 127.0.0.1:\(peer.port) closed the connection")
        await manager.stop()
    }
}

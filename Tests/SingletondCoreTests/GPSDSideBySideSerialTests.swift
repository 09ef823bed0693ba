import Foundation
import GNSSProtocol
import Glibc
import TestSupport
import Testing

/// A serial receiver, a pseudo-terminal standing in for /dev/ttyUSB0 at 4800 baud, read by a real gpsd
/// (`gpsd -s 4800`) and by the daemon (`--nmea PTY --baud 4800`), each fed the same log: the DEVICE each lists is
/// the same, the port's settings included (`native`, `bps`, `parity`, `stopbits`, `cycle`), but for the path and
/// the moment it was activated.
@Suite(.gpsdTools, .hangBound) struct GPSDSideBySideSerialTests {
    @Test func aSerialDeviceIsListedWithGpsdsPortSettings() async throws {
        let gpsdPath = try #require(Machine.path(of: "gpsd"), "gpsd is missing: apt-get install gpsd")
        let (theirPort, ourPort) = (try PseudoTerminal(), try PseudoTerminal())
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let gpsdTCP = try freePort()
        let gpsd = try ChildProcess(
            gpsdPath, ["-N", "-n", "-s", "4800", "-S", String(gpsdTCP), theirPort.slavePath], stderr: .kept,
            ownTemporaryDirectory: true)
        defer { gpsd.kill() }
        let daemonTCP = try freePort()
        let daemon = try SingletondProcess([
            "--nmea", ourPort.slavePath, "--baud", "4800", "--listen", "127.0.0.1:\(daemonTCP)", "--control",
            directory.file("c.sock"), "--output", "/dev/null",
        ])
        defer { daemon.kill() }
        try #require(await daemon.stderr.line(containing: "ready:") != nil, "\(daemon.stderr.history)")
        // gpsd listens once it runs: asked again while it starts.
        let listening = try await Polling.firstAnswer(while: { gpsd.isRunning }) { StreamClient(port: gpsdTCP) }
        try #require(listening != nil, "gpsd did not listen: \(gpsd.errorOutput)")
        listening?.disconnect()

        var devices: [JSONValue] = []
        for (port, pty) in [(gpsdTCP, theirPort), (daemonTCP, ourPort)] {
            let client = try await GPSDSideBySideDeviceTests.watcher(port: port)
            defer { client.disconnect() }
            let master = pty.master
            _ = await blocking { Result { try writeAll(master, SideBySide.log) } }
            #expect(await client.readLine(containing: "\"class\":\"TPV\"") != nil)
            client.send("?DEVICES;\n")
            let reply = try #require(
                SideBySide.object(await client.readLine(containing: "\"class\":\"DEVICES\"") ?? ""))
            devices.append(try #require(reply["devices"]?.arrayValue?.first))
        }
        // Each member as printed, in the order sent, but the path and the activation time.
        func settings(_ device: JSONValue) -> [String] {
            (device.objectValue ?? []).filter { $0.key != "path" && $0.key != "activated" }.map {
                "\($0.key): \($0.value)"
            }
        }
        let (theirs, ours) = (settings(devices[0]), settings(devices[1]))
        #expect(devices[0]["bps"]?.doubleValue == 4_800, "gpsd's DEVICE: \(theirs)")
        #expect(ours == theirs, "ours: \(ours)\ngpsd's: \(theirs)")
    }
}

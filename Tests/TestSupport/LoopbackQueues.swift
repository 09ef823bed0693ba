import Foundation
import Glibc
import Testing

/// The kernel's view of TCP connections on loopback: whether bytes sent are still waiting somewhere.
package enum LoopbackQueues {
    /// Returns once every IPv4 TCP socket on 127.0.0.1:`port` or connected to it has an empty send and receive queue
    /// (`tx_queue:rx_queue` of `/proc/net/tcp`): everything written on those connections has been read. It polls,
    /// since the kernel announces nothing, every millisecond for at most a minute, a bound that only catches a hang.
    package static func untilDrained(port: UInt16) async throws {
        for _ in 0..<60_000 {
            if try queuedBytes(port: port) == 0 { return }
            try await Task.sleep(for: .milliseconds(1))
        }
        Issue.record("bytes on 127.0.0.1:\(port) still queued after a minute")
    }

    /// The bytes queued, sent or received, on the sockets of 127.0.0.1:`port` and those connected to it.
    package static func queuedBytes(port: UInt16) throws -> Int {
        let endpoint = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
        var queued = 0
        for fields in try tcpSockets() {
            guard fields.count > 4, fields[1].hasSuffix(endpoint) || fields[2].hasSuffix(endpoint),
                fields[3] != "0A"  // a listening socket's rx_queue is its accept backlog
            else { continue }
            for queue in fields[4].split(separator: ":") { queued += Int(queue, radix: 16) ?? 0 }
        }
        return queued
    }

    /// How many of process `pid`'s descriptors are IPv4 TCP sockets whose peer is 127.0.0.1:`port`, whatever their
    /// state: the connections a client holds to a server on that port.
    package static func socketsConnected(toPort port: UInt16, ofProcess pid: pid_t = getpid()) throws -> Int {
        let peer = "0100007F:" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
        var inodes: Set<String> = []
        for fields in try tcpSockets() where fields.count > 9 && fields[2] == peer {
            inodes.insert("socket:[\(fields[9])]")
        }
        let directory = "/proc/\(pid)/fd"
        // The process may exit meanwhile: then it holds nothing.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.count { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(name)")).map(inodes.contains)
                ?? false
        }
    }

    /// The IPv4 TCP sockets of `/proc/net/tcp`, one array of fields each: "sl local_address rem_address st
    /// tx_queue:rx_queue tr:when retrnsmt uid timeout inode ...", addresses as HEX_IP:HEX_PORT.
    package static func tcpSockets() throws -> [[Substring]] {
        let bytes = try #require(RawFile.bytes("/proc/net/tcp"), "/proc/net/tcp could not be read")
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst().map {
            $0.split(separator: " ")
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

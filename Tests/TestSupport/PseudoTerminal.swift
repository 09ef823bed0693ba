import Glibc
import Testing

/// A pseudo-terminal pair standing in for a serial GNSS receiver: the test writes into the master, the transport
/// opens the slave's path.
package final class PseudoTerminal {
    /// The master side, which the test writes the receiver's bytes into; -1 once closed.
    package private(set) var master: Int32
    /// The path of the slave side, which a transport opens as it opens /dev/ttyUSB0.
    package let slavePath: String

    /// A new pair, the slave closed until a transport opens it.
    package init() throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0, "openpty: \(String(cString: strerror(errno)))")
        for fd in [master, slave] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // ttyname_r, not ttyname: tests run in parallel and ttyname's buffer is shared.
        var name = [CChar](repeating: 0, count: 256)
        try #require(ttyname_r(slave, &name, name.count) == 0)
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        close(slave)
        self.master = master
    }

    /// Closes the master: the slave's reader gets end of file or an error, as when a receiver is unplugged.
    package func closeMaster() {
        if master >= 0 { close(master) }
        master = -1
    }

    deinit { closeMaster() }
}

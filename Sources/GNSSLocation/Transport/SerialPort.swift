import Glibc
import SystemCalls

/// Opening and configuring a serial terminal device the way a GNSS receiver needs it.
enum SerialPort {
    /// The rates NMEA receivers use, from the standard 4800 to the 921600 of modern multi-band receivers.
    static let supportedBaudRates: [(rate: Int, speed: speed_t)] = [
        (4_800, speed_t(B4800)), (9_600, speed_t(B9600)), (19_200, speed_t(B19200)), (38_400, speed_t(B38400)),
        (57_600, speed_t(B57600)), (115_200, speed_t(B115200)), (230_400, speed_t(B230400)),
        (460_800, speed_t(B460800)), (921_600, speed_t(B921600)),
    ]

    /// Opens `path` exclusively, without making it the controlling terminal, non-blocking, and sets raw 8N1
    /// at `baud`, ignoring modem control lines.
    static func open(path: String, baud: Int) throws(SourceError) -> Int32 {
        guard let speed = supportedBaudRates.first(where: { $0.rate == baud })?.speed else {
            let rates = supportedBaudRates.map { String($0.rate) }.joined(separator: ", ")
            throw SourceError(
                .configure, source: path, errorNumber: EINVAL,
                reason: "unsupported baud rate \(baud) (supported: \(rates))")
        }
        let fd: Int32
        do {
            fd = try System.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        } catch {
            throw SourceError(.open, source: path, errorNumber: error.code)
        }
        do throws(SourceError) {
            try configure(fd, path: path, speed: speed)
        } catch {
            System.close(fd)
            throw error
        }
        return fd
    }

    private static func configure(_ fd: Int32, path: String, speed: speed_t) throws(SourceError) {
        guard System.isTerminal(fd) else {
            throw SourceError(
                .configure, source: path, errorNumber: ENOTTY,
                reason: "not a serial device (\(SourceError.systemMessage(ENOTTY)))")
        }
        do throws(Errno) {
            try System.makeExclusive(fd)
            var settings = try System.terminalSettings(fd)
            try System.makeRaw(&settings, speed: speed)
            settings.c_cflag &= ~tcflag_t(CSIZE | PARENB | CSTOPB) & ~tcflag_t(CRTSCTS)
            settings.c_cflag |= tcflag_t(CS8 | CLOCAL | CREAD)
            withUnsafeMutableBytes(of: &settings.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            // Applying the settings also discards whatever queued up before we owned the port: it is stale.
            try System.apply(settings, to: fd)
        } catch {
            throw SourceError(.configure, source: path, errorNumber: error.code)
        }
    }
}

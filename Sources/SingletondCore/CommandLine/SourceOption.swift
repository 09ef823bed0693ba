/// The position source named on the command line.
package enum SourceOption: Sendable, Hashable {
    /// The NMEA track built into the binary, replayed in real time and looped (`--demo`, or no source at all).
    case demo
    /// A gpsd server (`--gpsd [HOST:PORT]`).
    case gpsd(host: String, port: UInt16)
    /// NMEA from a file, FIFO, serial device or `-` for standard input (`--nmea PATH|-`, with `--baud N`).
    case nmea(path: String, baud: Int?)
    /// NMEA served over TCP (`--nmea-tcp HOST:PORT`).
    case nmeaTCP(host: String, port: UInt16)
}

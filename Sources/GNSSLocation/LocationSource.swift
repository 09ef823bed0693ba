/// Where ``LocationManager`` reads positions from.
public enum LocationSource: Sendable, Hashable, CustomStringConvertible {
    /// A gpsd server speaking its JSON protocol (default `127.0.0.1:2947`). Reconnects when lost.
    case gpsd(host: String = "127.0.0.1", port: UInt16 = 2947)
    /// NMEA 0183 from a file or FIFO, replayed with `pacing`. Ends at the end of the file.
    case nmeaFile(path: String, pacing: ReplayPacing = .asFastAsPossible)
    /// NMEA 0183 from the process's standard input. Ends when it closes.
    case nmeaStandardInput
    /// NMEA 0183 from a serial receiver at `baud` bits per second (raw 8N1, exclusive open). Reopens the device
    /// when it goes away (unplugged) and comes back.
    case nmeaSerial(path: String, baud: Int)
    /// NMEA 0183 served over TCP (phones, boat networks). Reconnects when lost.
    case nmeaTCP(host: String, port: UInt16)
    /// NMEA 0183 held in memory, replayed with `pacing`, over and over when `loops` is set; when looping, the fix
    /// times of each pass continue from where the last pass ended, so they keep moving forward.
    case nmeaReplay(name: String, bytes: [UInt8], pacing: ReplayPacing, loops: Bool)

    /// How logs, states and reports name the source, the name every fix and satellite view of it carries as its
    /// device: `gpsd://127.0.0.1:2947`, `tcp://127.0.0.1:10110`, the path of a file or serial device, `stdin`, or a
    /// replay's name.
    public var description: String {
        switch self {
        case .gpsd(let host, let port): "gpsd://\(Self.address(host, port))"
        case .nmeaFile(let path, _): path
        case .nmeaStandardInput: "stdin"
        case .nmeaSerial(let path, _): path
        case .nmeaTCP(let host, let port): "tcp://\(Self.address(host, port))"
        case .nmeaReplay(let name, _, _, _): name
        }
    }

    /// Whether losing the source (or failing to reach it at first) leads to retries rather than failure.
    public var reconnects: Bool {
        switch self {
        case .gpsd, .nmeaTCP, .nmeaSerial: true
        case .nmeaFile, .nmeaStandardInput, .nmeaReplay: false
        }
    }

    /// Whether the source can wait for a slow reader without losing data: a file, standard input, a TCP peer, gpsd
    /// and a replay are read no faster than the subscribers that hold the source take their events
    /// (``LocationManager/events(bufferSize:includingSentences:holdingSource:)``). A serial device cannot wait (its
    /// kernel buffer overflows), so it is read as it speaks and a slow subscriber's events are dropped and counted.
    public var canWait: Bool {
        if case .nmeaSerial = self { false } else { true }
    }

    /// Whether a failure to open the source at start is retried (network peers) or reported at once (files and
    /// devices, where the error is almost always a wrong path or missing permission).
    public var retriesFirstOpen: Bool {
        switch self {
        case .gpsd, .nmeaTCP: true
        case .nmeaFile, .nmeaStandardInput, .nmeaSerial, .nmeaReplay: false
        }
    }

    static func address(_ host: String, _ port: UInt16) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// How fast a recorded NMEA source is replayed.
public enum ReplayPacing: Sendable, Hashable {
    /// As fast as the decoder goes.
    case asFastAsPossible
    /// Paced by the fixes' own timestamps, `speed` times real time (1 is real time, 10 is ten times faster).
    case timestamps(speed: Double)
}

extension LocationSource {
    /// The bytes to open, for the sources read through a ``ByteChannel``.
    var byteSource: ByteSource? {
        switch self {
        case .gpsd(let host, let port), .nmeaTCP(let host, let port): .tcp(host: host, port: port)
        case .nmeaFile(let path, _): .file(path: path)
        case .nmeaStandardInput: .standardInput
        case .nmeaSerial(let path, let baud): .serial(path: path, baud: baud)
        case .nmeaReplay: nil
        }
    }

    /// The replay speed of a paced file.
    var pacing: Double? {
        if case .nmeaFile(_, .timestamps(let speed)) = self { speed } else { nil }
    }
}

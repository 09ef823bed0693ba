import GNSSProtocol
import HopBenchCore

/// The input of `nmea.parse`: 4,096 one-second cycles (about 2 MB), replayed in order and wrapped around.
private let nmeaParseInput = NMEAInput.cycles(4_096)

extension Cases {
    /// Parse-only throughput of the NMEA decoder: bytes in, fixes out, nothing written.
    ///
    /// One operation is one cycle of 8 sentences fed as one chunk, producing one fix (and sky views); a fresh
    /// decoder per sample, warmed by the runner's growing batches. Allocations per sentence are the table's
    /// allocations per operation divided by 8.
    static let nmeaParse = BenchmarkCase(
        batched: "nmea.parse",
        summary: "NMEADecoder.feed of one 1 Hz cycle (8 sentences, RMC VTG GGA GSA 3xGSV GLL), events counted",
        throughput: Throughput(
            itemsPerOperation: Double(NMEAInput.sentencesPerCycle),
            itemName: "sentences",
            bytesPerOperation: Double(nmeaParseInput.bytes.count) / Double(nmeaParseInput.starts.count - 1)
        )
    ) { operations in
        let (bytes, starts) = identity(nmeaParseInput)
        let cycles = starts.count - 1
        var decoder = NMEADecoder()
        var fixes = 0
        var events = 0
        let start = MonotonicClock.now()
        bytes.withUnsafeBytes { all in
            for index in 0..<operations {
                let cycle = index % cycles
                let chunk = UnsafeRawBufferPointer(rebasing: all[starts[cycle]..<starts[cycle + 1]])
                decoder.feed(chunk) { event in
                    events &+= 1
                    if case .fix = event { fixes &+= 1 }
                }
            }
        }
        let end = MonotonicClock.now()
        blackHole(fixes)
        blackHole(events)
        return end &- start
    }
}

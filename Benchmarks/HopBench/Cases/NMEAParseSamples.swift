import Foundation
import GNSSProtocol
import HopBenchCore

/// Real receivers' logs for `nmea.parse.samples`: ../shared/nmea-samples/*.log (relative to the package root),
/// concatenated in name order and never copied into the repository.
enum NMEASamples {
    /// The size of the chunks fed to the decoder, as a location session reads them.
    static let chunkSize = 4_096

    /// The logs' bytes, or nil when the directory is absent or holds no log.
    static let bytes: [UInt8]? = {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let directory = root.deletingLastPathComponent().appendingPathComponent("shared/nmea-samples")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return nil }
        var bytes: [UInt8] = []
        for name in names.sorted() where name.hasSuffix(".log") {
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
            else { continue }
            bytes += data
            if bytes.last != UInt8(ascii: "\n") { bytes += Array("\r\n".utf8) }
        }
        return bytes.isEmpty ? nil : bytes
    }()

    /// Says on standard error that `nmea.parse.samples` is left out, when the logs are absent.
    static func noteIfAbsent() {
        guard bytes == nil else { return }
        FileHandle.standardError.write(
            Data("note: nmea.parse.samples left out: no ../shared/nmea-samples/*.log next to the package\n".utf8))
    }

    /// The case, when the logs are there; the catalog leaves it out (and says so on standard error) otherwise.
    static let parseCase: BenchmarkCase? = bytes.map { bytes in
        let chunks = (bytes.count + chunkSize - 1) / chunkSize
        let sentences = NMEADecoder.decode(bytes).statistics.sentences
        return BenchmarkCase(
            batched: "nmea.parse.samples",
            summary: "NMEADecoder.feed of one 4 KiB chunk of ../shared/nmea-samples/*.log (real receivers), in order",
            throughput: Throughput(
                itemsPerOperation: Double(sentences) / Double(chunks),
                itemName: "sentences",
                bytesPerOperation: Double(bytes.count) / Double(chunks)
            )
        ) { operations in
            let input = identity(bytes)
            var decoder = NMEADecoder()
            var events = 0
            let start = MonotonicClock.now()
            input.withUnsafeBytes { all in
                for index in 0..<operations {
                    let offset = index % chunks * chunkSize
                    let chunk = UnsafeRawBufferPointer(rebasing: all[offset..<min(offset + chunkSize, all.count)])
                    decoder.feed(chunk) { _ in events &+= 1 }
                }
            }
            let end = MonotonicClock.now()
            blackHole(events)
            return end &- start
        }
    }
}

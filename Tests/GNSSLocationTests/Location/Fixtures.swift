import Foundation
import GNSSProtocol

/// The project's own NMEA fixtures, under Tests/Fixtures/NMEA.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/NMEA")

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The fixes a live source's decoder makes of a fixture (the first cycle's partial fixes included): what every
    /// NMEA source must deliver for it.
    static func expectedFixes(_ name: String, device: String) throws -> [Fix] {
        NMEADecoder.decode(try bytes(name), liveDevice: device).compactMap {
            if case .fix(let fix) = $0 { fix } else { nil }
        }
    }
}

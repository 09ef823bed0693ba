import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// Runs gpsd's own decoder (`gpsdecode`) and compares its TPVs with ours, cycle by cycle.
enum GPSDReference {
    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `../shared/nmea-samples` next to the package; a test that reads it is marked `.sharedSamples`.
    static var sampleDirectory: URL { Machine.sharedSamples }

    /// The project's own fixture logs.
    static var fixtureFiles: [URL] {
        let dir = packageRoot.appendingPathComponent("Tests/Fixtures/NMEA")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".nmea") }.sorted().map { dir.appendingPathComponent($0) }
    }

    /// The path of `gpsdecode`; a test that calls this is marked `.gpsdTools`, so it is skipped where the tool is
    /// missing, except under CI=true, where this fails it.
    static func gpsdecode() throws -> String {
        try #require(Machine.path(of: "gpsdecode"), "gpsdecode is missing: apt-get install gpsd gpsd-clients")
    }

    /// What `gpsdecode` printed for `input`, and its exit status.
    ///
    /// Runs on a thread of its own: waiting for a process on one of the cooperative pool's few threads (two on these
    /// machines) starves every other test's tasks for as long as gpsdecode runs.
    static func runGpsdecode(_ input: [UInt8], tool: String) async throws -> (output: Data, status: Int32) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: tool)
                    let stdin = Pipe()
                    let stdout = Pipe()
                    process.standardInput = stdin
                    process.standardOutput = stdout
                    process.standardError = FileHandle.nullDevice
                    try process.run()
                    // Write from another thread so that a large output cannot block gpsdecode while we still write.
                    let writer = Thread {
                        stdin.fileHandleForWriting.write(Data(input))
                        try? stdin.fileHandleForWriting.close()
                    }
                    writer.start()
                    let output = stdout.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(returning: (output, process.terminationStatus))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }

    /// gpsd's TPVs with a time, grouped by millisecond of day (gpsdecode prints several per cycle).
    static func gpsdTPVs(_ input: [UInt8], tool: String) async throws -> [Int: [[String: Any]]] {
        let (output, status) = try await runGpsdecode(input, tool: tool)
        #expect(status == 0, "gpsdecode exited with \(status)")
        var result: [Int: [[String: Any]]] = [:]
        for line in output.split(separator: UInt8(ascii: "\n")) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                object["class"] as? String == "TPV", let text = object["time"] as? String,
                let time = GNSSTime(iso8601: text)
            else { continue }
            result[time.millisecondOfDay, default: []].append(object)
        }
        return result
    }

    /// The outcome of comparing one input.
    struct Agreement: CustomStringConvertible {
        var name: String
        var gpsdCycles = 0
        var reproduced = 0
        var mismatches: [String] = []
        var ratio: Double { gpsdCycles == 0 ? 1 : Double(reproduced) / Double(gpsdCycles) }
        var description: String {
            "\(name): \(reproduced)/\(gpsdCycles) gpsd cycles reproduced (\(Int((ratio * 1000).rounded()) / 10)%)"
        }
    }

    /// Compares our fixes with gpsd's TPVs: for every time of day gpsd reported, our fix of that time must equal
    /// one of gpsd's TPVs of that time in mode, lat and lon (1e-6°), altMSL, speed and track (1e-3).
    static func compare(_ input: [UInt8], name: String, tool: String) async throws -> Agreement {
        let reference = try await gpsdTPVs(input, tool: tool)
        var ours: [Int: Fix] = [:]
        for event in NMEADecoder.decode(input).events {
            if case .fix(let fix) = event, let time = fix.time, ours[time.millisecondOfDay] == nil {
                ours[time.millisecondOfDay] = fix
            }
        }
        var agreement = Agreement(name: name)
        for (time, tpvs) in reference.sorted(by: { $0.key < $1.key }) {
            agreement.gpsdCycles += 1
            guard let fix = ours[time] else {
                agreement.mismatches.append("\(time): missing")
                continue
            }
            if tpvs.contains(where: { matches(fix, $0) }) {
                agreement.reproduced += 1
            } else {
                agreement.mismatches.append("\(time): ours \(fix) gpsd \(tpvs.last!)")
            }
        }
        return agreement
    }

    private static func close(_ a: Double?, _ b: Any?, _ tolerance: Double) -> Bool {
        let other = (b as? NSNumber)?.doubleValue
        switch (a, other) {
        case (nil, nil): return true
        case (let x?, let y?): return abs(x - y) <= tolerance
        default: return false
        }
    }

    private static func matches(_ fix: Fix, _ tpv: [String: Any]) -> Bool {
        (tpv["mode"] as? Int) == fix.mode.rawValue && close(fix.latitude, tpv["lat"], 1e-6)
            && close(fix.longitude, tpv["lon"], 1e-6) && close(fix.altitudeMSL, tpv["altMSL"], 1.5e-3)
            && close(fix.speed, tpv["speed"], 1.5e-3) && close(fix.track, tpv["track"], 1.5e-3)
    }
}

import Foundation
import GNSSProtocol
import SingletonRegistry
import Synchronization

// TEMPORARY: a stand-in for `LocationManager.start(_:)`/`stop()`, which the lead is adding on main. It replays
// in-memory and file NMEA only, so that the daemon runs end to end until then. Delete this file when merging main
// brings the real methods.

/// The replay task of the stand-in source.
enum PendingSourceStart {
    static let task = Mutex<Task<Void, Never>?>(nil)
}

/// Why the stand-in cannot open a source.
struct PendingSourceError: Error, CustomStringConvertible {
    var description: String
}

extension LocationManager {
    /// Starts replaying `source` (stand-in: NMEA replay and files only).
    func start(_ source: LocationSource) async throws {
        let bytes: [UInt8]
        let device: String
        let pacing: ReplayPacing
        let loops: Bool
        switch source {
        case .nmeaReplay(let name, let data, let replayPacing, let loop):
            (bytes, device, pacing, loops) = (data, name, replayPacing, loop)
        case .nmeaFile(let path, let replayPacing):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw PendingSourceError(description: "cannot open \(path): \(String(cString: strerror(errno)))")
            }
            (bytes, device, pacing, loops) = (Array(data), path, replayPacing, false)
        default:
            throw PendingSourceError(description: "this source is not available yet")
        }
        transition(to: .waitingForFix(source: source.description))
        let fixes = NMEADecoder.decode(bytes, device: device).events.compactMap { event -> Fix? in
            if case .fix(let fix) = event { fix } else { nil }
        }
        let name = source.description
        let task = Task { [weak self] in
            guard let first = fixes.first?.time, let last = fixes.last?.time else { return }
            let passLength = last.millisecondsSince1970 - first.millisecondsSince1970 + 1_000
            var offset: Int64 = 0
            var previous: Int64?
            repeat {
                for var fix in fixes {
                    if let time = fix.time {
                        fix.time = GNSSTime(millisecondsSince1970: time.millisecondsSince1970 + offset)
                        if case .timestamps(let speed) = pacing, let previous {
                            let gap = fix.time!.millisecondsSince1970 - previous
                            if gap > 0 {
                                do {
                                    try await Task.sleep(for: .milliseconds(Double(gap) / max(speed, 0.001)))
                                } catch {
                                    return
                                }
                            }
                        }
                        previous = fix.time!.millisecondsSince1970
                    }
                    if Task.isCancelled { return }
                    guard let manager = self else { return }
                    manager.deliver(fix)
                    manager.transition(
                        to: fix.mode.hasPosition ? .fixed(source: name) : .waitingForFix(source: name))
                }
                offset += passLength
            } while loops && !Task.isCancelled
        }
        PendingSourceStart.task.withLock { $0 = task }
    }

    /// Stops the replay.
    func stop() async {
        let task = PendingSourceStart.task.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
        transition(to: .idle)
    }
}

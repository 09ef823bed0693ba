import GNSSLocation
import GNSSProtocol
import SingletonRegistry

/// A snapshot of the daemon for `{"cmd":"status"}`, taken on the registry's actor in one step.
package struct StatusReport: Sendable {
    /// Every key the registry holds, by name, and whether its value is live or replaced.
    package var managers: [SingletonEntry]
    /// The location manager's state.
    package var locationState: LocationState
    /// The source the daemon was started on, named as its reports name the device (`tcp://HOST:PORT`, `demo`, a
    /// path): the status's `source`, its fix's `device`, and the source in its `description`.
    package var device: String
    /// The last fix, if any.
    package var lastFix: Fix?
    /// The latest satellite view, if any.
    package var satellites: SkyView?
    /// The long-task manager's state.
    package var taskState: LongTaskState
    /// The number of control clients and of watchers.
    package var clients: (connected: Int, watching: Int)
    /// The gpsd-protocol listener's clients and dropped reports, when it runs.
    package var listener: GPSDListenerStatistics?

    /// Reads the registry.
    @RegistryActor
    package static func take(device: String, clients: (Int, Int)) -> StatusReport {
        let singletons = appSingletons
        let location = singletons.locationManager
        return StatusReport(
            managers: singletons.entries,
            locationState: location.state, device: device, lastFix: location.untrackedLastFix,
            satellites: location.satellites, taskState: singletons.longTaskManager.state, clients: clients)
    }

    /// `{"class":"STATUS",...}` and a newline.
    package var jsonLine: [UInt8] {
        var writer = JSONObjectWriter()
        writer.string("class", "STATUS")
        writer.string("version", Singletond.version)
        writer.object("managers") { managers in
            for entry in self.managers { managers.string(entry.name, entry.isLive ? "live" : "overridden") }
        }
        writer.object("location") { location in
            location.string("state", locationState.name)
            location.string("description", locationState.description(naming: device))
            location.string("source", device)
            if let lastFix {
                var tpv: [UInt8] = []
                GPSDJSONWriter.appendTPV(lastFix, device: device, newline: false, to: &tpv)
                location.raw("fix", tpv)
            } else {
                location.null("fix")
            }
            if let satellites {
                location.int("nSat", satellites.satellitesInView)
                location.int("uSat", satellites.satellitesUsed)
            }
        }
        writer.object("task") { task in
            task.string("state", Self.stateName(taskState))
            if let name = Self.taskName(taskState) { task.string("name", name) } else { task.null("name") }
            task.number("progress", taskState.progress, decimals: 3)
            task.bool("isTaskDone", taskState.isTaskDone)
            if case .failed(_, let message) = taskState { task.string("message", message) }
        }
        writer.object("clients") { object in
            object.int("connected", clients.connected)
            object.int("watching", clients.watching)
        }
        if let listener {
            writer.object("gpsd") { object in
                object.int("connected", listener.clients)
                object.int("watching", listener.watching)
                object.int("droppedReports", listener.droppedReports)
            }
        }
        return writer.finish()
    }

    /// A one-line summary for `STATUS=` of sd_notify.
    package var summary: String {
        var text = locationState.description(naming: device)
        if let fix = lastFix, fix.mode.hasPosition, let lat = fix.latitude, let lon = fix.longitude {
            var bytes: [UInt8] = []
            GPSDJSONWriter.appendFixed(lat, decimals: 6, to: &bytes)
            bytes.append(UInt8(ascii: " "))
            GPSDJSONWriter.appendFixed(lon, decimals: 6, to: &bytes)
            text += ", \(fix.mode) \(String(decoding: bytes, as: UTF8.self))"
        }
        return text + "; task " + taskState.description
    }

    static func stateName(_ state: LongTaskState) -> String {
        switch state {
        case .idle: "idle"
        case .running: "running"
        case .finished: "finished"
        case .cancelled: "cancelled"
        case .failed: "failed"
        }
    }

    static func taskName(_ state: LongTaskState) -> String? {
        switch state {
        case .idle: nil
        case .running(let name, _), .finished(let name), .cancelled(let name), .failed(let name, _): name
        }
    }
}

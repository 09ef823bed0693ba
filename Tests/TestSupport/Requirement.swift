import Foundation
import Testing

/// A part of the machine a test needs: a tool, a directory.
public struct Requirement: Sendable {
    /// What is needed, for the skip message.
    public let description: String
    /// How to get it.
    public let remedy: String
    /// Whether the machine has it.
    public let isMet: @Sendable () -> Bool

    /// An executable on the `PATH`, from the Debian package `package`.
    public static func tool(_ name: String, package: String) -> Requirement {
        Requirement(description: name, remedy: "apt-get install \(package)") { Machine.path(of: name) != nil }
    }

    /// An executable at `path` exactly, from the Debian package `package`: for a program another user must be able
    /// to run, where the first one on the `PATH` may live in a directory closed to them (a pyenv shim under /root).
    public static func executable(_ path: String, package: String) -> Requirement {
        Requirement(description: path, remedy: "apt-get install \(package)") {
            FileManager.default.isExecutableFile(atPath: path)
        }
    }

    /// gpsd's tools: gpsfake runs a real gpsd (package gpsd) on a log, gpspipe listens to it, gpsdecode is gpsd's
    /// own decoder.
    public static let gpsdTools: [Requirement] = ["gpsd", "gpsfake", "gpspipe", "gpsdecode"].map {
        tool($0, package: "gpsd gpsd-clients")
    }

    /// Debian's `python3-gps`: the `gps` module of the system's Python, as `/usr/bin/python3 -c 'import gps'` finds
    /// it (a Python on the `PATH`, a pyenv one, may not have it).
    public static let pythonGPS = Requirement(
        description: "python3-gps (/usr/bin/python3 -c 'import gps')", remedy: "apt-get install python3-gps"
    ) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import gps"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// tmux, to run a curses client (`cgps`) on a screen a test reads with `capture-pane`.
    public static let tmux = tool("tmux", package: "tmux")

    /// `cgps`, gpsd's curses client.
    public static let cgps = tool("cgps", package: "gpsd-clients")

    /// Root, for tests that hand a file to another user (`nobody`) to play a hostile co-tenant.
    public static let root = Requirement(description: "root", remedy: "run the tests as root, as CI does") {
        geteuid() == 0
    }

    /// The shared receiver logs in `../shared/nmea-samples`.
    public static let sharedSamples = Requirement(
        description: Machine.sharedSamples.path, remedy: "the shared NMEA samples live beside the package"
    ) { FileManager.default.fileExists(atPath: Machine.sharedSamples.path) }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where the machine meets `requirements`; elsewhere Swift Testing reports it as skipped,
    /// naming what is missing.
    ///
    /// Under `CI=true` the test always runs, so that a missing part fails it (its `#require` of the tool or file)
    /// instead of skipping: CI must have everything.
    public static func requires(_ requirements: [Requirement]) -> Self {
        let missing = requirements.filter { !$0.isMet() }
        var remedies: [String] = []
        for requirement in missing where !remedies.contains(requirement.remedy) { remedies.append(requirement.remedy) }
        let names = missing.map(\.description).joined(separator: ", ")
        return .enabled(
            if: Machine.isCI || missing.isEmpty,
            Comment(rawValue: "needs \(names) (\(remedies.joined(separator: "; ")))"))
    }

    /// ``requires(_:)`` gpsd's tools.
    public static var gpsdTools: Self { requires(Requirement.gpsdTools) }

    /// ``requires(_:)`` root.
    public static var root: Self { requires([Requirement.root]) }

    /// ``requires(_:)`` the shared receiver logs.
    public static var sharedSamples: Self { requires([Requirement.sharedSamples]) }
}

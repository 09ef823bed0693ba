import Foundation

/// What the machine the tests run on has: the CI flag, tools on the `PATH`, the shared sample logs.
public enum Machine {
    /// Whether the tests run in CI (`CI=true`), where every required part must be present.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The path of the executable `name` on the `PATH` (or in /usr/sbin), or `nil`.
    public static func path(of name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + ["/usr/sbin"]
        where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        return nil
    }

    /// The package's root directory.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/nmea-samples`, the real receiver logs beside the package (CI has them; they are not copied in).
    public static let sharedSamples = packageRoot.deletingLastPathComponent().appendingPathComponent(
        "shared/nmea-samples")

    /// The path of the shared sample log `name`.
    public static func sharedSample(_ name: String) -> String { sharedSamples.appendingPathComponent(name).path }
}

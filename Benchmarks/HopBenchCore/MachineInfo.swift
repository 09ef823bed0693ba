import Foundation

/// The machine and toolchain a report was measured with.
public struct MachineInfo: Sendable, Codable, Equatable {
    /// `model name` from /proc/cpuinfo.
    public var cpuModel: String
    /// Logical CPUs online.
    public var logicalCores: Int
    /// Logical CPUs this process may use.
    public var activeCores: Int
    /// Kernel name, release and architecture from `uname`.
    public var kernel: String
    /// Physical memory, in MiB.
    public var memoryMiB: Int
    /// The 1-minute load average when the suite started: other work on the machine skews the figures.
    public var loadAverage: Double
    /// The compiler version range this binary was built with, from `#if compiler(...)`.
    public var compiler: String
    /// `release` or `debug`.
    public var buildConfiguration: String

    /// Facts given directly (tests, synthetic reports).
    public init(
        cpuModel: String,
        logicalCores: Int,
        activeCores: Int,
        kernel: String,
        memoryMiB: Int,
        loadAverage: Double,
        compiler: String,
        buildConfiguration: String
    ) {
        self.cpuModel = cpuModel
        self.logicalCores = logicalCores
        self.activeCores = activeCores
        self.kernel = kernel
        self.memoryMiB = memoryMiB
        self.loadAverage = loadAverage
        self.compiler = compiler
        self.buildConfiguration = buildConfiguration
    }

    /// Reads the facts of the running machine.
    public static func current() -> MachineInfo {
        let info = ProcessInfo.processInfo
        return MachineInfo(
            cpuModel: cpuModel() ?? "unknown",
            logicalCores: info.processorCount,
            activeCores: info.activeProcessorCount,
            kernel: kernel(),
            memoryMiB: Int(info.physicalMemory / 1_048_576),
            loadAverage: loadAverage(),
            compiler: compilerVersion,
            buildConfiguration: buildConfiguration
        )
    }

    static func cpuModel() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    static func kernel() -> String {
        var name = utsname()
        uname(&name)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        }
        return "\(field(name.sysname)) \(field(name.release)) \(field(name.machine))"
    }

    static func loadAverage() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
            let first = text.split(separator: " ").first
        else { return 0 }
        return Double(first) ?? 0
    }

    static var buildConfiguration: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }

    static var compilerVersion: String {
        #if compiler(>=6.5)
            "Swift >= 6.5"
        #elseif compiler(>=6.4)
            "Swift 6.4.x"
        #elseif compiler(>=6.3.2)
            "Swift 6.3.2+"
        #elseif compiler(>=6.3.1)
            "Swift 6.3.1"
        #elseif compiler(>=6.3)
            "Swift 6.3.0"
        #else
            "Swift < 6.3"
        #endif
    }

    /// The lines printed before any figure.
    public var description: String {
        """
        machine:   \(cpuModel), \(logicalCores) logical cores (\(activeCores) usable), \(memoryMiB) MiB, \
        load \(loadAverage)
        kernel:    \(kernel)
        toolchain: \(compiler) (compile-time), \(buildConfiguration) build
        """
    }
}

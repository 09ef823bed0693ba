// swift-tools-version: 6.2
import PackageDescription

/// SingletonRegistry names no package dependency: the Swift toolchain is all it builds on.
let package = Package(
    name: "SingletonRegistry",
    products: [
        .library(name: "SingletonRegistry", targets: ["SingletonRegistry", "GNSSProtocol"]),
        .library(name: "SingletonRegistryTesting", targets: ["SingletonRegistryTesting"]),
        .executable(name: "singletond", targets: ["singletond"]),
        .executable(name: "hop-bench", targets: ["HopBench"]),
    ],
    targets: [
        // Pure protocol code: NMEA 0183 and gpsd JSON. Value types, no isolation, no Foundation.
        .target(name: "GNSSProtocol"),
        // The registry's global actor, AppSingletons and the managers it holds.
        .target(name: "SingletonRegistry", dependencies: ["GNSSProtocol"]),
        // Swift Testing support: the `.singletons` trait and ready mocks.
        .target(name: "SingletonRegistryTesting", dependencies: ["SingletonRegistry"]),
        // The daemon's parts (command line, control socket, output, signals), testable as a library.
        .target(name: "SingletonDaemon", dependencies: ["SingletonRegistry", "GNSSProtocol"]),
        .executableTarget(name: "singletond", dependencies: ["SingletonDaemon"]),
        // hop-bench's harness (runner, histogram, report, baseline check), a library so tests can reach it.
        .target(name: "HopBenchCore", path: "Benchmarks/HopBenchCore"),
        .executableTarget(
            name: "HopBench",
            dependencies: ["SingletonRegistry", "GNSSProtocol", "HopBenchCore"],
            path: "Benchmarks/HopBench"
        ),
        .testTarget(name: "GNSSProtocolTests", dependencies: ["GNSSProtocol"]),
        .testTarget(
            name: "SingletonRegistryTests",
            dependencies: ["SingletonRegistry", "SingletonRegistryTesting"]
        ),
        .testTarget(
            name: "SingletonDaemonTests",
            dependencies: ["SingletonDaemon", "SingletonRegistryTesting"]
        ),
        .testTarget(name: "HopBenchTests", dependencies: ["HopBenchCore"]),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.2
import PackageDescription

/// SingletonRegistry names no package dependency: the Swift toolchain is all it builds on.
let package = Package(
    name: "SingletonRegistry",
    products: [
        .library(name: "SingletonRegistry", targets: ["SingletonRegistry"]),
        .library(name: "SingletonRegistryTesting", targets: ["SingletonRegistryTesting"]),
        .library(name: "GNSSLocation", targets: ["GNSSLocation", "GNSSProtocol"]),
        .library(name: "GNSSLocationTesting", targets: ["GNSSLocationTesting"]),
        .executable(name: "singletond", targets: ["singletond"]),
    ],
    targets: [
        // Pure protocol code: NMEA 0183 and gpsd JSON. Value types, no isolation, no Foundation.
        .target(name: "GNSSProtocol"),
        // Every system call the package makes, with Errno, the retry on EINTR, poll timeouts and thread start: what
        // porting to another platform changes. Package-internal, no product.
        .target(name: "SystemCalls"),
        // The registry: its global actor, AppSingletons, the keys users declare, override scopes, LongTaskManager.
        // Portable by construction: no system module, only the standard library, Observation and Synchronization.
        .target(name: "SingletonRegistry"),
        // Swift Testing support for the registry: the `.singletons` trait, escape reports and ready mocks.
        .target(name: "SingletonRegistryTesting", dependencies: ["SingletonRegistry"]),
        // LocationManager and its transports (gpsd, NMEA over file, serial, TCP): a registry key declared the way a
        // user declares one. The only module of the registry's products that makes system calls (through SystemCalls).
        .target(name: "GNSSLocation", dependencies: ["SingletonRegistry", "GNSSProtocol", "SystemCalls"]),
        // Swift Testing support for GNSSLocation: a LocationManager that plays scripted fixes.
        .target(name: "GNSSLocationTesting", dependencies: ["GNSSLocation", "SingletonRegistryTesting"]),
        // The daemon's parts (command line, control socket, output, signals), testable as a library.
        .target(
            name: "SingletondCore", dependencies: ["SingletonRegistry", "GNSSLocation", "GNSSProtocol", "SystemCalls"]
        ),
        .executableTarget(name: "singletond", dependencies: ["SingletondCore"]),
        // What the test targets share: the machine's required parts as Swift Testing conditions, child processes,
        // a loopback TCP peer, temporary paths and descriptor helpers. SingletonRegistry lends its SanitizerVisibleMutex.
        .target(name: "TestSupport", dependencies: ["SingletonRegistry", "SystemCalls"], path: "Tests/TestSupport"),
        .testTarget(name: "GNSSProtocolTests", dependencies: ["GNSSProtocol", "TestSupport"]),
        // System.writeAll and PollTimeout, against pipes and sockets.
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls", "TestSupport"]),
        .testTarget(
            name: "SingletonRegistryTests",
            dependencies: [
                "SingletonRegistry", "SingletonRegistryTesting", "GNSSLocation", "GNSSLocationTesting", "TestSupport",
            ]
        ),
        // LocationManager and its transports, against real peers: gpsd under gpsfake, pseudo-terminals, TCP.
        .testTarget(
            name: "GNSSLocationTests",
            dependencies: [
                "GNSSLocation", "GNSSProtocol", "GNSSLocationTesting", "SingletonRegistry", "SingletonRegistryTesting",
                "TestSupport",
            ]
        ),
        .testTarget(
            name: "SingletondCoreTests",
            dependencies: [
                "SingletondCore", "SingletonRegistryTesting", "GNSSLocationTesting", "SystemCalls", "TestSupport",
            ]
        ),
        // The README's and the DocC articles' code, compiled as a user's: without package access, so it sees only
        // what the products make public, and fails to build when something it uses stops being public.
        .testTarget(
            name: "PublicAPITests",
            dependencies: [
                "SingletonRegistry", "SingletonRegistryTesting", "GNSSLocation", "GNSSProtocol", "GNSSLocationTesting",
            ],
            packageAccess: false
        ),
    ],
    swiftLanguageModes: [.v6]
)

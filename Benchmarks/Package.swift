// swift-tools-version: 6.2
import PackageDescription

/// hop-bench: what actor hops and the registry's hot paths cost. A package of its own that uses the root package by
/// path, as a user's does, so that the root's products are the libraries and `singletond` only. It names no other
/// dependency; `Peers/` (SingletonRegistry beside swift-dependencies and Swinject) is a package beside it that uses
/// its `HopBenchCore`.
let package = Package(
    name: "Benchmarks",
    products: [
        .executable(name: "hop-bench", targets: ["HopBench"]),
        // hop-bench's read cases in a test process (it links SingletonRegistryTesting), apart from hop-bench.
        .executable(name: "test-scope-bench", targets: ["TestScopeBench"]),
        // The harness, as a product so that Peers measures with it.
        .library(name: "HopBenchCore", targets: ["HopBenchCore"]),
    ],
    dependencies: [.package(name: "SingletonRegistry", path: "..")],
    targets: [
        // The harness: runner, histogram, allocation counts, report, baseline and ratio checks.
        .target(name: "HopBenchCore", path: "HopBenchCore"),
        // hop-bench's cases, one file each.
        .executableTarget(
            name: "HopBench",
            dependencies: [
                "HopBenchCore",
                .product(name: "SingletonRegistry", package: "SingletonRegistry"),
                .product(name: "GNSSLocation", package: "SingletonRegistry"),
            ],
            path: "HopBench"
        ),
        .executableTarget(
            name: "TestScopeBench",
            dependencies: [
                "HopBenchCore",
                .product(name: "SingletonRegistry", package: "SingletonRegistry"),
                .product(name: "SingletonRegistryTesting", package: "SingletonRegistry"),
            ],
            path: "TestScopeBench"
        ),
        .testTarget(name: "HopBenchTests", dependencies: ["HopBenchCore"]),
    ],
    swiftLanguageModes: [.v6]
)

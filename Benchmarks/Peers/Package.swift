// swift-tools-version: 6.2
import PackageDescription

/// peers-bench: SingletonRegistry measured beside swift-dependencies and Swinject, in one process, with hop-bench's
/// harness (`HopBenchCore`, from the Benchmarks package in the folder above). A package of its own, so that neither
/// the root package nor the Benchmarks package names a dependency beyond the toolchain.
let package = Package(
    name: "Peers",
    products: [.executable(name: "peers-bench", targets: ["PeersBench"])],
    dependencies: [
        .package(name: "SingletonRegistry", path: "../.."),
        .package(name: "Benchmarks", path: ".."),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "PeersBench",
            dependencies: [
                .product(name: "SingletonRegistry", package: "SingletonRegistry"),
                .product(name: "HopBenchCore", package: "Benchmarks"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.2
import PackageDescription

/// peers-bench: SingletonRegistry measured beside swift-dependencies and Swinject, in one process, with hop-bench's
/// harness. A package of its own, so the root package keeps its zero dependencies.
let package = Package(
    name: "Peers",
    products: [.executable(name: "peers-bench", targets: ["PeersBench"])],
    dependencies: [
        .package(name: "SingletonRegistry", path: "../.."),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "PeersBench",
            dependencies: [
                .product(name: "SingletonRegistry", package: "SingletonRegistry"),
                .product(name: "HopBenchCore", package: "SingletonRegistry"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)

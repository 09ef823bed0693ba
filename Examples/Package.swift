// swift-tools-version: 6.2
import PackageDescription

/// An app module that declares singletons of its own in SingletonRegistry, and the Swift Testing suite that
/// replaces them: the registry as a user adopts it. It depends on the package in the folder above and on nothing
/// else.
let package = Package(
    name: "Examples",
    dependencies: [.package(name: "SingletonRegistry", path: "..")],
    targets: [
        .target(
            name: "WeatherStation",
            dependencies: [
                .product(name: "SingletonRegistry", package: "SingletonRegistry"),
                .product(name: "GNSSLocation", package: "SingletonRegistry"),
            ]
        ),
        .testTarget(
            name: "WeatherStationTests",
            dependencies: [
                "WeatherStation",
                .product(name: "SingletonRegistryTesting", package: "SingletonRegistry"),
                .product(name: "GNSSLocationTesting", package: "SingletonRegistry"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

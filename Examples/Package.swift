// swift-tools-version: 6.2
import PackageDescription

/// An app module that declares singletons of its own in SingletonRegistry, and the Swift Testing suite that
/// replaces them: the registry as a user adopts it. It depends on the package in the folder above and on nothing
/// else.
/// What a new app target of Xcode 26 turns on.
let xcode26AppSettings: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

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
        // A module built with the settings of an app made with Xcode 26: main-actor isolation by default, nonisolated
        // async functions running on their caller's actor, and conformances isolated as their types are.
        .target(
            name: "NewAppStation",
            dependencies: [.product(name: "SingletonRegistry", package: "SingletonRegistry")],
            swiftSettings: xcode26AppSettings
        ),
        .testTarget(
            name: "NewAppStationTests",
            dependencies: [
                "NewAppStation", .product(name: "SingletonRegistryTesting", package: "SingletonRegistry"),
            ],
            swiftSettings: xcode26AppSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.2
import PackageDescription

/// A user's program that reads the registry from nonisolated code through every public spelling while other tasks
/// enter and leave scopes. scripts/read-race builds it in release mode under the thread sanitizer.
let package = Package(
    name: "ReadRace",
    dependencies: [.package(name: "SingletonRegistry", path: "../../..")],
    targets: [
        .executableTarget(
            name: "ReadRace", dependencies: [.product(name: "SingletonRegistry", package: "SingletonRegistry")])
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.2
import PackageDescription

/// A user's program that hammers the interleavings of scopes that end while their tasks run: every value tagged with
/// the scope that set it. scripts/scope-race builds it in release, in release under the thread sanitizer, and in
/// debug under the address sanitizer.
let package = Package(
    name: "ScopeRace",
    dependencies: [.package(name: "SingletonRegistry", path: "../../..")],
    targets: [
        .executableTarget(
            name: "ScopeRace", dependencies: [.product(name: "SingletonRegistry", package: "SingletonRegistry")])
    ],
    swiftLanguageModes: [.v6]
)

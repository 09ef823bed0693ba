import Dependencies
import SingletonRegistry

// Twenty keys of plain values in each library, for the cases that read the last of twenty. The registry's keys
// and swift-dependencies' keys are separate types: a `SingletonKey`'s `liveValue` is isolated to `RegistryActor`,
// a `DependencyKey`'s is not.

enum Filler01Key: SingletonKey { static var liveValue: Int { 1 } }
enum Filler02Key: SingletonKey { static var liveValue: Int { 2 } }
enum Filler03Key: SingletonKey { static var liveValue: Int { 3 } }
enum Filler04Key: SingletonKey { static var liveValue: Int { 4 } }
enum Filler05Key: SingletonKey { static var liveValue: Int { 5 } }
enum Filler06Key: SingletonKey { static var liveValue: Int { 6 } }
enum Filler07Key: SingletonKey { static var liveValue: Int { 7 } }
enum Filler08Key: SingletonKey { static var liveValue: Int { 8 } }
enum Filler09Key: SingletonKey { static var liveValue: Int { 9 } }
enum Filler10Key: SingletonKey { static var liveValue: Int { 10 } }
enum Filler11Key: SingletonKey { static var liveValue: Int { 11 } }
enum Filler12Key: SingletonKey { static var liveValue: Int { 12 } }
enum Filler13Key: SingletonKey { static var liveValue: Int { 13 } }
enum Filler14Key: SingletonKey { static var liveValue: Int { 14 } }
enum Filler15Key: SingletonKey { static var liveValue: Int { 15 } }
enum Filler16Key: SingletonKey { static var liveValue: Int { 16 } }
enum Filler17Key: SingletonKey { static var liveValue: Int { 17 } }
enum Filler18Key: SingletonKey { static var liveValue: Int { 18 } }
enum Filler19Key: SingletonKey { static var liveValue: Int { 19 } }
enum Filler20Key: SingletonKey { static var liveValue: Int { 20 } }

enum Filler01Dependency: DependencyKey { static var liveValue: Int { 1 } }
enum Filler02Dependency: DependencyKey { static var liveValue: Int { 2 } }
enum Filler03Dependency: DependencyKey { static var liveValue: Int { 3 } }
enum Filler04Dependency: DependencyKey { static var liveValue: Int { 4 } }
enum Filler05Dependency: DependencyKey { static var liveValue: Int { 5 } }
enum Filler06Dependency: DependencyKey { static var liveValue: Int { 6 } }
enum Filler07Dependency: DependencyKey { static var liveValue: Int { 7 } }
enum Filler08Dependency: DependencyKey { static var liveValue: Int { 8 } }
enum Filler09Dependency: DependencyKey { static var liveValue: Int { 9 } }
enum Filler10Dependency: DependencyKey { static var liveValue: Int { 10 } }
enum Filler11Dependency: DependencyKey { static var liveValue: Int { 11 } }
enum Filler12Dependency: DependencyKey { static var liveValue: Int { 12 } }
enum Filler13Dependency: DependencyKey { static var liveValue: Int { 13 } }
enum Filler14Dependency: DependencyKey { static var liveValue: Int { 14 } }
enum Filler15Dependency: DependencyKey { static var liveValue: Int { 15 } }
enum Filler16Dependency: DependencyKey { static var liveValue: Int { 16 } }
enum Filler17Dependency: DependencyKey { static var liveValue: Int { 17 } }
enum Filler18Dependency: DependencyKey { static var liveValue: Int { 18 } }
enum Filler19Dependency: DependencyKey { static var liveValue: Int { 19 } }
enum Filler20Dependency: DependencyKey { static var liveValue: Int { 20 } }

/// Makes each library hold its twenty filler keys in order, the twentieth last.
enum FillerKeys {
    /// The registry's process-wide container declares its twenty keys.
    @RegistryActor
    static func declareInRegistry() {
        appSingletons.declare(
            Filler01Key.self, Filler02Key.self, Filler03Key.self, Filler04Key.self, Filler05Key.self, Filler06Key.self,
            Filler07Key.self, Filler08Key.self, Filler09Key.self, Filler10Key.self, Filler11Key.self, Filler12Key.self,
            Filler13Key.self, Filler14Key.self, Filler15Key.self, Filler16Key.self, Filler17Key.self, Filler18Key.self,
            Filler19Key.self, Filler20Key.self
        )
    }

    /// swift-dependencies caches the live value of each of its twenty keys, as it does on a key's first read.
    static func readAllDependencies() -> Int {
        let values = DependencyValues._current
        return values[Filler01Dependency.self] &+ values[Filler02Dependency.self] &+ values[Filler03Dependency.self]
            &+ values[Filler04Dependency.self]
            &+ values[Filler05Dependency.self] &+ values[Filler06Dependency.self] &+ values[Filler07Dependency.self]
            &+ values[Filler08Dependency.self]
            &+ values[Filler09Dependency.self] &+ values[Filler10Dependency.self] &+ values[Filler11Dependency.self]
            &+ values[Filler12Dependency.self]
            &+ values[Filler13Dependency.self] &+ values[Filler14Dependency.self] &+ values[Filler15Dependency.self]
            &+ values[Filler16Dependency.self]
            &+ values[Filler17Dependency.self] &+ values[Filler18Dependency.self] &+ values[Filler19Dependency.self]
            &+ values[Filler20Dependency.self]
    }
}

import SingletonRegistry

// Twenty keys of plain values, for the cases that read the last of twenty.

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

/// Makes a container hold the twenty filler keys in order.
enum FillerKeys {
    @RegistryActor
    static func declareAll(in singletons: AppSingletons) {
        singletons.declare(
            Filler01Key.self, Filler02Key.self, Filler03Key.self, Filler04Key.self, Filler05Key.self, Filler06Key.self,
            Filler07Key.self, Filler08Key.self, Filler09Key.self, Filler10Key.self, Filler11Key.self, Filler12Key.self,
            Filler13Key.self, Filler14Key.self, Filler15Key.self, Filler16Key.self, Filler17Key.self, Filler18Key.self,
            Filler19Key.self, Filler20Key.self
        )
    }
}

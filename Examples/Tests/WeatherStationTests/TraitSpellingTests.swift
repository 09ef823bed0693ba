import SingletonRegistry
import SingletonRegistryTesting
import Testing
import WeatherStation

/// The trait's other spellings, and a parameterised test that gives each argument its own value.
@Suite struct TraitSpellingTests {
    @Test(.singleton(StationConfigurationKey.self, StationConfiguration(name: "one key", maxTripPoints: 1)))
    func oneKeyReplaced() async {
        #expect(await appSingletons.stationConfiguration.name == "one key")
    }

    @Test(
        .singletons {
            await Task.yield()
            $0.stationConfiguration = StationConfiguration(name: "after a suspension", maxTripPoints: 1)
        })
    func anAsyncConfiguration() async {
        #expect(await appSingletons.stationConfiguration.name == "after a suspension")
    }

    /// The trait's values are the same for every argument; a value made from the argument is set in the body.
    @Test(arguments: ["north", "south"])
    func eachArgumentGetsItsOwnValue(name: String) async {
        await withSingletons({ $0.stationConfiguration = StationConfiguration(name: name, maxTripPoints: 1) }) {
            #expect(await appSingletons.stationConfiguration.name == name)
        }
    }
}

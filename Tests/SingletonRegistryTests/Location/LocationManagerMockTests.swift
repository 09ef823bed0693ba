import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import Testing

/// Like `ScriptedLocationManagerTraitTests`, this replaces `locationManager` with the trait, so it runs serialized
/// inside `EscapedReadTests`, whose deliberate escaped reads would otherwise be reported here.
extension EscapedReadTests {
    /// A test's own subclass of `LocationManager` replaces the shared one for the code under test.
    @Suite struct LocationManagerMockTests {
        /// Code under test: starts the shared location manager on gpsd and returns the first `count` positions.
        @RegistryActor
        static func firstPositions(_ count: Int) async throws -> [Double] {
            let manager = appSingletons.locationManager
            let updates = manager.updates()
            try await manager.start(.gpsd())
            var latitudes: [Double] = []
            for await update in updates {
                latitudes.append(update.fix.latitude ?? .nan)
                if latitudes.count == count { break }
            }
            return latitudes
        }

        @Test(.singletons { $0.locationManager = LocationManagerMock() }) @RegistryActor
        func theCodeUnderTestReadsTheFixesTheMockIsFed() async throws {
            let mock = try #require(appSingletons.locationManager as? LocationManagerMock)
            let positions = Task { try await Self.firstPositions(3) }
            for await _ in mock.starts { break }
            #expect(mock.requestedSources == [.gpsd()], "nothing was opened: the mock only recorded the request")
            let fixes = (1...3).map { n in
                Fix(
                    mode: .threeD, time: GNSSTime(millisecondsSince1970: 1_795_348_800_000 + Int64(n) * 1_000),
                    latitude: 47 + Double(n) / 1_000, longitude: 8)
            }
            mock.feed(fixes)
            #expect(try await positions.value == [47.001, 47.002, 47.003])
            #expect(mock.lastFix == fixes.last)
            #expect(mock.state.name == "fixed")
        }
    }
}

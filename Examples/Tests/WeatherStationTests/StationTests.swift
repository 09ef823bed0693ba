import GNSSLocation
import GNSSLocationTesting
import SingletonRegistry
import SingletonRegistryTesting
import Testing
import WeatherStation

/// The station's singletons replaced the four ways a test can: the trait, a scope, one endpoint, one instance,
/// and the whole process-wide container.
@Suite(.timeLimit(.minutes(1))) struct StationTests {
    /// The trait: the location manager plays two fixes, the recorder records them, the report reads them.
    @Test(
        .singletons {
            $0.locationManager = ScriptedLocationManager(script: [oslo, bergen])
            $0.tripRecorder = RecordingTripRecorder()
            $0.forecastClient.forecast = { latitude, _ in latitude > 60 ? "rain" : "sun" }
        })
    func theReportDescribesTheLatestRecordedPosition() async throws {
        let recorder = try #require(await appSingletons.tripRecorder as? RecordingTripRecorder)
        try await appSingletons.start()
        try await appSingletons.locationManager.start(.gpsd())
        for await count in recorder.counts where count == 2 { break }
        #expect(try await StationReport().line() == "test bench: rain (2 points)")
    }

    /// One endpoint of the struct of closures replaced; the others are the test value's, which are unimplemented:
    /// calling one records an issue that names it, never the live service.
    @Test(.singletons { $0.forecastClient.alerts = { ["gale warning"] } })
    func oneEndpointIsReplaced() async throws {
        let client = await appSingletons.forecastClient
        #expect(try await client.alerts() == ["gale warning"])
        await withKnownIssue {
            _ = try? await client.forecast(1, 2)
        } matching: { issue in
            "\(issue)".contains("Unimplemented: ForecastClient.forecast")
        }
    }

    /// The property wrapper's projected value replaces the value for one object only.
    @Test @RegistryActor
    func onePropertyIsOverriddenForOneInstance() async throws {
        let recorder = RecordingTripRecorder()
        recorder.record(oslo)
        let report = StationReport()
        report.$trip.override = recorder
        report.$configuration.override = StationConfiguration(name: "test bench", maxTripPoints: 10)
        report.$forecasts.override = ForecastClient(forecast: { _, _ in "fog" }, alerts: { [] })
        #expect(try await report.line() == "test bench: fog (1 points)")
        #expect(try await StationReport().line() == nil, "another report reads the shared recorder")
    }

    /// Seed style: a value replaced process-wide, then its live value put back. Simple, but every test that reads
    /// a value this one replaces without replacing it itself sees it while the test runs. This one never suspends,
    /// so no other test runs on the actor between its assignment and its restore.
    @Test @RegistryActor
    func seedStyleReplacesAProcessWideValue() {
        defer { appSingletons.restoreLiveValue(of: StationConfigurationKey.self) }
        appSingletons.stationConfiguration = StationConfiguration(name: "seeded", maxTripPoints: 1)
        #expect(appSingletons.stationConfiguration.name == "seeded")
        #expect(appSingletons.entries.contains(SingletonEntry(name: "stationConfiguration", isLive: false)))
    }

    /// The recorder depends on the location manager: it starts after it and stops before it.
    @Test @RegistryActor
    func theRecorderStartsAfterTheLocationManager() async throws {
        let recorder = RecordingTripRecorder()
        let singletons = AppSingletons {
            $0.tripRecorder = recorder
            $0.locationManager = ScriptedLocationManager(script: [])
        }
        try await singletons.start()
        #expect(recorder.starts == 1 && recorder.isRecording)
        await singletons.shutdown()
        #expect(!recorder.isRecording)
        let missing = AppSingletons { $0.tripRecorder = RecordingTripRecorder() }
        await #expect(
            throws: SingletonLifecycleError.undeclaredDependency(key: "tripRecorder", dependency: "locationManager")
        ) {
            try await missing.start()
        }
    }

    /// A user's own location manager mock drives the state and the fixes the recorder sees, and a report made
    /// from a nonisolated test (no `await`) reads the test's values through `@Singleton`.
    @Test(.singletons { $0.tripRecorder = RecordingTripRecorder() })
    func aHandWrittenLocationManagerFeedsTheRecorder() async throws {
        let location = HandWrittenLocationManager(fixes: [oslo, bergen])
        let recorder = try #require(await appSingletons.tripRecorder as? RecordingTripRecorder)
        try await withSingletons({ $0.locationManager = location }) {
            try await recorder.start()
            let counts = recorder.counts
            try await location.start()
            for await count in counts where count == 2 { break }
            let state = await location.state
            #expect({ if case .fixed = state { true } else { false } }(), "\(state)")
            let report = StationReport()
            #expect(await report.trip.points.count == 2)
            await recorder.shutdown()
        }
    }
}

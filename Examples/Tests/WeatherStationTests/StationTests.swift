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
        let recorder = try #require(await RegistryActor.run { appSingletons }.tripRecorder as? RecordingTripRecorder)
        try await RegistryActor.run { appSingletons }.start()
        try await RegistryActor.run { appSingletons }.locationManager.start(.gpsd())
        for await count in recorder.counts where count == 2 { break }
        #expect(try await StationReport().line() == "rooftop: rain (2 points)")
    }

    /// One endpoint of the struct of closures replaced; the other stays live.
    @Test(.singletons { $0.forecastClient.alerts = { ["gale warning"] } })
    func oneEndpointIsReplaced() async throws {
        let client = await RegistryActor.run { appSingletons }.forecastClient
        #expect(try await client.alerts() == ["gale warning"])
        #expect(try await client.forecast(1, 2) == "no forecast service configured for 1.0, 2.0")
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

    /// Seed style: the process-wide container replaced by one built with the test's values. Simple, but every
    /// test that reads a value this one replaces without replacing it itself sees it while the test runs. This one
    /// never suspends, so no other test runs on the actor between its assignment and its restore.
    @Test @RegistryActor
    func seedStyleReplacesTheProcessWideContainer() {
        let saved = appSingletons
        defer { appSingletons = saved }
        appSingletons = AppSingletons {
            $0.stationConfiguration = StationConfiguration(name: "seeded", maxTripPoints: 1)
        }
        #expect(appSingletons.stationConfiguration.name == "seeded")
        #expect(appSingletons.entries == [SingletonEntry(name: "stationConfiguration", isLive: false)])
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
}

import GNSSProtocol
import SingletondCore
import Testing

@Suite struct SurveyAccumulatorTests {
    private let origin = (latitude: 52.0, longitude: 5.0)

    /// A 3D fix `north` and `east` metres from the origin.
    private func fix(north: Double, east: Double, altitude: Double = 10, mode: FixMode = .threeD) -> Fix {
        let scale = SurveyAccumulator.metresPerDegree(latitude: origin.latitude)
        return Fix(
            mode: mode, latitude: origin.latitude + north / scale.north,
            longitude: origin.longitude + east / scale.east, altitudeHAE: altitude)
    }

    @Test func wgs84ScaleAtTheEquatorAndAt60Degrees() {
        let equator = SurveyAccumulator.metresPerDegree(latitude: 0)
        #expect(abs(equator.north - 110_574.28) < 0.01)
        #expect(abs(equator.east - 111_319.49) < 0.01)
        let north60 = SurveyAccumulator.metresPerDegree(latitude: 60)
        #expect(abs(north60.north - 111_412.29) < 0.01)
        #expect(abs(north60.east - 55_800.00) < 0.01)
    }

    @Test func identicalFixesHaveNoScatter() throws {
        var accumulator = SurveyAccumulator()
        for _ in 0..<10 { accumulator.add(fix(north: 3, east: -4, altitude: 12.5)) }
        let result = accumulator.result(requestedSeconds: 10, elapsedSeconds: 10, cancelled: false)
        let scale = SurveyAccumulator.metresPerDegree(latitude: origin.latitude)
        #expect(abs(try #require(result.latitude) - (origin.latitude + 3 / scale.north)) < 1e-12)
        #expect(abs(try #require(result.longitude) - (origin.longitude - 4 / scale.east)) < 1e-12)
        #expect(result.altitude == 12.5)
        #expect(result.sigmaNorth == 0 && result.sigmaEast == 0 && result.sigmaUp == 0)
        #expect(result.cep50 == 0 && result.cep95 == 0)
        #expect(result.fixesUsed == 10 && result.fixesRejected == 0)
    }

    /// A first cycle sent as gpsd sends it: an RMC's 2D fix, then the GGA's 3D one and a GSA's of the same time.
    /// The epoch is averaged once, from its first 3D fix; the next epoch is averaged too.
    @Test func anEpochSentAsSeveralFixesIsAveragedOnce() throws {
        var accumulator = SurveyAccumulator()
        let first = GNSSTime(millisecondsSince1970: 1_795_348_800_000)
        var partial = fix(north: 0, east: 0, mode: .twoD)
        partial.altitudeHAE = nil
        for (var epochFix, time) in [
            (partial, first), (fix(north: 0, east: 0), first), (fix(north: 5, east: 5), first),
            (fix(north: 2, east: 0), GNSSTime(millisecondsSince1970: first.millisecondsSince1970 + 1_000)),
        ] {
            epochFix.time = time
            accumulator.add(epochFix)
        }
        let result = accumulator.result(requestedSeconds: 2, elapsedSeconds: 2, cancelled: false)
        #expect(result.fixesUsed == 2 && result.rejected2D == 1)
        let scale = SurveyAccumulator.metresPerDegree(latitude: origin.latitude)
        #expect(abs(try #require(result.latitude) - (origin.latitude + 1 / scale.north)) < 1e-12)
        #expect(abs(try #require(result.longitude) - origin.longitude) < 1e-12)
    }

    @Test func tenFixesAlongALineGiveKnownMeanSigmaAndCEP() throws {
        var accumulator = SurveyAccumulator()
        for metre in 1...10 { accumulator.add(fix(north: 0, east: Double(metre), altitude: Double(metre))) }
        let result = accumulator.result(requestedSeconds: 10, elapsedSeconds: 10, cancelled: false)
        let scale = SurveyAccumulator.metresPerDegree(latitude: origin.latitude)
        // Mean 5.5 m east; sample σ of 1...10 is √(82.5/9) = 3.02765 m.
        #expect(abs(try #require(result.longitude) - (origin.longitude + 5.5 / scale.east)) < 1e-9)
        #expect(abs(try #require(result.latitude) - origin.latitude) < 1e-9)
        #expect(abs(try #require(result.sigmaEast) - 3.027_650_354) < 1e-6)
        #expect(abs(try #require(result.sigmaNorth)) < 1e-6)
        #expect(abs(try #require(result.sigmaUp) - 3.027_650_354) < 1e-9)
        #expect(result.altitude == 5.5)
        // Distances from the mean: 0.5, 0.5, 1.5, 1.5, ..., 4.5, 4.5; nearest rank 5 and 10.
        #expect(abs(try #require(result.cep50) - 2.5) < 1e-6)
        #expect(abs(try #require(result.cep95) - 4.5) < 1e-6)
    }

    @Test func squareAroundTheMean() throws {
        var accumulator = SurveyAccumulator()
        for (n, e) in [(1.0, 1.0), (1, -1), (-1, 1), (-1, -1)] { accumulator.add(fix(north: n, east: e)) }
        let result = accumulator.result(requestedSeconds: 4, elapsedSeconds: 4, cancelled: false)
        #expect(abs(try #require(result.sigmaNorth) - (4.0 / 3).squareRoot()) < 1e-6)
        #expect(abs(try #require(result.sigmaEast) - (4.0 / 3).squareRoot()) < 1e-6)
        #expect(abs(try #require(result.cep50) - 2.0.squareRoot()) < 1e-6)
        #expect(abs(try #require(result.cep95) - 2.0.squareRoot()) < 1e-6)
    }

    @Test func rejectsFixesWithoutPositionAnd2DWhen3DIsRequired() {
        var strict = SurveyAccumulator(requires3D: true)
        var lenient = SurveyAccumulator(requires3D: false)
        let fixes = [
            fix(north: 0, east: 0), fix(north: 0, east: 0, mode: .twoD), Fix(mode: .noFix), Fix(mode: .unknown),
            Fix(mode: .threeD), fix(north: 1, east: 1),
        ]
        for f in fixes {
            strict.add(f)
            lenient.add(f)
        }
        let s = strict.result(requestedSeconds: 1, elapsedSeconds: 1, cancelled: false)
        #expect(s.fixesUsed == 2 && s.rejectedNoFix == 3 && s.rejected2D == 1 && s.fixesRejected == 4)
        let l = lenient.result(requestedSeconds: 1, elapsedSeconds: 1, cancelled: false)
        #expect(l.fixesUsed == 3 && l.rejectedNoFix == 3 && l.rejected2D == 0)
    }

    @Test func noUsableFixGivesNoPositionButCounts() {
        var accumulator = SurveyAccumulator()
        accumulator.add(Fix(mode: .noFix))
        let result = accumulator.result(requestedSeconds: 60, elapsedSeconds: 12, cancelled: true)
        #expect(result.latitude == nil && result.longitude == nil && result.cep50 == nil && result.sigmaEast == nil)
        #expect(result.cancelled && result.rejectedNoFix == 1 && result.elapsedSeconds == 12)
        #expect(result.summary.contains("cancelled") && result.summary.contains("no position"))
    }

    @Test func oneFixHasAPositionButNoSigma() {
        var accumulator = SurveyAccumulator()
        accumulator.add(fix(north: 0, east: 0))
        let result = accumulator.result(requestedSeconds: 1, elapsedSeconds: 1, cancelled: false)
        #expect(result.latitude != nil && result.sigmaNorth == nil && result.cep50 == 0)
    }

    @Test func surveyAcrossTheAntimeridianAveragesNear180() throws {
        var accumulator = SurveyAccumulator()
        accumulator.add(Fix(mode: .threeD, latitude: 0, longitude: 179.99999, altitudeHAE: 0))
        accumulator.add(Fix(mode: .threeD, latitude: 0, longitude: -179.99999, altitudeHAE: 0))
        let result = accumulator.result(requestedSeconds: 2, elapsedSeconds: 2, cancelled: false)
        #expect(abs(abs(try #require(result.longitude)) - 180) < 1e-6)
        #expect(try #require(result.sigmaEast) < 2)
    }

    @Test func resultLineIsTheSurveyReport() throws {
        var accumulator = SurveyAccumulator()
        accumulator.add(fix(north: 0, east: 0))
        let line = accumulator.result(requestedSeconds: 5, elapsedSeconds: 2, cancelled: true).jsonLine
        let value = try JSONValue(parsing: line.dropLast())
        #expect(value["class"]?.stringValue == "SURVEY")
        #expect(value["status"]?.stringValue == "cancelled")
        #expect(value["used"]?.doubleValue == 1)
        #expect(value["lat"]?.doubleValue == 52)
        #expect(value["sigmaNorth"] == .null)
        #expect(line.last == 0x0A)
    }
}

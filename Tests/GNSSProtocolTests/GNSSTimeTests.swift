import GNSSProtocol
import Testing

@Suite struct GNSSTimeTests {
    @Test func roundTripsGpsdForm() throws {
        let time = try #require(GNSSTime(iso8601: "2026-11-22T02:14:47.125Z"))
        #expect(time.iso8601 == "2026-11-22T02:14:47.125Z")
        #expect(time.millisecondsSince1970 == 1_795_313_687_125)
    }

    @Test func handlesLeapDayAndEpoch() throws {
        #expect(GNSSTime(millisecondsSince1970: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        let leap = try #require(
            GNSSTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59))
        #expect(leap.iso8601 == "2024-02-29T23:59:59.000Z")
        #expect(leap.millisecondOfDay == 86_399_000)
    }

    @Test func rejectsMalformedText() {
        #expect(GNSSTime(iso8601: "2026-11-22 02:14:47Z") == nil)
        #expect(GNSSTime(iso8601: "2026-13-22T02:14:47Z") == nil)
        #expect(GNSSTime(iso8601: "") == nil)
    }
}

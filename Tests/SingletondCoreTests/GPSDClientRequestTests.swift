import SingletondCore
import Testing

/// The gpsd listener's request reader: gpsd's grammar, several requests on a line, requests that have not fully
/// arrived, and bad input, which gives an error and never more than the request's bytes.
@Suite struct GPSDClientRequestTests {
    /// Every request in `text` and what is left unread.
    static func read(_ text: String) -> (requests: [GPSDClientRequest], rest: String) {
        let bytes = Array(text.utf8)
        var start = 0
        var requests: [GPSDClientRequest] = []
        while let (request, consumed) = GPSDClientRequest.next(in: bytes[start...]) {
            #expect(consumed > 0)
            requests.append(request)
            start += consumed
        }
        start += GPSDClientRequest.separators(in: bytes[start...])
        return (requests, String(decoding: bytes[start...], as: UTF8.self))
    }

    @Test func readsGpsdsRequests() {
        var watch = GPSDWatchChange()
        watch.enable = true
        watch.json = true
        (watch.scaled, watch.timing, watch.split24, watch.pps, watch.device) = (false, false, false, false, "")
        let (requests, rest) = Self.read(
            "?WATCH={\"enable\":true,\"json\":true};\n?POLL;\n?DEVICES;?VERSION;\r\n?DEVICE;\n?WATCH;\n")
        #expect(requests == [.watch(watch), .poll, .devices, .version, .device, .watch(GPSDWatchChange())])
        #expect(rest == "")
    }

    @Test func waitsForTheRestOfARequest() {
        for partial in ["?WAT", "?WATCH={\"enable\":tr", "?WATCH={\"a\":\"}\\\"", "hello", "?POLL"] {
            let (requests, rest) = Self.read(partial)
            #expect(requests.isEmpty, "\(partial)")
            #expect(rest == partial)
        }
        #expect(Self.read(" \r\n;\t").rest == "", "separators alone are dropped")
    }

    @Test func badRequestsAreErrorsUpToTheirLineEnd() {
        let (requests, rest) = Self.read(
            "?FOO;\nhello world\n?WATCH={bad\n?WATCH={\"enable\":1}\n?DEVICE={\"path\":\"/dev/x\"}\n\0\0\n?POLL;")
        let messages = requests.compactMap { if case .error(let message) = $0 { message } else { nil } }
        #expect(requests.count == 7)
        #expect(messages.count == 6)
        #expect(messages[0] == "Unrecognized request '?FOO;'")
        #expect(messages[1] == "Unrecognized request 'hello world'")
        #expect(messages[2].hasPrefix("Invalid WATCH"))
        #expect(messages[3] == "Invalid WATCH: bad value of enable")
        #expect(messages[4].contains("?DEVICE= configuration is not supported"))
        #expect(messages[5] == "Unrecognized request '\\x00\\x00'")
        #expect(requests.last == .poll)
        #expect(rest == "")
    }

    /// gpsd 3.22's `json_watch_read`: in a `?WATCH={...}` object, `enable` left out is `true`; `json`, `nmea` and
    /// `raw` left out keep their value; `scaled`, `timing`, `split24`, `pps` and `device` left out are reset.
    @Test func watchMembersMergeAsGpsdMergesThem() throws {
        func apply(_ text: String, to policy: inout GPSDWatchPolicy) throws {
            policy.apply(try GPSDWatchChange(parsing: ArraySlice(text.utf8)))
        }
        var policy = GPSDWatchPolicy()
        try apply("{\"enable\":true}", to: &policy)
        #expect(policy.enable && !policy.json && !policy.watches, "enabling alone streams nothing, as in gpsd")
        try apply("{\"json\":true,\"timing\":true,\"pps\":true,\"device\":\"/dev/x\"}", to: &policy)
        #expect(policy.enable && policy.wantsReports && policy.timing && policy.wantsTimeOffsets)
        #expect(
            String(decoding: policy.line, as: UTF8.self)
                == "{\"class\":\"WATCH\",\"enable\":true,\"json\":true,\"nmea\":false,\"raw\":0,\"scaled\":false,"
                + "\"timing\":true,\"split24\":false,\"pps\":true,\"device\":\"/dev/x\"}\r\n")
        try apply("{\"raw\":2}", to: &policy)
        #expect(policy.json && policy.raw == 2 && !policy.timing && !policy.pps && policy.device.isEmpty)
        #expect(policy.wantsSentences, "raw 2 relays an NMEA source's sentences")
        policy.apply(GPSDWatchChange())
        #expect(policy.json && policy.raw == 2, "?WATCH; changes nothing")
        try apply("{\"enable\":false}", to: &policy)
        #expect(!policy.watches && policy.json)
        #expect(
            String(decoding: policy.line, as: UTF8.self)
                == "{\"class\":\"WATCH\",\"enable\":false,\"json\":true,\"nmea\":false,\"raw\":2,\"scaled\":false,"
                + "\"timing\":false,\"split24\":false,\"pps\":false}\r\n")
    }

    /// gpsd's `timing` members go before `eph`, or at the end of a TPV without it, with gpsd's spacing.
    @Test func timingMembersGoWhereGpsdWritesThem() {
        let tpv = Array("{\"class\":\"TPV\",\"mode\":3,\"geoidSep\":46.900,\"eph\":17.100}".utf8)
        let timed = String(decoding: GPSDListenerLines.withTiming(tpv, now: 1_795_734_027_052_480_986), as: UTF8.self)
        #expect(
            timed == "{\"class\":\"TPV\",\"mode\":3,\"geoidSep\":46.900,\"rtime\": 1795734027.052480986,"
                + "\"sor\": 0.000000000,\"week\":0,\"tow\":0.000,\"rollovers\":2,\"eph\":17.100}")
        let bare = String(
            decoding: GPSDListenerLines.withTiming(Array("{\"class\":\"TPV\",\"mode\":1}".utf8), now: 0), as: UTF8.self)
        #expect(bare.hasPrefix("{\"class\":\"TPV\",\"mode\":1,\"rtime\": 0.000000000,") && bare.hasSuffix("}"))
        let toff = String(
            decoding: GPSDListenerLines.timeOffset(devicePath: "/dev/x", real: 1_774_267_200_000_000_000, clock: 5),
            as: UTF8.self)
        #expect(
            toff == "{\"class\":\"TOFF\",\"device\":\"/dev/x\",\"real_sec\":1774267200, \"real_nsec\":0,"
                + "\"clock_sec\":0,\"clock_nsec\":5}\r\n")
    }

    @Test func listenAddresses() {
        #expect(ListenAddress(parsing: "2947") == ListenAddress(port: 2947))
        #expect(ListenAddress(parsing: "localhost:2947") == ListenAddress(port: 2947))
        #expect(ListenAddress(parsing: "0.0.0.0:10000") == ListenAddress(octets: [0, 0, 0, 0], port: 10_000))
        #expect(ListenAddress(parsing: "192.168.1.20:2947")?.description == "192.168.1.20:2947")
        for bad in ["", "0", "65536", "host:2947", "1.2.3:2947", "1.2.3.256:1", ":2947", "[::1]:2947", "2947:1"] {
            #expect(ListenAddress(parsing: bad) == nil, "\(bad)")
        }
    }
}

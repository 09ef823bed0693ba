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

    @Test func watchMembersMergeAsGpsdMergesThem() {
        var policy = GPSDWatchPolicy()
        var change = GPSDWatchChange()
        change.enable = true
        policy.apply(change)
        #expect(policy.enable && policy.json && !policy.nmea, "enabling alone streams JSON")
        change = GPSDWatchChange()
        change.enable = false
        policy.apply(change)
        #expect(!policy.wantsReports && policy.json)
        #expect(
            String(decoding: policy.line, as: UTF8.self)
                == "{\"class\":\"WATCH\",\"enable\":false,\"json\":true,\"nmea\":false,\"raw\":0,\"scaled\":false,"
                + "\"timing\":false,\"split24\":false,\"pps\":false}\r\n")
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

import SingletondCore
import Testing

@Suite struct ControlRequestTests {
    private func parse(_ text: String) -> Result<ControlRequest, ControlRequestError> {
        Result { () throws(ControlRequestError) in try ControlRequest.parse(Array(text.utf8)) }
    }

    @Test func requests() throws {
        #expect(try parse(#"{"cmd":"status"}"#).get() == .status)
        #expect(try parse(#" { "cmd" : "fix" } "#).get() == .fix)
        #expect(try parse(#"{"cmd":"watch"}"#).get() == .watch(enable: true))
        #expect(try parse(#"{"cmd":"watch","enable":false}"#).get() == .watch(enable: false))
        #expect(try parse(#"{"cmd":"survey"}"#).get() == .survey(seconds: nil))
        #expect(try parse(#"{"cmd":"survey","seconds":90}"#).get() == .survey(seconds: 90))
        #expect(try parse(#"{"seconds":0.5,"cmd":"survey"}"#).get() == .survey(seconds: 0.5))
        #expect(try parse(#"{"cmd":"cancel"}"#).get() == .cancel)
    }

    @Test(arguments: [
        ("", "not a JSON request"),
        ("status", "not a JSON request"),
        (#"{"cmd":"status""#, "not a JSON request"),
        (#"["status"]"#, "a request is a JSON object"),
        (#"{}"#, "has no \"cmd\""),
        (#"{"cmd":7}"#, "\"cmd\" must be a string"),
        (#"{"cmd":"reboot"}"#, "unknown command \"reboot\""),
        (#"{"cmd":"status","verbose":true}"#, "takes no member \"verbose\""),
        (#"{"cmd":"survey","seconds":-1}"#, "\"seconds\" must be"),
        (#"{"cmd":"survey","seconds":"60"}"#, "\"seconds\" must be"),
        (#"{"cmd":"survey","seconds":1e12}"#, "\"seconds\" must be"),
        (#"{"cmd":"watch","enable":1}"#, "\"enable\" must be true or false"),
        (#"{"cmd":"status","cmd":"fix"}"#, "not a JSON request"),
        (#"{"cmd":{"x":[[[[[[]]]]]]}}"#, "not a JSON request"),
    ])
    func badRequestsExplainWhatIsWrong(text: String, expected: String) {
        guard case .failure(let error) = parse(text) else {
            Issue.record("\(text) parsed")
            return
        }
        #expect(error.message.contains(expected), "\(text): \(error.message)")
    }

    @Test func theClientsLinesParseBack() throws {
        let requests: [ControlRequest] = [
            .status, .fix, .watch(enable: true), .watch(enable: false), .survey(seconds: nil), .survey(seconds: 12.5),
            .cancel,
        ]
        for request in requests {
            let line = request.line
            #expect(line.last == 0x0A)
            #expect(try ControlRequest.parse(line.dropLast()) == request)
        }
    }

    @Test func randomBytesNeverCrashTheParser() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[]":,cmdstatusurvey0123456789.-e truefalsenull\"#.utf8) + [0, 0xFF, 0xC3]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            _ = try? ControlRequest.parse(bytes)
        }
    }
}

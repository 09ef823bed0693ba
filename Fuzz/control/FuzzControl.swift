// libFuzzer entry point for the control socket's request parser; built against the daemon by scripts/fuzz.

import SingletondCore

/// Parses every line of the input as a control request: each must give a request or a `ControlRequestError`
/// whose message is not empty, never a crash or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControl(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        do throws(ControlRequestError) {
            _ = try ControlRequest.parse(line)
        } catch {
            precondition(!"\(error)".isEmpty, "an error must say what is wrong")
        }
    }
    return 0
}

// libFuzzer entry point for the gpsd listener's request reader; built against the daemon by scripts/fuzz.

import SingletondCore

/// Reads every request of the input as the listener does: each read takes at least one byte and no more than
/// there is, an error says what is wrong, and what is left is at most one unfinished request. Never a crash or a
/// hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPSDRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var start = 0
    while let (request, consumed) = GPSDClientRequest.next(in: bytes[start...]) {
        precondition(consumed > 0 && consumed <= bytes.count - start, "a read takes what is there, and something")
        if case .error(let message) = request { precondition(!message.isEmpty, "an error must say what is wrong") }
        start += consumed
    }
    start += GPSDClientRequest.separators(in: bytes[start...])
    precondition(start == bytes.count || bytes[start] != 0x20, "separators are dropped")
    return 0
}

// libFuzzer entry point for the gpsd client protocol; built against GNSSProtocol by scripts/fuzz.

import GNSSProtocol

/// Feeds the input to a gpsd stream decoder whole and in two chunks split at a point the input chooses, traps if
/// the two disagree, parses the input as one JSON document (which must fail or succeed, never crash), and traps if
/// the one-pass reader of TPV and SKY lines and the general reader decode the input as a line differently.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPSD(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    func decode(_ chunks: [ArraySlice<UInt8>]) -> [GPSDStreamEvent]? {
        var decoder = GPSDStreamDecoder()
        var events: [GPSDStreamEvent] = []
        for chunk in chunks {
            do throws(GPSDProtocolError) {
                events += try decoder.receive(chunk)
            } catch {
                return nil
            }
        }
        precondition(decoder.invalidLineCount <= events.count)
        return events
    }
    let split = size == 0 ? 0 : Int(bytes[0]) % (size + 1)
    let whole = decode([bytes[...]])
    let parts = decode([bytes[..<split], bytes[split...]])
    precondition((whole == nil) == (parts == nil), "chunking changed whether the banner was accepted")
    if let whole, let parts { precondition(whole == parts, "chunking changed the events") }
    _ = try? JSONValue(parsing: bytes)
    let onePass = Result { () throws(GPSDDecodingError) in try GPSDMessage(line: bytes) }
    let general = Result { () throws(GPSDDecodingError) in try GPSDMessage(decodingWithGeneralReader: bytes) }
    precondition(onePass == general, "the one-pass reader and the general reader disagree")
    return 0
}

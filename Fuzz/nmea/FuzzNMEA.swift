// libFuzzer entry point for the NMEA decoder; built against GNSSProtocol by scripts/fuzz.

import GNSSProtocol

/// Decodes the input whole and in two chunks split at a point the input chooses, writes every event as gpsd
/// JSON, and traps if the two decodings disagree or a counter goes wrong.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNMEA(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var whole = NMEADecoder(device: "fuzz")
    var wholeEvents: [NMEAEvent] = []
    whole.feed(UnsafeRawBufferPointer(bytes)) { wholeEvents.append($0) }
    whole.finish { wholeEvents.append($0) }

    let split = size == 0 ? 0 : Int(bytes[0]) % (size + 1)
    var parts = NMEADecoder(device: "fuzz")
    var partEvents: [NMEAEvent] = []
    parts.feed(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[0..<split]))) {
        partEvents.append($0)
    }
    parts.feed(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[split..<size]))) {
        partEvents.append($0)
    }
    parts.finish { partEvents.append($0) }
    precondition(wholeEvents == partEvents, "chunking changed the result")

    let stats = whole.statistics
    precondition(
        stats.decoded + stats.badChecksum + stats.unsupported + stats.malformed <= stats.sentences)
    precondition(stats.fixes + stats.skyViews == wholeEvents.count)
    var out: [UInt8] = []
    for event in wholeEvents {
        switch event {
        case .fix(let fix): GPSDJSONWriter.appendTPV(fix, to: &out)
        case .sky(let view): GPSDJSONWriter.appendSKY(view, to: &out)
        }
    }
    precondition(out.count >= wholeEvents.count)
    return 0
}

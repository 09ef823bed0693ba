/// The bytes a client sent toward its request lines, as both protocols keep them: the unread bytes, and whether the
/// rest of a line over ``ClientLimits/maximumLineBytes`` is being skipped up to its newline.
enum RequestLines {
    /// Appends `bytes` to `input`; while `discarding`, skips them up to and with the first newline, where the
    /// skipping ends. Returns `false` when every byte was skipped.
    static func append(_ bytes: ArraySlice<UInt8>, to input: inout [UInt8], discarding: inout Bool) -> Bool {
        var bytes = bytes
        if discarding {
            guard let newline = bytes.firstIndex(of: 0x0A) else { return false }
            bytes = bytes[(newline + 1)...]
            discarding = false
        }
        input.append(contentsOf: bytes)
        return true
    }
}

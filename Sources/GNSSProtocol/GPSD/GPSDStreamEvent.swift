/// What a ``GPSDStreamDecoder`` found in the bytes it was fed.
public enum GPSDStreamEvent: Sendable, Hashable {
    /// A decoded message.
    case message(GPSDMessage)
    /// A line that could not be decoded; the stream carries on.
    case invalidLine(GPSDDecodingError)
    /// A line longer than the limit was dropped; the stream carries on at the next line.
    case oversizedLine(byteCount: Int)
}

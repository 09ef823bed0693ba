/// How one connection to a source ended, from the session's point of view.
enum SourceEnd: Error, Sendable, CustomStringConvertible {
    /// The source ran out of data (end of file, closed standard input, peer closed).
    case endOfData(String)
    /// The source failed; the message says why.
    case failure(String)

    var description: String {
        switch self {
        case .endOfData(let message), .failure(let message): message
        }
    }
}

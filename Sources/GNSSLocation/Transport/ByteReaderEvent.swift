/// What a ``ByteReader`` delivers: chunks of bytes, then exactly one ``finished(_:)``.
package enum ByteReaderEvent: Sendable, Hashable {
    /// The next bytes from the source, in order, never empty.
    case data([UInt8])
    /// The reader has stopped and will deliver nothing more.
    case finished(ByteReaderEnd)
}

/// Why a ``ByteReader`` stopped.
package enum ByteReaderEnd: Sendable, Hashable {
    /// The source ended: the TCP peer closed, the file ended, the FIFO's last writer closed.
    case endOfFile
    /// The serial device went away (unplugged, or the other end of a pseudo-terminal closed).
    case hangUp
    /// ``ByteReader/stop()`` was called.
    case stopped
    /// Reading failed.
    case failed(SourceError)
}

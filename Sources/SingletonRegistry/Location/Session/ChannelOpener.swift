import Dispatch

/// Opens a ``ByteChannel`` on a Dispatch thread, so that a slow TCP connect never holds a cooperative-pool thread.
enum ChannelOpener {
    static func open(_ source: ByteSource, connectTimeout: Duration = .seconds(5)) async throws(SourceError)
        -> ByteChannel
    {
        let result: Result<ByteChannel, SourceError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(SourceError) {
                    continuation.resume(returning: .success(try ByteChannel.open(source, connectTimeout: connectTimeout)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}

import Dispatch

/// Opens a ``ByteChannel`` on a Dispatch thread, so that a slow TCP connect never holds a cooperative-pool thread.
enum ChannelOpener {
    static func open(_ source: ByteSource, connectTimeout: Duration = .seconds(5)) async throws(SourceError)
        -> ByteChannel
    {
        // When the channel is ready before the task suspends, the continuation hands it over through the runtime's
        // atomics, which ThreadSanitizer does not see (swiftlang/swift#57803), and it reports the channel's fields
        // as raced. The semaphore, which it does see, orders the opening thread's writes before our reads; it never
        // blocks, being signalled before the resume.
        let handOff = DispatchSemaphore(value: 0)
        let result: Result<ByteChannel, SourceError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let result: Result<ByteChannel, SourceError>
                do throws(SourceError) {
                    result = .success(try ByteChannel.open(source, connectTimeout: connectTimeout))
                } catch {
                    result = .failure(error)
                }
                handOff.signal()
                continuation.resume(returning: result)
            }
        }
        handOff.wait()
        return try result.get()
    }
}

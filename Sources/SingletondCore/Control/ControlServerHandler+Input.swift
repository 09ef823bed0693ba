import Glibc
import SystemCalls

/// Reading the clients' requests on the poll thread: what `poll(2)` reported for a client, and the bytes that make
/// up its request lines, an over-long line skipped with an error reply.
extension ControlServerHandler {
    /// Acts on what `poll(2)` reported for client `id`: writes its queue, reads its input, notes that it hung up.
    package func service(id: Int, revents: Int32, buffer: inout [UInt8], server: ControlServer) {
        let state = server.state
        guard let fd = state.withLock({ $0.clients[id]?.fd }) else { return }
        if revents & Int32(POLLOUT) != 0 {
            state.withLock { state in
                guard state.clients[id] != nil else { return }
                flush(&state.clients[id]!)
            }
        }
        if revents & Int32(POLLNVAL) != 0 {
            state.withLock { state in
                if state.clients[id]?.dropReason == nil { state.clients[id]?.dropReason = "" }
            }
            return
        }
        let hungUp = revents & (Int32(POLLHUP) | Int32(POLLERR)) != 0
        guard hungUp || revents & Int32(POLLIN) != 0 else { return }
        // A client that hung up may have sent requests first (`echo '{"cmd":"cancel"}' | nc -U ...`): read what
        // is there, then stop polling it; it is closed once its requests are done.
        for _ in 0..<(hungUp ? 16 : 1) {
            let result = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(Errno) in try System.read(fd, into: bytes) }
            }
            let more = state.withLock { state -> Bool in
                guard state.clients[id] != nil else { return false }
                switch result {
                case .success(0):
                    state.clients[id]!.endOfInput = true
                    return false
                case .success(let count):
                    state.clients[id]!.lastActivity = server.timeline.now
                    append(buffer[0..<count], to: &state.clients[id]!)
                    return true
                case .failure(let error):
                    if error.code != EAGAIN { state.clients[id]!.dropReason = "" }
                    return false
                }
            }
            if !more { break }
        }
        if hungUp {
            state.withLock { state in
                state.clients[id]?.endOfInput = true
                state.clients[id]?.hungUp = true
            }
        }
    }

    /// Adds received bytes to the client's input, skipping the rest of an over-long line; its `ERROR` is queued
    /// under the queue's limit as every reply is (``enqueue(_:client:)``).
    func append(_ bytes: ArraySlice<UInt8>, to client: inout ControlConnection) {
        guard RequestLines.append(bytes, to: &client.input, discarding: &client.discarding) else { return }
        let pendingLineLength =
            client.input.lastIndex(of: 0x0A).map { client.input.count - $0 - 1 } ?? client.input.count
        if pendingLineLength > limits.maximumLineBytes {
            client.input.removeLast(pendingLineLength)
            client.discarding = true
            // The poll thread looks at every client it read at the end of the round: the result is not needed.
            _ = enqueue(overlongLineError, client: &client)
        }
    }

    /// The reply to a request line longer than ``ClientLimits/maximumLineBytes``.
    var overlongLineError: [UInt8] { JSONObjectWriter.error("request longer than \(limits.maximumLineBytes) bytes") }
}

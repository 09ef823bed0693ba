import SingletonRegistry
import SystemCalls

/// Dispatching on the poll thread: the complete request lines of clients with nothing in flight go to the request
/// handler, one at a time per client; a client that left has its request cancelled.
extension ControlServerHandler {
    /// Serves the client's waiting requests and writes its queue; returns why it is to be closed: its drop reason,
    /// `""` once it has ended its input and has nothing left, or `nil` to keep it.
    package func step(_ client: inout ControlConnection, id: Int, stopping: Bool, work: inout [Work]) -> String? {
        if client.isGone, let request = client.request {
            work.append(.abandon(request))
            client.request = nil
        }
        // A client whose replies back up gets no new request served until it reads them: its requests wait in its
        // input, then in the kernel, and its writes block. It is never dropped for pipelining; only a watcher that
        // does not read is. A flush that empties the queue again makes it ready, so serving goes on until the
        // client is busy, out of lines, or has a queue the kernel does not take: then it has a request in flight,
        // or is polled for input, or is polled for output.
        repeat {
            if !stopping { serveWaitingLines(of: &client, id: id, into: &work) }
            flush(&client)
        } while !stopping && client.isReady(queueLimit: servingQueueLimit)
        let finished =
            client.endOfInput && !client.busy && client.output.isEmpty && !client.input.contains(0x0A)
        return client.dropReason ?? (finished ? "" : nil)
    }

    /// Cancels the requests of clients that left, and starts the request handler on each request served.
    package func perform(_ work: [Work], server: ControlServer) {
        guard !work.isEmpty else { return }
        let handler = server.state.withLock { $0.shared.handler }
        for item in work {
            switch item {
            case .abandon(let request): request.cancel()
            case .request(let id, let request):
                guard let handler else { continue }
                let requester = ControlRequester(id: id, server: server)
                logger.debug("control: client \(id) asks \(request)")
                let task = Task {
                    await handler(request, requester)
                    server.requestFinished(id)
                }
                let gone = server.state.withLock { state -> Bool in
                    guard state.clients[id]?.busy == true else { return false }
                    state.clients[id]!.request = task
                    return state.clients[id]!.isGone
                }
                if gone { task.cancel() }
            }
        }
    }

    /// Takes the client's complete request lines while it is ready: an invalid one is answered with an error on
    /// the spot, queued under the queue's limit as every reply is, a valid one makes the client busy and goes to
    /// `work`.
    private func serveWaitingLines(of client: inout ControlConnection, id: Int, into work: inout [Work]) {
        while client.isReady(queueLimit: servingQueueLimit), let newline = client.input.firstIndex(of: 0x0A) {
            var line = client.input[..<newline]
            client.input.removeSubrange(...newline)
            if line.last == 0x0D { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            if line.count > limits.maximumLineBytes {
                _ = enqueue(overlongLineError, client: &client)
                continue
            }
            do {
                let request = try ControlRequest.parse(line)
                client.busy = true
                work.append(.request(id: id, request))
            } catch {
                _ = enqueue(JSONObjectWriter.error("\(error)"), client: &client)
            }
        }
    }
}

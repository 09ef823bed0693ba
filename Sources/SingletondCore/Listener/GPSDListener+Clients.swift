import Glibc
import SingletonRegistry
import SystemCalls

/// Accepting clients, reading their bytes and answering their requests, all on the listener's thread.
extension GPSDListener {
    /// Accepts every waiting connection: at most ``ClientLimits/maximumClients`` at a time, each with a send buffer
    /// of ``socketSendBuffer`` bytes and `TCP_NODELAY`, and greeted with the `VERSION` object; one over the limit is
    /// told why and closed, and the refusals are counted in the log. Out of file descriptors, the
    /// ``ConnectionAcceptor`` sheds waiting clients.
    func acceptClients(_ acceptor: inout ConnectionAcceptor, now: ContinuousClock.Instant) {
        while let fd = acceptor.accept(now: timeline.now, refusal: { GPSDListenerLines.error($0) }) {
            // A small kernel buffer, so that a client that does not read loses reports from its queue here
            // instead of having them pile up, ever older, in the kernel; and no Nagle wait on replies.
            System.setOption(fd, level: SOL_SOCKET, name: SO_SNDBUF, Self.socketSendBuffer)
            System.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, 1)
            let (accepted, refusedLine) = state.withLock { state -> (Int?, String?) in
                guard state.clients.count < limits.maximumClients else {
                    let verdict = state.drops.occurrence(of: "refused", at: timeline.now)
                    switch verdict {
                    case .first: return (nil, "gpsd: \(limits.maximumClients) clients connected; refusing new ones")
                    case .summary(let count): return (nil, "gpsd: refused \(count) more clients")
                    case nil: return (nil, nil)
                    }
                }
                let id = state.nextID
                state.nextID += 1
                var client = GPSDListenerClient(fd: fd, now: now)
                _ = client.enqueue(GPSDListenerLines.version, limit: limits.maximumQueuedBytes)
                flush(&client)
                state.clients[id] = client
                return (id, nil)
            }
            if let id = accepted {
                logger.debug("gpsd: client \(id) connected")
                continue
            }
            ConnectionAcceptor.refuse(
                fd, with: GPSDListenerLines.error("too many clients (\(limits.maximumClients)); try again later"))
            if let refusedLine { logger.warning(refusedLine) }
        }
    }

    /// Acts on what `poll(2)` reported for client `id`: reads its bytes and answers its complete requests.
    func service(id: Int, revents: Int32, buffer: inout [UInt8], now: ContinuousClock.Instant) {
        guard let fd = state.withLock({ $0.clients[id]?.fd }) else { return }
        if revents & (Int32(POLLIN) | Int32(POLLHUP) | Int32(POLLERR) | Int32(POLLNVAL)) == 0 { return }
        let result = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(Errno) in try System.read(fd, into: bytes) }
        }
        let watching = state.withLock { state -> String? in
            guard var client = state.clients[id] else { return nil }
            defer { state.clients[id] = client }
            switch result {
            case .success(0):
                client.closeReason = ""
                return nil
            case .failure(let error):
                if error.code != EAGAIN, error.code != EWOULDBLOCK { client.closeReason = "" }
                return nil
            case .success(let count):
                let wasWatching = client.policy.watches
                receive(buffer[0..<count], client: &client, state: &state, now: now)
                let watching = client.policy.watches
                guard wasWatching != watching else { return nil }
                return watching ? "watches" : "stops watching"
            }
        }
        if let watching { logger.debug("gpsd: client \(id) \(watching)") }
    }

    /// Adds `bytes` to the client's input and answers every complete request in it; skips the rest of a request
    /// longer than ``ClientLimits/maximumLineBytes``.
    func receive(
        _ bytes: ArraySlice<UInt8>, client: inout GPSDListenerClient, state: inout State, now: ContinuousClock.Instant
    ) {
        var bytes = bytes
        if client.discarding {
            guard let newline = bytes.firstIndex(of: 0x0A) else { return }
            bytes = bytes[(newline + 1)...]
            client.discarding = false
        }
        client.input.append(contentsOf: bytes)
        var start = 0
        while let (request, consumed) = GPSDClientRequest.next(in: client.input[start...]) {
            start += consumed
            client.lastRequest = now
            answer(request, client: &client, state: &state)
        }
        start += GPSDClientRequest.separators(in: client.input[start...])
        client.input.removeFirst(start)
        if client.input.count > limits.maximumLineBytes {
            client.discarding = !client.input.contains(0x0A)
            client.input = []
            _ = client.enqueue(
                GPSDListenerLines.error("request longer than \(limits.maximumLineBytes) bytes"),
                limit: limits.maximumQueuedBytes)
        }
        flush(&client)
    }

    /// Queues the reply to `request`; lines it pushes out of a client that does not read count as dropped.
    func answer(_ request: GPSDClientRequest, client: inout GPSDListenerClient, state: inout State) {
        let limit = limits.maximumQueuedBytes
        let droppedBefore = client.droppedTotal
        defer { state.droppedReports += client.droppedTotal - droppedBefore }
        switch request {
        case .watch(let change):
            if let device = change.device, device != devicePath {
                _ = client.enqueue(GPSDListenerLines.error("Do not know device \(device)"), limit: limit)
                return
            }
            client.policy.apply(change)
            _ = client.enqueue(GPSDListenerLines.devices(path: devicePath, activated: state.activated), limit: limit)
            _ = client.enqueue(client.policy.line, limit: limit)
        case .poll:
            let line = GPSDListenerLines.poll(
                now: System.wallClockMilliseconds(), active: state.activated != nil, tpv: state.latestTPV,
                sky: state.latestSKY)
            _ = client.enqueue(line, limit: limit)
        case .devices:
            _ = client.enqueue(GPSDListenerLines.devices(path: devicePath, activated: state.activated), limit: limit)
        case .device:
            _ = client.enqueue(GPSDListenerLines.device(path: devicePath, activated: state.activated), limit: limit)
        case .version:
            _ = client.enqueue(GPSDListenerLines.version, limit: limit)
        case .error(let message):
            _ = client.enqueue(GPSDListenerLines.error(message), limit: limit)
        }
    }
}

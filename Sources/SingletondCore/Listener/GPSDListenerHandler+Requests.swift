import Glibc
import SingletonRegistry
import SystemCalls

/// Reading the clients' bytes and answering their requests, on the listener's poll thread.
extension GPSDListenerHandler {
    /// Acts on what `poll(2)` reported for client `id`: reads its bytes and answers its complete requests.
    package func service(id: Int, revents: Int32, buffer: inout [UInt8], server: GPSDListener) {
        let state = server.state
        let now = server.timeline.now
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
                receive(buffer[0..<count], client: &client, shared: &state.shared, now: now)
                let watching = client.policy.watches
                guard wasWatching != watching else { return nil }
                return watching ? "watches" : "stops watching"
            }
        }
        if let watching { server.logger.debug("gpsd: client \(id) \(watching)") }
    }

    /// Adds `bytes` to the client's input and answers every complete request in it; skips the rest of a request
    /// longer than ``ClientLimits/maximumLineBytes``.
    func receive(
        _ bytes: ArraySlice<UInt8>, client: inout GPSDListenerClient, shared: inout Shared, now: Duration
    ) {
        guard RequestLines.append(bytes, to: &client.input, discarding: &client.discarding) else { return }
        var start = 0
        while let (request, consumed) = GPSDClientRequest.next(in: client.input[start...]) {
            start += consumed
            client.lastRequest = now
            answer(request, client: &client, shared: &shared)
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
    func answer(_ request: GPSDClientRequest, client: inout GPSDListenerClient, shared: inout Shared) {
        let limit = limits.maximumQueuedBytes
        let droppedBefore = client.droppedTotal
        defer { shared.droppedReports += client.droppedTotal - droppedBefore }
        switch request {
        case .watch(let change):
            if let device = change.device, !device.isEmpty, device != devicePath {
                _ = client.enqueue(GPSDListenerLines.error("No such device as \(device)"), limit: limit)
                return
            }
            client.policy.apply(change)
            _ = client.enqueue(
                GPSDListenerLines.devices(path: devicePath, activated: shared.activated, observed: shared.observed),
                limit: limit)
            _ = client.enqueue(client.policy.line, limit: limit)
        case .poll:
            // gpsd counts only the devices the client watches and whose data it has seen: a client that does not
            // watch, or a source that sent nothing yet, gets empty lists.
            let active = client.policy.enable && shared.activated != nil && shared.observed
            let line = GPSDListenerLines.poll(
                now: System.wallClockMilliseconds(), devicePath: devicePath, tpv: active ? shared.latestTPV : nil,
                gst: shared.latestGST, sky: active ? shared.latestSKY : nil, active: active)
            _ = client.enqueue(line, limit: limit)
        case .devices:
            _ = client.enqueue(
                GPSDListenerLines.devices(
                    path: devicePath, activated: shared.activated, observed: shared.observed, serialSpeed: serialSpeed),
                limit: limit)
        case .device:
            _ = client.enqueue(
                GPSDListenerLines.device(
                    path: devicePath, activated: shared.activated, identified: shared.observed,
                    observed: shared.observed, serialSpeed: serialSpeed),
                limit: limit)
        case .version:
            _ = client.enqueue(GPSDListenerLines.version, limit: limit)
        case .error(let message):
            _ = client.enqueue(GPSDListenerLines.error(message), limit: limit)
        }
    }
}

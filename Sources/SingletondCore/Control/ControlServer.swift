import Glibc
import SingletonRegistry
import SystemCalls

/// The control socket: a ``ConnectionServer`` speaking the control protocol (``ControlServerHandler``) on a Unix
/// stream socket.
///
/// What a client can cost is bounded by ``ClientLimits``: the request line length, the number of clients, the bytes
/// queued for one client (a watcher that does not read is dropped, not buffered), and how long it may stay idle.
package typealias ControlServer = ConnectionServer<ControlServerHandler>

extension ConnectionServer where Served == ControlServerHandler {
    /// Handles one request; replies with ``ControlRequester/send(_:)``. The next request of the same client waits
    /// until it returns.
    package typealias Handler = @Sendable (ControlRequest, ControlRequester) async -> Void

    /// The socket's path.
    package var path: String { handler.path }

    /// Starts accepting clients on a thread of its own; each request goes to `handler`. Throws when the system
    /// refuses another thread, and then accepts nothing.
    package func start(handler: @escaping Handler) throws(Errno) {
        state.withLock { $0.shared.handler = handler }
        try start()
    }

    /// Queues `line` for every watcher; a watcher whose queue would exceed the limit is dropped.
    package func broadcast(_ line: [UInt8]) {
        let needsWake = state.withLock { state -> Bool in
            var needsWake = false
            for id in Array(state.clients.keys) where state.clients[id]!.watching {
                needsWake = handler.enqueue(line, client: &state.clients[id]!) || needsWake
            }
            return needsWake
        }
        if needsWake { wake() }
    }

    /// What the server holds for each client, for a test that finds a client not served: whether a request is in
    /// flight, the complete request lines waiting, and the bytes of reply queued.
    package var clientStates: [String] {
        state.withLock { state in
            state.clients.sorted { $0.key < $1.key }.map { id, client in
                "client \(id): busy \(client.busy), request task \(client.request != nil), "
                    + "\(client.input.count(where: { $0 == 0x0A })) lines waiting (\(client.input.count) bytes), "
                    + "\(client.output.count) bytes queued, end of input \(client.endOfInput), hung up \(client.hungUp)"
            }
        }
    }

    /// For each client, by client: the bytes of reply queued for it, and whether the poll thread reads its input
    /// (it does not while the client's replies back up).
    package var clientQueues: [(queuedBytes: Int, isRead: Bool)] {
        state.withLock { state in
            state.clients.sorted { $0.key < $1.key }.map { _, client in
                let events = handler.pollEvents(of: client, stopping: state.stopping) ?? 0
                return (client.output.count, events & Int32(POLLIN) != 0)
            }
        }
    }

    /// The number of connected watchers.
    package var watcherCount: Int {
        state.withLock { $0.clients.values.count { $0.watching && $0.dropReason == nil } }
    }

    func send(_ line: [UInt8], to id: Int) {
        let needsWake = state.withLock { state -> Bool in
            guard state.clients[id] != nil else { return false }
            return handler.enqueue(line, client: &state.clients[id]!)
        }
        if needsWake { wake() }
    }

    func setWatching(_ watching: Bool, client id: Int) {
        state.withLock { state in state.clients[id]?.watching = watching }
    }

    func isConnected(_ id: Int) -> Bool {
        state.withLock { state in state.clients[id].map { $0.dropReason == nil } ?? false }
    }

    /// Client `id`'s request was answered: the client is ready for its next one, and active now.
    func requestFinished(_ id: Int) {
        let now = timeline.now
        state.withLock { state in
            state.clients[id]?.lastActivity = now
            state.clients[id]?.busy = false
            state.clients[id]?.request = nil
        }
        wake()
    }
}

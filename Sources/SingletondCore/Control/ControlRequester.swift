/// The client that sent a request, as the request handler (``ControlServer/Handler``) sees it: reply lines go
/// through it. The server's own record of the client is its ``ControlConnection``.
package struct ControlRequester: Sendable {
    /// The client's number, unique for the server's lifetime (in logs as `client N`).
    package let id: Int
    let server: ControlServer

    /// Queues `line` (one JSON object and a newline) for the client; does nothing once the client has left.
    package func send(_ line: [UInt8]) {
        server.send(line, to: id)
    }

    /// Makes the client a watcher (it gets every ``ControlServer/broadcast(_:)`` line) or stops that.
    package func setWatching(_ watching: Bool) {
        server.setWatching(watching, client: id)
    }

    /// Whether the client is still connected.
    package var isOpen: Bool { server.isConnected(id) }
}

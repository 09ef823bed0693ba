/// One part of the daemon, as ``SingletondServiceGroup`` runs it: started in order, shut down in reverse.
///
/// The same two verbs as the registry's `ManagedSingleton`: ``start()`` makes the part ready or throws why it
/// cannot be, and ``shutdown()`` ends it gracefully once every part started after it has ended.
package protocol SingletondService: AnyObject, Sendable {
    /// Starts the part; a failure ends the daemon with exit status 1, after the parts started before are shut down.
    func start() async throws(SingletondStartError)
    /// Ends the part gracefully.
    func shutdown() async
}

/// Why a part of the daemon could not start: the line the log shows.
package struct SingletondStartError: Error, CustomStringConvertible {
    /// The log line, for example `control socket: /tmp/singletond-0 is a symbolic link`.
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}

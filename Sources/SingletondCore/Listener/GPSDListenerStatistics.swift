/// What the listener reports in the control socket's `STATUS`.
package struct GPSDListenerStatistics: Sendable, Hashable {
    /// Clients connected.
    package var clients: Int
    /// Clients whose watch streams JSON reports.
    package var watching: Int
    /// Reports dropped from the queues of clients that read too slowly, since the listener started.
    package var droppedReports: Int
}

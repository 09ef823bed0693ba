import SingletonRegistry

/// Runs the daemon's parts one after another and shuts them down in reverse, and is the one place that decides the
/// exit status. The reverse shutdown is what it shares with swift-service-lifecycle's `ServiceGroup`, which runs its
/// services side by side.
///
/// It starts the services in order and stops starting at the first failure or at the first SIGTERM or SIGINT; then,
/// unless a start failed, it waits for that signal; then it shuts down every service that started, in reverse
/// order. The exit status is 0 after a graceful shutdown and 1 when a service could not start. The hard deadline of
/// a shutdown that hangs belongs to the signal's handling (``Singletond/run(_:environment:signals:)``), armed the moment the signal arrives.
package struct SingletondServiceGroup: Sendable {
    /// The services, in the order they start.
    package let services: [any SingletondService]
    /// Where start failures and the end are logged.
    package let logger: LogWriter

    package init(_ services: [any SingletondService], logger: LogWriter) {
        self.services = services
        self.logger = logger
    }

    /// Runs the group until `terminated` returns; `terminationRequested` says whether it would return at once.
    /// `startFailed` is called when a service could not start, before the others are shut down.
    package func run(
        terminationRequested: @Sendable () -> Bool, terminated: @Sendable () async -> Void,
        startFailed: @Sendable () -> Void = {}
    ) async -> Int32 {
        let (started, failure) = await OrderedStart.start(services, while: { !terminationRequested() }) {
            (service) throws(SingletondStartError) in try await service.start()
        }
        if let failure {
            logger.error(failure.description)
            startFailed()
        }
        let status: Int32 = failure == nil ? 0 : 1
        if status == 0 { await terminated() }
        for service in started.reversed() { await service.shutdown() }
        if status == 0 { logger.info("stopped") }
        return status
    }
}

import SingletonRegistry
import SystemCalls

/// A listening socket served by one thread of its own, speaking the protocol of a ``ConnectionHandler``: the
/// control socket (``ControlServer``) and the gpsd listener (``GPSDListener``).
///
/// The thread runs a `poll(2)` loop over a ``WakePipe``, the listening socket and every client; it sleeps in `poll`
/// with no timeout while nothing is to be done, so an idle server costs nothing. It accepts clients through a
/// ``ConnectionAcceptor`` (shedding them when descriptors run out), up to ``ClientLimits/maximumClients``, hands each
/// client's events to the handler, closes the clients the handler is done with and those idle for
/// ``ClientLimits/idleTimeout``, and logs refusals and drops once, then counted. Idle clients are timed on the
/// server's clock, the registry's: a task sleeps on it until the earliest idle client's time is up and then wakes the
/// thread, so a test that installs a `TestClock` decides when a client is idle. What other threads change (replies,
/// broadcasts) is kept under a lock (a ``SanitizerVisibleMutex``) and wakes the thread through the pipe.
package final class ConnectionServer<Served: ConnectionHandler>: Sendable {
    struct State: Sendable {
        var clients: [Int: Served.Client] = [:]
        var nextID = 1
        var shared: Served.Shared
        /// Refusals and drops, counted per reason so that a loop of misbehaving clients does not flood the log.
        var drops = RepeatLimiter<String>()
        /// Whether the thread was started: ``stop()`` waits for it only then.
        var started = false
        var accepting = false
        var stopping = false
        var finished = false
        var listenerClosed = false
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
        /// Tasks waiting in ``untilNoClients()``.
        var emptyWaiters: [CheckedContinuation<Void, Never>] = []
        /// The task that wakes the poll thread when the earliest idle client's time is up.
        var idleTimer: Task<Void, Never>?
    }

    /// The protocol spoken on the connections.
    package let handler: Served
    let logger: LogWriter
    /// The time idle clients and the log's counts are measured in: the registry's clock.
    let timeline: Timeline
    let listenFD: Int32
    let wakePipe: WakePipe
    let state: SanitizerVisibleMutex<State>

    /// A server of `handler` on the listening, non-blocking socket `listenFD`, which it closes when it stops; `wake`
    /// is its pipe, created by the caller so that its failure is a failure to bind.
    init(
        handler: Served, shared: Served.Shared, listenFD: Int32, wake: WakePipe, logger: LogWriter,
        clock: any Clock<Duration>
    ) {
        self.handler = handler
        self.listenFD = listenFD
        self.wakePipe = wake
        self.logger = logger
        self.timeline = Timeline(clock)
        self.state = SanitizerVisibleMutex(State(shared: shared))
    }

    /// The limits on clients.
    package var limits: ClientLimits { handler.limits }

    /// Starts accepting clients on a thread of its own; throws when the system refuses another thread, and then
    /// accepts nothing.
    package func start() throws(Errno) {
        state.withLock { state in
            state.started = true
            state.accepting = true
        }
        do throws(Errno) {
            // The thread, and the tasks it starts for each request, read the registry as the starting task does
            // (its override scope, in a test), not as code of no task.
            try withEscapedSingletons { escaped throws(Errno) in
                _ = try System.startThread(named: handler.threadName) { [self] in escaped.yield { self.run() } }
            }
        } catch {
            state.withLock { state in
                state.started = false
                state.accepting = false
                handler.release(&state.shared)
            }
            throw error
        }
    }

    /// Stops accepting new clients; connected clients stay until ``stop()``.
    package func stopAccepting() {
        let wasAccepting = state.withLock { state in
            defer { state.accepting = false }
            return state.accepting
        }
        if wasAccepting { handler.stoppedAccepting() }
        wake()
    }

    /// Stops accepting, lets the clients that hold the stop (``ConnectionHandler/holdsStop(_:)``) finish, sends what
    /// is queued for each client as far as it goes without blocking, closes every client and the socket, and
    /// returns when the server's thread has ended (at once when it never started); a second call closes nothing more.
    package func stop() async {
        stopAccepting()
        let started = state.withLock { state in
            state.stopping = true
            return state.started
        }
        guard started else {
            closeListener()
            return
        }
        wake()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.finished { return true }
                state.finishWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Returns once no client is connected: every client the server accepted has been closed and reaped. A test
    /// hook, so that a test waits for the server instead of polling it.
    package func untilNoClients() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let empty = state.withLock { state in
                if state.clients.isEmpty { return true }
                state.emptyWaiters.append(continuation)
                return false
            }
            if empty { continuation.resume() }
        }
    }

    /// The number of connected clients.
    package var clientCount: Int { state.withLock { $0.clients.count } }

    /// Wakes the poll thread, to look at the clients again.
    func wake() {
        wakePipe.signal()
    }

    /// Closes the listening socket, once, and tells the handler that the server accepts no more.
    func closeListener() {
        let first = state.withLock { state in
            defer { state.listenerClosed = true }
            return !state.listenerClosed
        }
        guard first else { return }
        System.close(listenFD)
        handler.stoppedAccepting()
    }
}

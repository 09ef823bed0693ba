import SystemCalls

/// The daemon's entry point, kept in a library so that tests can drive it.
package enum Singletond {
    /// The version `singletond --version` prints.
    package static let version = "0.1.0"

    /// Runs the command line `arguments` (without the program name) as the `singletond` process and exits with
    /// its status; call it from a synchronous `main`, before any other thread exists.
    ///
    /// `decode`, a filter that needs no concurrency, runs on the main thread itself: no thread is started for it.
    ///
    /// When the arguments run the daemon, the main thread first checks that the address space limit leaves room
    /// for the daemon's threads (``AddressSpaceCheck``), then blocks the signals the daemon handles, so that every
    /// thread inherits the block (see ``SignalHandler/blockSignals()``), and starts the signal handler's thread; it
    /// exits 1 with a message when either fails. The client commands keep the default actions, so Control-C ends
    /// `singletond watch`. ``main(_:)`` runs on the cooperative pool while the main thread sleeps with that mask. It
    /// does not serve the main actor: `dispatchMain()`, which an `async` top level calls, waits in `sigsuspend(2)`
    /// with an empty mask, and the signals would reach that thread rather than the signal handler's.
    package static func runProcess(_ arguments: [String]) -> Never {
        if arguments.first == "decode" { System.exit(DecodeCommand.run(Array(arguments.dropFirst()))) }
        var signals: SignalHandler?
        if case .run(let options) = try? CommandLineParser.parse(arguments) {
            if let problem = AddressSpaceCheck.problem() {
                writeError("singletond: \(problem)\n")
                System.exit(1)
            }
            SignalHandler.blockSignals()
            signals = startSignalHandler(stopTimeout: options.stopTimeout)
            if signals == nil { System.exit(1) }
        }
        Task { [signals] in System.exit(await main(arguments, signals: signals)) }
        while true { System.pause() }
    }

    /// Runs the command line `arguments` (without the program name) and returns the process exit status.
    ///
    /// `signals` is the process's signal handler when the arguments run the daemon; without one, the daemon makes
    /// its own.
    package static func main(_ arguments: [String], signals: SignalHandler? = nil) async -> Int32 {
        switch arguments.first {
        case "decode": return DecodeCommand.run(Array(arguments.dropFirst()))
        default: break
        }
        let command: SingletondCommand
        do {
            command = try CommandLineParser.parse(arguments)
        } catch {
            writeError("singletond: \(error.message)\n\(Usage.text)")
            return Usage.exitStatus
        }
        let environment = System.environment()
        func client(_ options: ClientOptions) -> ControlClient {
            ControlClient(
                path: ControlPath.resolve(options.control, environment: environment, userID: System.userID()),
                timeout: options.timeout)
        }
        func privateDirectoryProblem(_ options: ClientOptions) -> String? {
            guard options.control == nil,
                let directory = ControlPath.privateDirectory(environment: environment, userID: System.userID())
            else { return nil }
            return ControlPath.checkPrivate(directory, create: false)
        }
        switch command {
        case .status(let options), .watch(let options), .survey(_, let options), .cancel(let options):
            if let problem = privateDirectoryProblem(options) {
                writeError("singletond: \(problem)\n")
                return 1
            }
        default: break
        }
        switch command {
        case .run(let options):
            guard let signals = signals ?? startSignalHandler(stopTimeout: options.stopTimeout) else { return 1 }
            return await run(options, environment: environment, signals: signals)
        case .status(let options): return client(options).status()
        case .watch(let options): return client(options).watch()
        case .survey(let seconds, let options): return client(options).survey(seconds: seconds)
        case .cancel(let options): return client(options).cancel()
        case .decode(let rest): return DecodeCommand.run(rest)
        case .help:
            writeOut(Usage.text)
            return 0
        case .version:
            writeOut("singletond \(version)\n")
            return 0
        }
    }

    /// The daemon's signal handler, or `nil` when its thread cannot start (said on standard error).
    private static func startSignalHandler(stopTimeout: Duration) -> SignalHandler? {
        do throws(Errno) {
            return try SignalHandler(stopTimeout: stopTimeout)
        } catch {
            writeError("singletond: cannot start the thread that handles signals: \(error)\n")
            return nil
        }
    }

    /// Writes all of `text` to standard output, giving up on the first failure.
    private static func writeOut(_ text: String) { _ = try? System.writeAll(1, Array(text.utf8)) }
    /// Writes all of `text` to standard error, giving up on the first failure.
    private static func writeError(_ text: String) { _ = try? System.writeAll(2, Array(text.utf8)) }
}

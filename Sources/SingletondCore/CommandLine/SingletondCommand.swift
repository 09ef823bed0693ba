/// What a `singletond` command line asks for, as ``CommandLineParser/parse(_:)`` reads it.
package enum SingletondCommand: Sendable, Hashable {
    /// Run the daemon.
    case run(RunOptions)
    /// Print the running daemon's status (`singletond status`).
    case status(ClientOptions)
    /// Stream the running daemon's TPV lines until interrupted (`singletond watch`).
    case watch(ClientOptions)
    /// Ask the running daemon for a position survey of `seconds` (its default when `nil`) and wait for the result.
    case survey(seconds: Double?, ClientOptions)
    /// Cancel the running daemon's survey (`singletond cancel`).
    case cancel(ClientOptions)
    /// Decode NMEA to gpsd JSON (`singletond decode`), with the arguments that follow `decode`.
    case decode([String])
    /// Print the usage.
    case help
    /// Print the version.
    case version
}

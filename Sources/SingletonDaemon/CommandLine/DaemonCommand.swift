/// What a `singletond` command line asks for, as ``CommandLineParser/parse(_:)`` reads it.
public enum DaemonCommand: Sendable, Hashable {
    /// Run the daemon.
    case run(RunOptions)
    /// Print the running daemon's status (`singletond status`).
    case status(control: String?)
    /// Stream the running daemon's TPV lines until interrupted (`singletond watch`).
    case watch(control: String?)
    /// Ask the running daemon for a position survey of `seconds` (its default when `nil`) and wait for the result.
    case survey(seconds: Double?, control: String?)
    /// Cancel the running daemon's survey (`singletond cancel`).
    case cancel(control: String?)
    /// Decode NMEA to gpsd JSON (`singletond decode`), with the arguments that follow `decode`.
    case decode([String])
    /// Print the usage.
    case help
    /// Print the version.
    case version
}

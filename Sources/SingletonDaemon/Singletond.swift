/// The daemon's entry point, kept in a library so that tests can drive it.
public enum Singletond {
    /// The version `singletond --version` prints.
    public static let version = "0.1.0"

    /// Runs the command line `arguments` (without the program name) and returns the process exit status.
    public static func main(_ arguments: [String]) async -> Int32 {
        switch arguments.first {
        case "decode": return DecodeCommand.run(Array(arguments.dropFirst()))
        case "--version":
            print("singletond \(version)")
            return 0
        default:
            print("usage: singletond [--help | --version]")
            return arguments.first == "--help" ? 0 : 64
        }
    }
}

/// Where the control socket lives when `--control` is not given.
public enum ControlPath {
    /// `$XDG_RUNTIME_DIR/singletond.sock` when that variable names a directory path, else
    /// `/tmp/singletond-UID.sock`.
    public static func defaultPath(environment: [String: String], userID: UInt32) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime.hasSuffix("/") ? runtime + "singletond.sock" : runtime + "/singletond.sock"
        }
        return "/tmp/singletond-\(userID).sock"
    }

    /// The path to use: `given`, or the default for this process.
    public static func resolve(_ given: String?, environment: [String: String], userID: UInt32) -> String {
        given ?? defaultPath(environment: environment, userID: userID)
    }
}

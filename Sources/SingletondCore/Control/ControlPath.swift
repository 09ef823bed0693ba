import Glibc
import SystemCalls

/// Where the control socket lives when `--control` is not given.
package enum ControlPath {
    /// `$XDG_RUNTIME_DIR/singletond.sock` when that variable names a directory path, else
    /// `/tmp/singletond-UID/singletond.sock`, in a directory of the user's own (see ``privateDirectory(environment:userID:)``).
    package static func defaultPath(environment: [String: String], userID: UInt32) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime.hasSuffix("/") ? runtime + "singletond.sock" : runtime + "/singletond.sock"
        }
        return "/tmp/singletond-\(userID)/singletond.sock"
    }

    /// The path to use: `given`, or the default for this process.
    package static func resolve(_ given: String?, environment: [String: String], userID: UInt32) -> String {
        given ?? defaultPath(environment: environment, userID: userID)
    }

    /// The directory the default path lives in when there is no `$XDG_RUNTIME_DIR`: `/tmp/singletond-UID`, which
    /// anyone could create first, so the daemon and the client check it (``checkPrivate(_:create:)``); `nil` when
    /// `$XDG_RUNTIME_DIR` (private by construction) applies.
    package static func privateDirectory(environment: [String: String], userID: UInt32) -> String? {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return nil }
        return "/tmp/singletond-\(userID)"
    }

    /// What another user could do with the socket path `path`, in words, or `nil` when nothing: a symbolic link on
    /// it, or a directory of it, that belongs to another user than this process's and root, or a directory every
    /// user may write without the sticky bit (``TrustedPath``). The socket's own name is not followed: `bind(2)`
    /// never follows it. An abstract name (`@...`) has no path to check.
    package static func checkTrusted(_ path: String) -> String? {
        guard !path.hasPrefix("@") else { return nil }
        do throws(TrustedPath.Refusal) {
            try TrustedPath.walk(path, ownedDirectories: true) { _, _ throws(Errno) in }
            return nil
        } catch {
            return error.reason
        }
    }

    /// Checks that `directory` is a directory (not a link) of this process's user that nobody else may enter,
    /// creating it with mode 0700 first when `create` is set and it is missing; the problem, in words, or `nil`.
    ///
    /// A directory another user made first (to put a socket of their own where the daemon's would be) is refused,
    /// never used or removed.
    package static func checkPrivate(_ directory: String, create: Bool) -> String? {
        if create {
            do throws(Errno) {
                try System.makeDirectory(directory, mode: 0o700)
            } catch {
                guard error.code == EEXIST else { return "cannot create \(directory): \(error)" }
            }
        }
        let info: stat
        do throws(Errno) {
            info = try System.linkStatus(ofPath: directory)
        } catch {
            return create ? "cannot check \(directory): \(error)" : nil
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return "\(directory) is not a directory (a link or a file is there); refusing to use it"
        }
        guard info.st_uid == System.effectiveUserID() else {
            return "\(directory) belongs to uid \(info.st_uid), not to you: another user may have made it to "
                + "squat the control socket; refusing to use it (use --control PATH or set XDG_RUNTIME_DIR)"
        }
        guard info.st_mode & 0o077 == 0 else {
            return "\(directory) has mode \(String(info.st_mode & 0o777, radix: 8)); it must be 700 (chmod 700 it)"
        }
        return nil
    }
}

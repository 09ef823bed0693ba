import Glibc
import SystemCalls

/// Opens the output file through ``TrustedPath``, so that no symbolic link another user planted, in a directory of
/// the path or at its end, chooses where a root daemon writes. The file itself is opened relative to the last
/// directory with `O_NOFOLLOW`; a link there is followed under the same rule.
enum OutputPath {
    /// Opens `path` for appending (creating it with mode 0640), or a FIFO for reading and writing (which never
    /// waits for a reader).
    ///
    /// - Throws: ``OutputError`` naming `path`, and the component when a link was refused.
    static func open(_ path: String) throws(OutputError) -> Int32 {
        do throws(TrustedPath.Refusal) {
            return try TrustedPath.walk(path, ownedDirectories: false) { directory, name throws(Errno) in
                // A FIFO opened for writing blocks until a reader comes, before the daemon can log or take a signal.
                // Opened for reading too, it never blocks: lines wait in the pipe for a reader, and then in the
                // output's queue (at most `FixOutput.maximumPendingBytes`, later ones dropped and counted).
                let status = try? System.linkStatus(relativeTo: directory, name)
                let isFIFO = status.map { $0.st_mode & S_IFMT == S_IFIFO } ?? false
                let flags = isFIFO ? O_RDWR | O_CLOEXEC : O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC
                return try System.open(relativeTo: directory, name, flags | O_NOFOLLOW, mode: 0o640)
            }
        } catch {
            throw OutputError(path: path, reason: error.reason)
        }
    }
}

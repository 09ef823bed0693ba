import Glibc
import SystemCalls

/// Opens the output file by walking its path one component at a time, so that no symbolic link another user
/// planted, in a directory of the path or at its end, chooses where a root daemon writes.
///
/// Each directory is opened with `openat(2)` relative to the one before, `O_PATH | O_DIRECTORY | O_NOFOLLOW`,
/// starting from `/` (or the working directory for a relative path). A component that is a symbolic link is
/// followed only when the link belongs to this process's user or to root, as the kernel's `protected_symlinks`
/// does; its target is walked the same way, at most ``maximumLinks`` links in all (`ELOOP` beyond). The file
/// itself is opened relative to the last directory with `O_NOFOLLOW`.
enum OutputPath {
    /// How many symbolic links one path may go through: the kernel's own limit.
    static let maximumLinks = 40

    /// Opens `path` for appending (creating it with mode 0640), or a FIFO for reading and writing (which never
    /// waits for a reader).
    ///
    /// - Throws: ``OutputError`` naming `path`, and the component when a link was refused.
    static func open(_ path: String) throws(OutputError) -> Int32 {
        func call<Value>(_ body: () throws(Errno) -> Value) throws(OutputError) -> Value {
            do throws(Errno) {
                return try body()
            } catch {
                throw OutputError(path: path, reason: "\(error)")
            }
        }
        let directoryFlags = System.pathOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        let isAbsolute = path.hasPrefix("/")
        var directory = try call { () throws(Errno) in
            try System.open(relativeTo: AT_FDCWD, isAbsolute ? "/" : ".", directoryFlags)
        }
        defer { System.close(directory) }
        // The directory walked so far as text, for the messages: the path as resolved, not as given.
        var walked = isAbsolute ? "/" : ""
        // The components still to walk, the next one last.
        var pending = Array(components(of: path).reversed())
        var links = 0
        while let name = pending.popLast() {
            let shown = walked.isEmpty ? name : walked.hasSuffix("/") ? walked + name : walked + "/" + name
            let target: String
            if pending.isEmpty {
                // A FIFO opened for writing blocks until a reader comes, before the daemon can log or take a signal.
                // Opened for reading too, it never blocks: lines wait in the pipe for a reader, and then in the
                // output's queue (at most `FixOutput.maximumPendingBytes`, later ones dropped and counted).
                let status = try? System.linkStatus(relativeTo: directory, name)
                let isFIFO = status.map { $0.st_mode & S_IFMT == S_IFIFO } ?? false
                let flags = isFIFO ? O_RDWR | O_CLOEXEC : O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC
                do throws(Errno) {
                    return try System.open(relativeTo: directory, name, flags | O_NOFOLLOW, mode: 0o640)
                } catch {
                    guard error.code == ELOOP,
                        let link = try linkTarget(directory, name, shown: shown, path: path)
                    else { throw OutputError(path: path, reason: "\(error)") }
                    target = link
                }
            } else {
                do throws(Errno) {
                    let next = try System.open(relativeTo: directory, name, directoryFlags)
                    System.close(directory)
                    directory = next
                    walked = shown
                    continue
                } catch {
                    guard error.code == ENOTDIR || error.code == ELOOP,
                        let link = try linkTarget(directory, name, shown: shown, path: path)
                    else { throw OutputError(path: path, reason: "\(error)") }
                    target = link
                }
            }
            links += 1
            guard links <= maximumLinks else { throw OutputError(path: path, reason: "\(Errno(code: ELOOP))") }
            if target.hasPrefix("/") {
                let root = try call { () throws(Errno) in try System.open(relativeTo: AT_FDCWD, "/", directoryFlags) }
                System.close(directory)
                directory = root
                walked = "/"
            }
            pending.append(contentsOf: components(of: target).reversed())
        }
        // Nothing named a file: an empty path, or one (or a link's target) that is `/`.
        throw OutputError(path: path, reason: "\(Errno(code: path.isEmpty ? ENOENT : EISDIR))")
    }

    /// The target of `name` in `directory` when it is a symbolic link this process may follow; `nil` when it is
    /// not a link.
    ///
    /// The link is opened itself (`O_PATH | O_NOFOLLOW`), and its owner and target read from that descriptor, so
    /// that another link put in its place meanwhile is not the one followed.
    ///
    /// - Throws: ``OutputError`` when the link belongs to another user than this process's and root.
    private static func linkTarget(
        _ directory: Int32, _ name: String, shown: String, path: String
    ) throws(OutputError) -> String? {
        let failure = { (error: Errno) in OutputError(path: path, reason: "\(error)") }
        let link: Int32
        do throws(Errno) {
            link = try System.open(relativeTo: directory, name, System.pathOnly | O_NOFOLLOW | O_CLOEXEC)
        } catch {
            throw failure(error)
        }
        defer { System.close(link) }
        let info: stat
        do throws(Errno) { info = try System.status(of: link) } catch { throw failure(error) }
        guard info.st_mode & S_IFMT == S_IFLNK else { return nil }
        guard info.st_uid == System.effectiveUserID() || info.st_uid == 0 else {
            let subject = shown == path ? "it is" : "\(shown) is"
            throw OutputError(
                path: path,
                reason: "\(subject) a symbolic link owned by uid \(info.st_uid), neither this daemon's user nor root; "
                    + "refusing to follow it")
        }
        do throws(Errno) { return try System.readLink(relativeTo: link, "") } catch { throw failure(error) }
    }

    /// The names between slashes in `path`, empty ones (from `//` or a trailing `/`) left out.
    private static func components(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}

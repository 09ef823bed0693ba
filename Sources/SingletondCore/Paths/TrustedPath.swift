import Glibc
import SystemCalls

/// Walks a path one component at a time, so that nothing another user owns on the way chooses where a root daemon
/// creates its files: the output (``OutputPath``) and the control socket (``ControlPath/checkTrusted(_:)``).
///
/// Each directory is opened with `openat(2)` relative to the one before, `O_PATH | O_DIRECTORY | O_NOFOLLOW`,
/// starting from `/` (or the working directory for a relative path). A component that is a symbolic link is
/// followed only when the link belongs to this process's user or to root, as the kernel's `protected_symlinks`
/// does; its target is walked the same way, at most ``maximumLinks`` links in all (`ELOOP` beyond). With
/// `ownedDirectories`, every directory walked must also belong to this process's user or to root, and must not be
/// writable by every user without the sticky bit (as `/tmp` has): no other user can then rename or replace what
/// the daemon creates there.
enum TrustedPath {
    /// How many symbolic links one path may go through: the kernel's own limit.
    static let maximumLinks = 40

    /// Why a path was refused or could not be walked, as the system or the rule says it.
    struct Refusal: Error {
        var reason: String
    }

    /// Walks `path` to its last component and returns what `last` makes of it, given the open directory that holds
    /// it and its name.
    ///
    /// `last` throws `ELOOP` when the name is a symbolic link it does not follow itself (`O_NOFOLLOW`); the walk then
    /// follows the link under the rule above, and calls `last` again at its target.
    ///
    /// - Throws: ``Refusal`` with the component refused, or the system's reason.
    static func walk<Value>(
        _ path: String, ownedDirectories: Bool, last: (_ directory: Int32, _ name: String) throws(Errno) -> Value
    ) throws(Refusal) -> Value {
        let directoryFlags = System.pathOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        // Checks a directory just opened; closes it when it is refused.
        func check(_ fd: Int32, shown: String) throws(Refusal) {
            guard ownedDirectories, let problem = problem(ofDirectory: fd, shown: shown) else { return }
            System.close(fd)
            throw Refusal(reason: problem)
        }
        let isAbsolute = path.hasPrefix("/")
        var directory = try call { () throws(Errno) in
            try System.open(relativeTo: AT_FDCWD, isAbsolute ? "/" : ".", directoryFlags)
        }
        try check(directory, shown: isAbsolute ? "/" : "the working directory")
        defer { System.close(directory) }
        // The directory walked so far as text, for the messages: the path as resolved, not as given.
        var walked = isAbsolute ? "/" : ""
        // The components still to walk, the next one last.
        var pending = Array(components(of: path).reversed())
        var links = 0
        while let name = pending.popLast() {
            let shown = walked.isEmpty ? name : walked.hasSuffix("/") ? walked + name : walked + "/" + name
            let opened: Result<Int32, Errno>
            if pending.isEmpty {
                do throws(Errno) { return try last(directory, name) } catch { opened = .failure(error) }
            } else {
                opened = Result { () throws(Errno) in try System.open(relativeTo: directory, name, directoryFlags) }
            }
            let failure: Errno
            switch opened {
            case .success(let next):
                try check(next, shown: shown)
                System.close(directory)
                directory = next
                walked = shown
                continue
            case .failure(let error):
                failure = error
            }
            let mayBeLink = failure.code == ELOOP || (!pending.isEmpty && failure.code == ENOTDIR)
            guard mayBeLink, let target = try linkTarget(directory, name, shown: shown, path: path) else {
                throw Refusal(reason: "\(failure)")
            }
            links += 1
            guard links <= maximumLinks else { throw Refusal(reason: "\(Errno(code: ELOOP))") }
            if target.hasPrefix("/") {
                let root = try call { () throws(Errno) in try System.open(relativeTo: AT_FDCWD, "/", directoryFlags) }
                try check(root, shown: "/")
                System.close(directory)
                directory = root
                walked = "/"
            }
            pending.append(contentsOf: components(of: target).reversed())
        }
        // Nothing named a file: an empty path, or one (or a link's target) that is `/`.
        throw Refusal(reason: "\(Errno(code: path.isEmpty ? ENOENT : EISDIR))")
    }

    /// What is wrong with the open directory `fd` for `ownedDirectories`, in words; `nil` when nothing is.
    private static func problem(ofDirectory fd: Int32, shown: String) -> String? {
        let info: stat
        do throws(Errno) { info = try System.status(of: fd) } catch { return "cannot check \(shown): \(error)" }
        guard info.st_uid == System.effectiveUserID() || info.st_uid == 0 else {
            return "\(shown) belongs to uid \(info.st_uid), neither this daemon's user nor root; refusing to use it"
        }
        guard info.st_mode & S_IWOTH == 0 || info.st_mode & S_ISVTX != 0 else {
            return "\(shown) may be written by every user (mode \(String(info.st_mode & 0o7777, radix: 8)), without "
                + "the sticky bit); refusing to use it"
        }
        return nil
    }

    /// The target of `name` in `directory` when it is a symbolic link this process may follow; `nil` when it is
    /// not a link.
    ///
    /// The link is opened itself (`O_PATH | O_NOFOLLOW`), and its owner and target read from that descriptor, so
    /// that another link put in its place meanwhile is not the one followed.
    ///
    /// - Throws: ``Refusal`` when the link belongs to another user than this process's and root.
    private static func linkTarget(
        _ directory: Int32, _ name: String, shown: String, path: String
    ) throws(Refusal) -> String? {
        let link = try call { () throws(Errno) in
            try System.open(relativeTo: directory, name, System.pathOnly | O_NOFOLLOW | O_CLOEXEC)
        }
        defer { System.close(link) }
        let info = try call { () throws(Errno) in try System.status(of: link) }
        guard info.st_mode & S_IFMT == S_IFLNK else { return nil }
        guard info.st_uid == System.effectiveUserID() || info.st_uid == 0 else {
            let subject = shown == path ? "it is" : "\(shown) is"
            throw Refusal(
                reason: "\(subject) a symbolic link owned by uid \(info.st_uid), neither this daemon's user nor root; "
                    + "refusing to follow it")
        }
        return try call { () throws(Errno) in try System.readLink(relativeTo: link, "") }
    }

    /// Runs `body`, its failure as a ``Refusal``.
    private static func call<Value>(_ body: () throws(Errno) -> Value) throws(Refusal) -> Value {
        do throws(Errno) {
            return try body()
        } catch {
            throw Refusal(reason: "\(error)")
        }
    }

    /// The names between slashes in `path`, empty ones (from `//` or a trailing `/`) left out.
    private static func components(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}

import Glibc

extension System {
    /// `socket(2)`.
    package static func socket(family: Int32, type: Int32, protocol: Int32) throws(Errno) -> Int32 {
        try retrying { Glibc.socket(family, type, `protocol`) }
    }

    /// `bind(2)` to `address`.
    package static func bind(_ fd: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t) throws(Errno) {
        _ = try retrying { Glibc.bind(fd, address, length) }
    }

    /// `listen(2)` with room for `backlog` connections waiting to be accepted.
    package static func listen(_ fd: Int32, backlog: Int32) throws(Errno) {
        _ = try retrying { Glibc.listen(fd, backlog) }
    }

    /// `accept(2)`; a non-blocking socket with nobody waiting throws `EAGAIN`.
    package static func accept(_ fd: Int32) throws(Errno) -> Int32 {
        try retrying { Glibc.accept(fd, nil, nil) }
    }

    /// `connect(2)` of a blocking Unix-domain socket to `address`. Made again when interrupted: Linux leaves such a
    /// socket unconnected when a signal ends the wait for the listener's backlog.
    package static func connect(_ fd: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t) throws(Errno) {
        _ = try retrying { Glibc.connect(fd, address, length) }
    }

    /// `connect(2)` of a non-blocking socket to `address`, once: it throws `EINPROGRESS` while the connection is
    /// made, and an interrupted one goes on connecting; ``pendingSocketError(_:)`` says how it ended.
    package static func connect(_ fd: Int32, to address: addrinfo) throws(Errno) {
        guard Glibc.connect(fd, address.ai_addr, address.ai_addrlen) == 0 else { throw Errno(code: errno) }
    }

    /// `send(2)` of `bytes` with `MSG_NOSIGNAL` (a closed peer is `EPIPE`, never SIGPIPE), and with `MSG_DONTWAIT`
    /// unless `waiting`; returns how many the kernel took.
    package static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, waiting: Bool = true) throws(Errno) -> Int {
        let flags = Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT))
        return try retrying { Glibc.send(fd, bytes.baseAddress, bytes.count, flags) }
    }

    /// `sendmsg(2)` of the bytes `vectors` point to, in order, as one stream write, with `MSG_NOSIGNAL` and with
    /// `MSG_DONTWAIT` unless `waiting`; returns how many bytes the kernel took (it may take part of a vector).
    package static func send(_ fd: Int32, gathering vectors: UnsafeMutableBufferPointer<iovec>, waiting: Bool = true)
        throws(Errno) -> Int
    {
        var message = msghdr()
        message.msg_iov = vectors.baseAddress
        message.msg_iovlen = vectors.count
        let flags = Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT))
        return try retrying { sendmsg(fd, &message, flags) }
    }

    /// `sendto(2)` of the datagram `bytes` to `address`, with `MSG_NOSIGNAL`, and with `MSG_DONTWAIT` unless
    /// `waiting` (a receiver whose queue is full is then `EAGAIN`, never a wait); returns how many bytes went out.
    package static func send(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, to address: UnsafePointer<sockaddr>, length: socklen_t,
        waiting: Bool = true
    ) throws(Errno) -> Int {
        let flags = Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT))
        return try retrying { sendto(fd, bytes.baseAddress, bytes.count, flags, address, length) }
    }

    /// `setsockopt(2)` of an integer option (`SO_REUSEADDR`, `TCP_NODELAY`), ignoring failure: the options set
    /// here are refinements a socket works without.
    package static func setOption(_ fd: Int32, level: Int32, name: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// `setsockopt(2)` of a time option (`SO_RCVTIMEO`, `SO_SNDTIMEO`), ignoring failure: a socket without the
    /// limit still works, only waits longer.
    package static func setTimeOption(_ fd: Int32, name: Int32, _ value: timeval) {
        var value = value
        _ = setsockopt(fd, SOL_SOCKET, name, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The error a non-blocking `connect(2)` ended with (`getsockopt(2)`, `SO_ERROR`), 0 for success.
    package static func pendingSocketError(_ fd: Int32) throws(Errno) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { throw Errno(code: errno) }
        return code
    }

    /// The user ID of the process at the other end of the connected Unix socket `fd` (`getsockopt(2)`,
    /// `SO_PEERCRED`), or `nil` when the kernel does not say.
    package static func peerUserID(_ fd: Int32) -> UInt32? {
        // `struct ucred` (pid, uid, gid), which Glibc's module map leaves out without _GNU_SOURCE.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, length == 12 else { return nil }
        return credentials.uid
    }

    // MARK: Name resolution

    /// `getaddrinfo(3)` for TCP to `host`:`port`; the list must be given to ``freeAddresses(_:)``. On failure,
    /// the `EAI_` status and, for `EAI_SYSTEM`, `errno`.
    package static func addresses(
        host: String, port: UInt16
    ) -> Result<UnsafeMutablePointer<addrinfo>, AddressError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else { return .failure(AddressError(status: status, errorNumber: errno)) }
        return .success(list)
    }

    /// `freeaddrinfo(3)`.
    package static func freeAddresses(_ list: UnsafeMutablePointer<addrinfo>) {
        freeaddrinfo(list)
    }

    /// The text of a `getaddrinfo(3)` status (`gai_strerror`).
    package static func addressErrorMessage(_ status: Int32) -> String {
        String(cString: gai_strerror(status))
    }
}

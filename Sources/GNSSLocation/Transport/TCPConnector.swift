import Glibc
import SystemCalls

/// Non-blocking TCP connection, trying every address a name resolves to, each for at most the timeout.
///
/// The kernel times each attempt (`poll(2)`'s timeout): nothing here reads a clock, so the registry's clock stays
/// the only one the location code decides by.
enum TCPConnector {
    static func connect(host: String, port: UInt16, timeout: Duration) throws(SourceError) -> Int32 {
        let name = ByteSource.tcp(host: host, port: port).description
        let first: UnsafeMutablePointer<addrinfo>
        switch System.addresses(host: host, port: port) {
        case .success(let list):
            first = list
        case .failure(let failure):
            if failure.status == EAI_SYSTEM {
                throw SourceError(.resolve, source: host, errorNumber: failure.errorNumber)
            }
            throw SourceError(.resolve, source: host, reason: System.addressErrorMessage(failure.status))
        }
        defer { System.freeAddresses(first) }
        var lastError = SourceError(.connect, source: name, errorNumber: EADDRNOTAVAIL)
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let fd: Int32
            do {
                fd = try System.socket(
                    family: address.pointee.ai_family,
                    type: Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue),
                    protocol: address.pointee.ai_protocol)
            } catch {
                lastError = SourceError(.connect, source: name, errorNumber: error.code)
                continue
            }
            if let failure = attempt(fd, address.pointee, timeout: timeout, name: name) {
                System.close(fd)
                lastError = failure
                if failure.errorNumber == ETIMEDOUT { break }
                continue
            }
            System.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, 1)
            System.setOption(fd, level: SOL_SOCKET, name: SO_KEEPALIVE, 1)
            return fd
        }
        throw lastError
    }

    /// Connects `fd` to one address; `nil` on success.
    private static func attempt(
        _ fd: Int32, _ address: addrinfo, timeout: Duration, name: String
    ) -> SourceError? {
        do {
            try System.connect(fd, to: address)
            return nil
        } catch  where error.code == EINPROGRESS || error.code == EINTR {
            // Connecting: wait below.
        } catch {
            return SourceError(.connect, source: name, errorNumber: error.code)
        }
        var descriptors = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
        do {
            // Interrupted polls are made again (the threads that connect block the signals the daemon handles).
            guard try System.poll(&descriptors, timeout: PollTimeout.milliseconds(timeout)) > 0 else {
                return SourceError(.connect, source: name, errorNumber: ETIMEDOUT, reason: "timed out after \(timeout)")
            }
            let code = try System.pendingSocketError(fd)
            return code == 0 ? nil : SourceError(.connect, source: name, errorNumber: code)
        } catch {
            return SourceError(.connect, source: name, errorNumber: error.code)
        }
    }
}

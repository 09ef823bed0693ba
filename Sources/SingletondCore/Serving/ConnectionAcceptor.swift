import Glibc
import SingletonRegistry
import SystemCalls

/// Takes connections off a listening socket for a poll thread, the one thread that owns it, without spinning on a
/// socket that stays ready and without flooding the log.
///
/// Linux finds no descriptor before it looks for a waiting client, so out of descriptors (`EMFILE`, `ENFILE`) the
/// waiting clients would stay in the backlog and the socket ready for ever. The acceptor holds a reserve descriptor
/// (on `/dev/null`) instead: it closes it, accepts the waiting client with the descriptor freed, tells it why and
/// closes it, and takes the reserve again. A client given a descriptor numbered at or above
/// ``DescriptorBudget/clientCeiling(limit:)`` is shed the same way, so that clients leave the top descriptors to the
/// runtime. The first time descriptors run out is logged, and the number of clients shed once a client is accepted
/// again. A failure that shedding cannot help pauses accepting: the next poll leaves
/// the listening socket out and waits at most ``pauseMilliseconds``. Each such failure is logged once, then counted.
struct ConnectionAcceptor: ~Copyable {
    /// The longest poll without the listening socket after a pause, in milliseconds.
    static let pauseMilliseconds: Int32 = 1_000

    /// The listening socket.
    let listenFD: Int32
    /// How the log names the socket (`control socket`, `gpsd listener`).
    let name: String
    private let logger: LogWriter
    /// The descriptor to spend on a waiting client when descriptors run out; -1 when it could not be taken again.
    private var reserveFD: Int32
    /// Whether `accept(2)` ran out of descriptors since a client was last accepted.
    private var outOfDescriptors = false
    /// Clients shed since descriptors ran out.
    private var shedClients = 0
    /// Whether the next poll leaves the listening socket out.
    private var paused = false
    /// Failures that paused accepting, counted per error.
    private var failures = RepeatLimiter<String>()
    /// The lowest descriptor number a client may not have.
    private let clientCeiling = DescriptorBudget.clientCeiling()

    /// An acceptor for `listenFD`, holding its reserve descriptor.
    init(listenFD: Int32, name: String, logger: LogWriter) {
        self.listenFD = listenFD
        self.name = name
        self.logger = logger
        self.reserveFD = Self.openReserve()
    }

    deinit {
        if reserveFD >= 0 { System.close(reserveFD) }
    }

    /// Whether the next poll watches the listening socket. After a pause it does not, once (the caller then
    /// polls for at most ``pauseMilliseconds``), and a spent reserve descriptor is taken again first.
    mutating func watchesListener() -> Bool {
        guard paused else { return true }
        paused = false
        if reserveFD < 0 { reserveFD = Self.openReserve() }
        return false
    }

    /// The next waiting client's descriptor (close-on-exec and non-blocking), or `nil` when none waits or accepting
    /// pauses. Clients shed for want of descriptors are given `refusal(reason)` and closed; `now` (on the caller's
    /// clock) counts failures for the log.
    mutating func accept(now: Duration, refusal: (String) -> [UInt8]) -> Int32? {
        while true {
            let fd: Int32
            do throws(Errno) {
                fd = try System.accept(listenFD)
            } catch {
                switch error.code {
                case EAGAIN, EWOULDBLOCK: return nil
                case ECONNABORTED: continue
                case EMFILE, ENFILE:
                    // Linux finds no descriptor before it looks for a waiting client, so this says nothing of whether
                    // one waits: at the limit with nobody waiting is not news, a client shed or a pause is.
                    switch shedClient(error, refusal: refusal) {
                    case .shed:
                        noteOutOfDescriptors("\(error)")
                        continue
                    case .nobodyWaiting: return nil
                    case .failed:
                        // No reserve, or the freed descriptor went to another thread: wait instead of spinning.
                        noteOutOfDescriptors("\(error)")
                        paused = true
                        return nil
                    }
                default:
                    pause(error, now: now)
                    return nil
                }
            }
            if fd >= clientCeiling {
                let reason = "\(DescriptorBudget.reserve) are kept for the daemon itself"
                Self.refuse(
                    fd, with: refusal("the daemon is out of file descriptors for clients (\(reason)); try again later"))
                noteOutOfDescriptors(reason)
                shedClients += 1
                continue
            }
            reportShedClients()
            System.setCloseOnExec(fd)
            System.setNonBlocking(fd)
            return fd
        }
    }

    /// Sends `line` to the just-accepted client `fd` without waiting for it to read, and closes it.
    static func refuse(_ fd: Int32, with line: [UInt8]) {
        _ = line.withUnsafeBytes { try? System.send(fd, $0, waiting: false) }
        System.close(fd)
    }

    /// What spending the reserve descriptor on a waiting client came to.
    private enum Shedding {
        /// A client was accepted, told why and closed.
        case shed
        /// Nobody was waiting.
        case nobodyWaiting
        /// There was no reserve, or the descriptor it freed went to another thread.
        case failed
    }

    private mutating func shedClient(_ error: Errno, refusal: (String) -> [UInt8]) -> Shedding {
        guard reserveFD >= 0 else { return .failed }
        System.close(reserveFD)
        let outcome: Shedding
        do throws(Errno) {
            let fd = try System.accept(listenFD)
            Self.refuse(fd, with: refusal("the daemon is out of file descriptors (\(error)); try again later"))
            outcome = .shed
        } catch {
            outcome = error.code == EAGAIN || error.code == EWOULDBLOCK ? .nobodyWaiting : .failed
        }
        reserveFD = Self.openReserve()
        if outcome == .shed { shedClients += 1 }
        return outcome
    }

    private mutating func noteOutOfDescriptors(_ reason: String) {
        guard !outOfDescriptors else { return }
        outOfDescriptors = true
        logger.warning("\(name): out of file descriptors (\(reason)); refusing new clients until some are free")
    }

    private mutating func reportShedClients() {
        guard outOfDescriptors else { return }
        logger.notice("\(name): file descriptors free again; refused \(shedClients) client(s) while out of them")
        outOfDescriptors = false
        shedClients = 0
    }

    private mutating func pause(_ error: Errno, now: Duration) {
        paused = true
        let reason = "accept failed: \(error)"
        switch failures.occurrence(of: reason, at: now) {
        case .first: logger.warning("\(name): \(reason); trying again in a second")
        case .summary(let count): logger.warning("\(name): \(count) more times \(reason)")
        case nil: break
        }
    }

    private static func openReserve() -> Int32 {
        (try? System.open("/dev/null", O_RDONLY | O_CLOEXEC)) ?? -1
    }
}

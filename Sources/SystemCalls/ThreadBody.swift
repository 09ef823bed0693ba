/// What a thread started by ``System/startThread(named:_:)`` runs, handed to it through `pthread_create(3)`.
final class ThreadBody: Sendable {
    /// The thread's name.
    let name: String
    /// The thread's work.
    let run: @Sendable () -> Void

    /// A thread named `name` that does `run`.
    init(name: String, _ run: @escaping @Sendable () -> Void) {
        self.name = name
        self.run = run
    }
}

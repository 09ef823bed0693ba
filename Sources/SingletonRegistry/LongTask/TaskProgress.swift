/// The handle a ``LongTask``'s work reports its progress through.
///
/// Each report hops to ``RegistryActor`` and is awaited, so reports reach the manager's state (and its observers)
/// in the order the job made them.
public struct TaskProgress: Sendable {
    private let manager: LongTaskManager
    private let run: Int

    init(manager: LongTaskManager, run: Int) {
        self.manager = manager
        self.run = run
    }

    /// Reports that the job has done `fraction` of its work; values are clamped to 0...1.
    public func report(_ fraction: Double) async {
        await manager.reportProgress(min(max(fraction, 0), 1), run: run)
    }
}

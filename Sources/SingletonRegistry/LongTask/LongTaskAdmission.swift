/// What ``LongTaskManager/run(_:whenBusy:)`` does with a job while others are running or queued.
///
/// A run that was cancelled and has not ended yet counts for none of them: nobody joins it, and it refuses nobody.
/// A new run starts once it has ended.
public enum LongTaskAdmission: Sendable, Hashable {
    /// Queue a new run of the job after the others.
    case queue
    /// Join the running or queued run of the same job (``LongTask/isSameJob(as:)``); queue a new run otherwise.
    case joinOrQueue
    /// Join the running or queued run of the same job; otherwise start the job only when nothing runs, and throw
    /// ``LongTaskError/busy(name:parameters:progress:)`` naming the job that does.
    case joinOrRefuse
}

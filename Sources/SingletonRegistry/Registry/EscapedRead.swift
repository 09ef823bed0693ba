/// A read of a replaced manager from outside the task tree of the scope that replaced it.
///
/// Such a read (from a detached task, a Dispatch callback, a thread) cannot see the task-local override, so it
/// gets the process-wide manager instead of the scope's replacement. The registry records it on every active scope
/// that replaced that manager; the `.singletons` test trait reports it as a test issue.
public struct EscapedRead: Sendable, Hashable, CustomStringConvertible {
    /// The manager that was read.
    public var key: SingletonKey

    /// Creates a record of an escaped read.
    public init(key: SingletonKey) { self.key = key }

    /// A sentence for a test report.
    public var description: String {
        "appSingletons.\(key) was read outside the task tree of the scope that overrides it, "
            + "so it got the process-wide manager instead of the override (a detached task, Dispatch callback "
            + "or thread does not inherit task-local overrides)"
    }
}

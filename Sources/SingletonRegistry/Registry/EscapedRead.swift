/// A read of a replaced value from outside the task tree of the scope that replaced it.
///
/// Such a read (from a detached task, a Dispatch callback, a thread) cannot see the task-local override, so it
/// gets the process-wide value instead of the scope's replacement.
public struct EscapedRead: Sendable, Hashable, CustomStringConvertible {
    /// The ``SingletonKey/name`` of the key that was read.
    public var keyName: String

    /// Creates a record of an escaped read.
    public init(keyName: String) { self.keyName = keyName }

    /// A sentence for a test report.
    public var description: String {
        "appSingletons.\(keyName) was read outside the task tree of the scope that overrides it, "
            + "so it got the process-wide value instead of the override (a detached task, Dispatch callback "
            + "or thread does not inherit task-local overrides)"
    }
}

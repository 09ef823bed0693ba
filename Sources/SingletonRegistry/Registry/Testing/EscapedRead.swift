/// A read of a replaced value from outside the task tree of the scope that replaced it.
///
/// Such a read (from a detached task, a Dispatch callback, a thread) cannot see the task-local override, so it
/// gets what a read outside every scope gets: in a test process, the key's test value, never a live one.
public struct EscapedRead: Sendable, Hashable, CustomStringConvertible {
    /// The ``SingletonKey/name`` of the key that was read.
    public var keyName: String
    /// The accessor the code that read it wrote (`weather` in `appSingletons.weather`), or the key's name where
    /// it is not known.
    public var accessor: String

    /// Creates a record of an escaped read through `accessor` (by default, the key's name).
    package init(keyName: String, accessor: String? = nil) {
        self.keyName = keyName
        self.accessor = accessor ?? keyName
    }

    /// A sentence for a test report.
    public var description: String {
        let key = accessor == keyName ? "" : " (key \(keyName))"
        return "appSingletons.\(accessor)\(key) was read outside the task tree of the scope that overrides it, "
            + "so it got the key's test value instead of the override (a detached task, Dispatch callback "
            + "or thread does not inherit task-local overrides)"
    }
}

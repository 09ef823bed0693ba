/// The guard on startup values: a value set on the process-wide container after the container came to hold the
/// key's live value (first read, or ``AppSingletons/declare(_:)``), or set by ``prepareSingletons(_:)`` after the
/// container it prepares had read the key, is reported.
///
/// The check is on the set path only: a read costs what it did.
@RegistryActor
enum LateStartupValues {
    /// The preparation running now, if any: the container ``prepareSingletons(_:)`` prepares, and the keys it held
    /// as read when the preparation began (a read made by the preparation itself is no earlier read).
    private static var preparing: (container: AppSingletons, readBefore: Set<ObjectIdentifier>)?

    /// The keys set process-wide after being read that were reported, each once for the process.
    private(set) static var reported: Set<ObjectIdentifier> = []

    /// Starts preparing `container`; returns the preparation that was running, for ``endPreparing(restoring:)``.
    static func beginPreparing(
        _ container: AppSingletons
    ) -> (container: AppSingletons, readBefore: Set<ObjectIdentifier>)? {
        defer {
            let read = container.boxes.lazy.filter { $0.isLive || $0.madeForTest }.map(\.id)
            preparing = (container, Set(read))
        }
        return preparing
    }

    /// Ends the current preparation, making `outer` the running one again.
    static func endPreparing(restoring outer: (container: AppSingletons, readBefore: Set<ObjectIdentifier>)?) {
        preparing = outer
    }

    /// Whether `prepareSingletons` runs.
    static var isPreparing: Bool { preparing != nil }

    /// Reports the setting of `box` in `container` (the acting one) if it comes after a read.
    static func check(_ box: AnySingletonBox, in container: AppSingletons) {
        let isProcessWide = container.kind == .processWide
        guard isPreparing || isProcessWide else { return }
        let id = box.id
        if let preparing, preparing.container === container {
            guard preparing.readBefore.contains(id) else { return }
            if isProcessWide {
                warn(box)
            } else if let held = container.ownBox(for: id), held.isLive || held.madeForTest {
                report(box)
            }
        } else if isProcessWide, let held = container.ownBox(for: id), held.isLive {
            warn(box)
        }
    }

    /// Warns once per key, through ``RegistryWarnings/handler``, of a process-wide value set after it was read.
    private static func warn(_ box: AnySingletonBox) {
        guard reported.insert(box.id).inserted else { return }
        RegistryWarnings.handler(message(box.name))
    }

    /// Records a value a test or scope prepared after reading it as an issue of the current test, or warns.
    private static func report(_ box: AnySingletonBox) {
        guard let context = TestValues.context, context.currentTest() != nil else {
            return RegistryWarnings.handler(message(box.name))
        }
        context.recordIssue(message(box.name))
    }

    /// The report of a value set after it was read.
    static func message(_ name: String) -> String {
        "appSingletons.\(name) was set after it was read: the new value takes effect, but code that read it before "
            + "keeps the value it read. Set startup values with prepareSingletons { $0.\(name) = ... } before "
            + "anything reads them (declare(_:) makes the live value, as a read does); to replace a value for a "
            + "while, use withSingletons."
    }
}

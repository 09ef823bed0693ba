import GNSSProtocol

/// One element of ``LocationManager/updates(bufferSize:)``: a fix, and how many older fixes this subscriber lost
/// just before it because it read too slowly.
public struct LocationUpdate: Sendable, Hashable {
    /// The fix.
    public var fix: Fix
    /// How many fixes were dropped from this subscriber's buffer since the previous update it read.
    public var droppedBefore: Int

    /// Creates an update.
    public init(fix: Fix, droppedBefore: Int = 0) {
        self.fix = fix
        self.droppedBefore = droppedBefore
    }
}

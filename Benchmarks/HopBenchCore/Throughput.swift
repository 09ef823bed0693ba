/// What one operation of a case processes, for cases that report a rate (sentences/s, MB/s).
public struct Throughput: Sendable, Codable, Equatable {
    /// How many items one operation handles.
    public var itemsPerOperation: Double
    /// The plural name of an item, such as "sentences".
    public var itemName: String
    /// How many bytes one operation consumes, when a byte rate means something.
    public var bytesPerOperation: Double?

    /// Describes the work of one operation.
    public init(itemsPerOperation: Double = 1, itemName: String, bytesPerOperation: Double? = nil) {
        self.itemsPerOperation = itemsPerOperation
        self.itemName = itemName
        self.bytesPerOperation = bytesPerOperation
    }
}

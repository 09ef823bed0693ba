/// The boxes a container holds: in the order they were added, and indexed by key for a read in a few nanoseconds.
///
/// Up to ``linearLimit`` boxes are searched in order, comparing one pointer each (an override scope holds a few).
/// Past that, an open-addressing hash table of positions into `boxes`, hashed by the address of the key's type
/// metadata (Fibonacci hashing, linear probing), finds a box by hashing one word and comparing one pointer in the
/// common case, whatever the number of keys. Neither way uses `Hasher` or a dynamic cast.
struct SingletonStorage {
    /// The boxes in the order their keys were added.
    private(set) var boxes: ContiguousArray<AnySingletonBox> = []
    /// Positions into `boxes`, `-1` where empty; empty while the boxes are few, then a power of two at least twice
    /// `boxes.count`.
    private var slots: ContiguousArray<Int32> = []
    /// `64 - log2(slots.count)`: the shift that turns the hash's top bits into a slot.
    private var shift: UInt64 = 64

    /// How many boxes are searched in order before the hash table is built.
    static let linearLimit = 8

    static func hash(_ id: ObjectIdentifier) -> UInt64 {
        UInt64(UInt(bitPattern: Int(bitPattern: id))) &* 0x9E37_79B9_7F4A_7C15
    }

    /// The box under `id`, if any.
    func box(for id: ObjectIdentifier) -> AnySingletonBox? {
        position(of: id).map { boxes[$0] }
    }

    /// The box under `id`, if any, unretained: valid while this storage is neither changed nor released.
    func unretainedBox(for id: ObjectIdentifier) -> Unmanaged<AnySingletonBox>? {
        guard let position = position(of: id) else { return nil }
        return Unmanaged.passUnretained(boxes[position])
    }

    /// The position in `boxes` of the box under `id`, if any.
    private func position(of id: ObjectIdentifier) -> Int? {
        if slots.isEmpty {
            for position in boxes.indices where boxes[position].id == id { return position }
            return nil
        }
        let mask = slots.count &- 1
        var slot = Int(truncatingIfNeeded: Self.hash(id) >> shift)
        while true {
            let position = Int(truncatingIfNeeded: slots[slot])
            if position < 0 { return nil }
            if boxes[position].id == id { return position }
            slot = (slot &+ 1) & mask
        }
    }

    /// Puts `box` under its key, replacing a box there and keeping that key's place in the order.
    mutating func set(_ box: AnySingletonBox) {
        if let position = position(of: box.id) {
            boxes[position] = box
            return
        }
        boxes.append(box)
        if slots.isEmpty {
            if boxes.count > Self.linearLimit { rehash(capacity: 32) }
        } else if boxes.count * 2 > slots.count {
            rehash(capacity: slots.count * 2)
        } else {
            slots[emptySlot(for: box.id)] = Int32(boxes.count - 1)
        }
    }

    private func emptySlot(for id: ObjectIdentifier) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(id) >> shift)
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        return slot
    }

    private mutating func rehash(capacity: Int) {
        slots = ContiguousArray(repeating: -1, count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        for (position, box) in boxes.enumerated() { slots[emptySlot(for: box.id)] = Int32(position) }
    }
}

/// The boxes a container holds: in the order they were added, and indexed by key for a read in a few nanoseconds.
///
/// Up to ``linearLimit`` boxes are searched in order, comparing one pointer each (an override scope holds a few).
/// Past that, an open-addressing hash table of positions into `boxes`, hashed by the address of the key's type
/// metadata (Fibonacci hashing, linear probing), finds a box by hashing one word and comparing one pointer in the
/// common case, whatever the number of keys. Neither way uses `Hasher` or a dynamic cast.
///
/// The first box is kept inline and the others in an array, so that an override scope that replaces one value (what
/// a test's trait usually does) allocates no array.
struct SingletonStorage {
    /// The box added first.
    private var first: AnySingletonBox?
    /// The boxes added after the first, in order.
    private var others: ContiguousArray<AnySingletonBox> = []
    /// Positions in the order of adding (0 is `first`), `-1` where empty; empty while the boxes are few, then a
    /// power of two at least twice ``count``.
    private var slots: ContiguousArray<Int32> = []
    /// `64 - log2(slots.count)`: the shift that turns the hash's top bits into a slot.
    private var shift: UInt64 = 64

    /// How many boxes are searched in order before the hash table is built.
    static let linearLimit = 8

    static func hash(_ id: ObjectIdentifier) -> UInt64 {
        UInt64(UInt(bitPattern: Int(bitPattern: id))) &* 0x9E37_79B9_7F4A_7C15
    }

    /// How many boxes there are.
    var count: Int { first == nil ? 0 : 1 &+ others.count }

    /// The boxes in the order their keys were added.
    var boxes: ContiguousArray<AnySingletonBox> {
        guard let first else { return [] }
        var boxes: ContiguousArray = [first]
        boxes.append(contentsOf: others)
        return boxes
    }

    /// The box under `id`, if any: the lookup of every read, which finds the first box without unwrapping it again.
    @inline(__always)
    func box(for id: ObjectIdentifier) -> AnySingletonBox? {
        guard let first else { return nil }
        if slots.isEmpty {
            if first.id == id { return first }
            for index in others.indices where others[index].id == id { return others[index] }
            return nil
        }
        guard let position = hashedPosition(of: id) else { return nil }
        return position == 0 ? first : others[position &- 1]
    }

    /// The key of the box at `position`, an existing position.
    private func id(at position: Int) -> ObjectIdentifier {
        position == 0 ? first!.id : others[position &- 1].id
    }

    /// The position in the order of adding of the box under `id`, if any.
    private func position(of id: ObjectIdentifier) -> Int? {
        if slots.isEmpty {
            guard let first else { return nil }
            if first.id == id { return 0 }
            for index in others.indices where others[index].id == id { return index &+ 1 }
            return nil
        }
        return hashedPosition(of: id)
    }

    /// The position of the box under `id` found through the hash table, which is built.
    private func hashedPosition(of id: ObjectIdentifier) -> Int? {
        let mask = slots.count &- 1
        var slot = Int(truncatingIfNeeded: Self.hash(id) >> shift)
        while true {
            let position = Int(truncatingIfNeeded: slots[slot])
            if position < 0 { return nil }
            if self.id(at: position) == id { return position }
            slot = (slot &+ 1) & mask
        }
    }

    /// Puts `box` under its key, replacing a box there and keeping that key's place in the order.
    mutating func set(_ box: AnySingletonBox) {
        if let position = position(of: box.id) {
            if position == 0 { first = box } else { others[position &- 1] = box }
            return
        }
        if first == nil { first = box } else { others.append(box) }
        if slots.isEmpty {
            if count > Self.linearLimit { rehash(capacity: 32) }
        } else if count * 2 > slots.count {
            rehash(capacity: slots.count * 2)
        } else {
            slots[emptySlot(for: box.id)] = Int32(count - 1)
        }
    }

    /// Removes the box under `id`, if any, keeping the others' order.
    mutating func remove(_ id: ObjectIdentifier) {
        guard position(of: id) != nil else { return }
        let kept = boxes.filter { $0.id != id }
        self = SingletonStorage()
        for box in kept { set(box) }
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
        for position in 0..<count { slots[emptySlot(for: id(at: position))] = Int32(position) }
    }
}

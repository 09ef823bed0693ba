/// The registry's one kind of table: elements in memory it allocates, reached by index, with a count of those in
/// use.
///
/// Every table of the registry's process-wide bookkeeping is one: the scopes' entries by slot (``ScopeReadTable``),
/// the free slots and the kept scopes as stacks (``ActiveScopes``, ``ScopePool``) and the lifecycle answers by
/// hashed type (``LifecycleConformance``). (A container's own boxes, ``SingletonStorage``, are freed with the
/// container, so they live in Swift arrays, which free themselves.) Its fields are of trivial
/// types, so ``RegistryTables``, which holds them all, is initialised statically.
///
/// A value, not an owner: copying one copies the pointer. The tables are never freed, except the memory a
/// growing one leaves behind (``deallocate()``).
struct RegistryTable<Element> {
    /// The elements, `nil` until the first ``grow(toHold:filling:)`` or ``push(_:)``.
    private(set) var base: UnsafeMutablePointer<Element>?
    /// How many elements `base` has room for, all initialised when the table was grown with a filling.
    private(set) var capacity = 0
    /// How many elements are in use: a stack's height, or however the owner counts.
    var count = 0

    /// An empty table, with no memory.
    init() {}

    /// The element at `index`, which is below ``capacity``.
    subscript(index: Int) -> Element {
        get { base.unsafelyUnwrapped[index] }
        nonmutating set { base.unsafelyUnwrapped[index] = newValue }
    }

    /// Makes room for `index` (at least 16 elements, at least double), keeping the elements there are and setting
    /// the new ones to `empty`.
    mutating func grow(toHold index: Int, filling empty: Element) {
        let newCapacity = Swift.max(16, capacity * 2, index + 1)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base { grown.moveInitialize(from: base, count: capacity) }
        (grown + capacity).initialize(repeating: empty, count: newCapacity - capacity)
        base?.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// Replaces every element with `empty`, in memory of at least `capacity` elements (a power of two for a hashed
    /// table); the elements there were are dropped.
    mutating func reset(capacity newCapacity: Int, filling empty: Element) {
        if let base {
            base.deinitialize(count: capacity)
            base.deallocate()
        }
        base = .allocate(capacity: newCapacity)
        base.unsafelyUnwrapped.initialize(repeating: empty, count: newCapacity)
        capacity = newCapacity
    }

    /// Puts `element` on top of a stack, growing it when full.
    mutating func push(_ element: Element) {
        if count == capacity {
            let newCapacity = Swift.max(16, capacity * 2)
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
            if let base {
                grown.moveInitialize(from: base, count: count)
                base.deallocate()
            }
            base = grown
            capacity = newCapacity
        }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count &+= 1
    }

    /// Takes the element on top of a stack, if any.
    mutating func pop() -> Element? {
        guard count != 0 else { return nil }
        count &-= 1
        return (base.unsafelyUnwrapped + count).move()
    }

    /// Frees the memory, whose elements are trivial or already moved out.
    mutating func deallocate() {
        base?.deallocate()
        base = nil
        capacity = 0
        count = 0
    }
}

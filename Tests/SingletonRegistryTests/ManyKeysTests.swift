import SingletonRegistry
import TestSupport
import Testing

/// A container of many keys finds each of them, keeps them in the order they came, and replaces a value in place:
/// past a few keys a container looks them up through a hash table instead of one by one.
@Suite(.hangBound) struct ManyKeysTests {
    /// A type of its own for every nesting depth, to make a key of its own for each.
    enum Nest<Inner> {}
    /// A key of its own for every tag type.
    enum NumberedKey<Tag>: SingletonKey {
        static var liveValue: Int { -1 }
        static var testValue: Int { -2 }
    }

    /// Sets the keys of `Tag` and of the `last - index` tags nested around it to `value(index)` on `singletons`.
    @RegistryActor
    static func set<Tag>(
        _: Tag.Type, from index: Int, to last: Int, in singletons: AppSingletons, _ value: (Int) -> Int
    ) {
        singletons[NumberedKey<Tag>.self] = value(index)
        if index < last { set(Nest<Tag>.self, from: index + 1, to: last, in: singletons, value) }
    }

    /// The values under the keys of `Tag` and of the `last - index` tags nested around it.
    @RegistryActor
    static func values<Tag>(_: Tag.Type, from index: Int, to last: Int, in singletons: AppSingletons) -> [Int] {
        let value = singletons[NumberedKey<Tag>.self]
        return index < last ? [value] + values(Nest<Tag>.self, from: index + 1, to: last, in: singletons) : [value]
    }

    @Test @RegistryActor
    func fortyKeysAreFoundKeptInOrderAndReplacedInPlace() {
        let singletons = AppSingletons()
        Self.set(Int.self, from: 0, to: 39, in: singletons) { $0 }
        #expect(Self.values(Int.self, from: 0, to: 39, in: singletons) == Array(0...39))
        let names = singletons.entries.map(\.name)
        #expect(names.count == 40)

        Self.set(Int.self, from: 0, to: 39, in: singletons) { $0 * 10 }
        #expect(Self.values(Int.self, from: 0, to: 39, in: singletons) == (0...39).map { $0 * 10 })
        #expect(singletons.entries.map(\.name) == names, "replacing keeps each key in its place")
        #expect(
            Self.values(String.self, from: 0, to: 2, in: singletons) == [-2, -2, -2], "keys never set: the test value")
    }

    @Test @RegistryActor
    func nestedScopesOfManyKeysReadTheirOwnAndInheritTheRest() async {
        await withSingletons({ Self.set(Int.self, from: 0, to: 29, in: $0) { $0 * 2 } }) {
            #expect(Self.values(Int.self, from: 0, to: 29, in: appSingletons) == (0...29).map { $0 * 2 })
            await withSingletons({ Self.set(Nest<Nest<Int>>.self, from: 2, to: 19, in: $0) { -$0 } }) {
                let expected = (0...29).map { $0 >= 2 && $0 <= 19 ? -$0 : $0 * 2 }
                #expect(Self.values(Int.self, from: 0, to: 29, in: appSingletons) == expected)
            }
            #expect(Self.values(Int.self, from: 0, to: 29, in: appSingletons) == (0...29).map { $0 * 2 })
        }
    }
}

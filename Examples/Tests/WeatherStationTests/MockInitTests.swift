import SingletonRegistry
import Testing

/// A mock of a built-in manager with stored properties of its own, and no initialiser written: the initialiser it
/// inherits is `nonisolated`, so a nonisolated test makes it with no `await`.
final class StoredPropertyMock: LongTaskManager {
    var calls = 0
    var tag = "mock"
}

@Suite struct MockInitTests {
    @Test func aMockWithStoredPropertiesIsMadeOffTheActor() async {
        let mock = StoredPropertyMock()
        await withSingletons({ $0.longTaskManager = mock }) {
            #expect(await appSingletons.longTaskManager === mock)
        }
    }
}

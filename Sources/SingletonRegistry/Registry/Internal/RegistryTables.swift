/// The registry's process-wide bookkeeping, in one variable: the active scopes (``ScopeTable``) and the lifecycle
/// answers (``LifecycleConformance``), each built on ``RegistryTable``.
///
/// One variable of trivial types with a constant initial value: it is initialised statically, so using it makes no
/// lazy-initialisation check (`swift_once`), which a read would otherwise pay; and it is the registry's one static
/// variable unchecked for exclusivity, which is sound because only ``RegistryActor`` touches it, synchronously, and
/// no access to it is held across a call that could reach it again (CONCURRENCY.md, "The scope table").
@RegistryActor
enum RegistryTables {
    /// The tables.
    struct State {
        var scopes = ScopeTable.State()
        var lifecycle = RegistryTable<LifecycleConformance.Place>()
    }

    @exclusivity(unchecked) static var state = State()
}

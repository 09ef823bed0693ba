/// The shared values, as code reaches them: `appSingletons.longTaskManager`, with `await` outside
/// ``RegistryActor``.
///
/// A constant: the process-wide container, which never changes. Its members are isolated to ``RegistryActor``, and
/// each finds the reading task's override scope there: inside ``withSingletons(_:isolation:operation:)`` (or a test
/// using the `.singletons` trait) a read or a write goes to the scope's container, for the scope's task and every
/// child task and `Task {}` it starts; elsewhere to the process-wide values. So every spelling that compiles reads
/// on the actor, from any code, in debug and release builds (CONCURRENCY.md, "Reading from any isolation").
///
/// A scope's replacements last as long as the scope: a task that outlives it (a `Task {}` still running when
/// `withSingletons` returned) reads as code outside the scope afterwards, even through a scope nested in it: the
/// process-wide values in a program, the key's test value in a test process. While no scope is active at all, a read
/// skips the task-local lookup.
public let appSingletons = AppSingletons(processWide: ())

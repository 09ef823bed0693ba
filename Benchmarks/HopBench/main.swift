import Dispatch
import Glibc
import HopBenchCore

// The suite runs on the cooperative pool while the main thread drains the main actor's queue in `dispatchMain()`,
// so `mainactor.roundtrip` measures a real hop to the main thread. Under `--operations` (instruction counting with
// valgrind) the main thread waits on a semaphore instead: valgrind 3.19 crashes on the `rt_sigsuspend` that
// `dispatchMain()` parks in, and no case of that mode needs the main actor.
NMEASamples.noteIfAbsent()
let arguments = Array(CommandLine.arguments.dropFirst())
let run: @Sendable () async -> Never = {
    exit(await HopBench.main(arguments: arguments, cases: CaseCatalog.all, ratios: CaseCatalog.ratios))
}
Task.detached { await run() }
if arguments.contains("--operations") {
    DispatchSemaphore(value: 0).wait()
}
dispatchMain()

import Glibc
import HopBenchCore

// Top-level `await` makes this file async main: the main thread keeps draining the main actor's queue while the
// suite runs on the cooperative pool, so `mainactor.roundtrip` measures a real hop to the main thread.
NMEASamples.noteIfAbsent()
let status = await HopBench.main(
    arguments: Array(CommandLine.arguments.dropFirst()),
    cases: CaseCatalog.all,
    ratios: CaseCatalog.ratios
)
exit(status)

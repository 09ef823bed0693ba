import HopBenchCore

/// The namespace each case file extends with one `static let` of type `BenchmarkCase`.
enum Cases {}

/// Every case, in table order, and the ratio rows computed from them.
///
/// To add a case: write `Cases/<Name>.swift` with `extension Cases { static let <name> = BenchmarkCase(...) }`
/// and add `Cases.<name>` to `all`.
enum CaseCatalog {
    /// The suite: the toolchain cases cheapest first, then the registry, protocol and location cases.
    static let all: [BenchmarkCase] =
        [
            Cases.clockNow,
            Cases.callBaseline,
            Cases.sameActorCall,
            Cases.taskLocalRead,
            Cases.mutexWithLock,
            Cases.nonsendingCall,
            Cases.actorCall,
            Cases.concurrentCall,
            Cases.actorPingPong,
            Cases.dispatchSync,
            Cases.executorDefault,
            Cases.executorDedicatedThread,
            Cases.executorDedicatedThreadSpinning,
            Cases.asyncStreamHandoff,
            Cases.mainActorRoundTrip,
            Cases.staticRead,
            Cases.registryRead,
            Cases.registryReadAfterScope,
            Cases.registryReadOverridden,
            Cases.registryReadTwentyKeys,
            Cases.registryReadTwentyKeysOverridden,
            Cases.taskLocalScope,
            Cases.registryScope,
            Cases.registryScopeNonisolated,
            Cases.registryScopeSync,
            Cases.registryHop,
            Cases.gpsdParseTPV,
            Cases.gpsdParseSKY,
            Cases.gpsdWriteTPV,
            Cases.gpsdWriteSKY,
            Cases.nmeaParse,
            Cases.observationIsTaskDone,
            Cases.observationIsTaskDoneStream,
            Cases.locationFixDelivery,
            Cases.locationDeliverNoSubscriber,
            Cases.locationDeliverObservable,
        ] + (NMEASamples.parseCase.map { [$0] } ?? [])

    /// The ratio rows the issue asks for (skipped until their cases exist), then rows that only inform.
    static let ratios: [RatioCheck] = [
        RatioCheck(
            "registry.read <= 1.2 x static.read",
            numerator: ["registry.read"],
            denominator: ["static.read"],
            limit: 1.2,
            interleaved: true
        ),
        RatioCheck(
            "registry.read <= 2 x (same-actor.call + tasklocal.read)",
            numerator: ["registry.read"],
            denominator: ["same-actor.call", "tasklocal.read"],
            limit: 2,
            interleaved: true
        ),
        RatioCheck(
            "registry.read.overridden <= 2 x (same-actor.call + tasklocal.read)",
            numerator: ["registry.read.overridden"],
            denominator: ["same-actor.call", "tasklocal.read"],
            limit: 2,
            interleaved: true
        ),
        RatioCheck(
            "registry.read.20keys <= 2 x (same-actor.call + tasklocal.read)",
            numerator: ["registry.read.20keys"],
            denominator: ["same-actor.call", "tasklocal.read"],
            limit: 2,
            interleaved: true
        ),
        RatioCheck(
            "registry.read.20keys.overridden <= 2 x (same-actor.call + tasklocal.read)",
            numerator: ["registry.read.20keys.overridden"],
            denominator: ["same-actor.call", "tasklocal.read"],
            limit: 2,
            interleaved: true
        ),
        RatioCheck("registry.scope <= 500 ns", numerator: ["registry.scope"], denominator: [], limit: 500),
        RatioCheck(
            "registry.scope <= 5 x tasklocal.scope",
            numerator: ["registry.scope"],
            denominator: ["tasklocal.scope"],
            limit: 5,
            interleaved: true
        ),
        RatioCheck(
            "registry.hop <= 1.2 x actor.call",
            numerator: ["registry.hop"],
            denominator: ["actor.call"],
            limit: 1.2,
            interleaved: true
        ),
        RatioCheck(
            "location.fixDelivery <= 1.5 x asyncstream.handoff",
            numerator: ["location.fixDelivery"],
            denominator: ["asyncstream.handoff"],
            limit: 1.5
        ),
        RatioCheck(
            "location.deliver.noSubscriber <= 4 x registry.hop",
            numerator: ["location.deliver.noSubscriber"],
            denominator: ["registry.hop"],
            limit: 4,
            interleaved: true
        ),
        RatioCheck("gpsd.parseTPV <= 1,500 ns", numerator: ["gpsd.parseTPV"], denominator: [], limit: 1_500),
        RatioCheck("gpsd.parseSKY <= 6,000 ns", numerator: ["gpsd.parseSKY"], denominator: [], limit: 6_000),
        RatioCheck("actor.call / mutex.withLock", numerator: ["actor.call"], denominator: ["mutex.withLock"]),
        RatioCheck(
            "concurrent.call / nonsending.call", numerator: ["concurrent.call"], denominator: ["nonsending.call"]),
        RatioCheck(
            "executor.dedicatedThread / executor.default",
            numerator: ["executor.dedicatedThread"],
            denominator: ["executor.default"]
        ),
        RatioCheck("mainactor.roundtrip / actor.call", numerator: ["mainactor.roundtrip"], denominator: ["actor.call"]),
    ]
}

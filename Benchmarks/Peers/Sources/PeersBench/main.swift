import Foundation

// peers-bench: SingletonRegistry, swift-dependencies and Swinject measured in one process by hop-bench's harness
// (interleaved rounds, median of the rounds' p50s, the same JSON report). Run from Benchmarks/Peers with
// `swift run -c release peers-bench` (add `--quick` for CI's short run, `--json PATH` for the report).
exit(await PeersBench.main(arguments: Array(CommandLine.arguments.dropFirst())))

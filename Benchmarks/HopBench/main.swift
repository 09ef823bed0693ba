print("hop-bench")
if CommandLine.arguments.contains("nmea") { NMEADecodeBenchmark.run() }

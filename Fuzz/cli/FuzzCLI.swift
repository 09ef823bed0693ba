// libFuzzer entry point for singletond's command-line parser; built against the daemon by scripts/fuzz.

import SingletondCore

/// Splits the input at NUL bytes into arguments (as the kernel hands them to a program) and parses them, as the
/// daemon's command line and as the arguments of `singletond decode`: the result is a command or a `UsageError` with a
/// message, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCLI(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    do throws(UsageError) {
        _ = try CommandLineParser.parse(arguments)
    } catch {
        precondition(!"\(error)".isEmpty, "a usage error must say what is wrong")
    }
    do throws(UsageError) {
        _ = try DecodeCommand.parse(arguments)
    } catch {
        precondition(!"\(error)".isEmpty, "a usage error must say what is wrong")
    }
    return 0
}

/// A system call's failure: the `errno` it set.
///
/// Its ``description`` is the system's text for the code (`strerror`), so `"cannot bind: \(error)"` reads as the
/// daemon's messages always have.
struct Errno: Error, Equatable, CustomStringConvertible {
    /// The `errno` value.
    let code: Int32

    /// The system's text for ``code``, as ``System/errorMessage(_:)`` gives it.
    var description: String { System.errorMessage(code) }
}

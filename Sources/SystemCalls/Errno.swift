/// A system call's failure: the `errno` it set.
///
/// Its ``description`` is the system's text for the code (`strerror`), so `"cannot bind: \(error)"` reads as the
/// daemon's messages always have.
package struct Errno: Error, Equatable, CustomStringConvertible {
    /// The `errno` value.
    package let code: Int32

    /// A failure with `errno` value `code`.
    package init(code: Int32) {
        self.code = code
    }

    /// The system's text for ``code``, as ``System/errorMessage(_:)`` gives it.
    package var description: String { System.errorMessage(code) }
}

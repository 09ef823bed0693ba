/// A failed `getaddrinfo(3)`: its `EAI_` status, and `errno` for `EAI_SYSTEM`.
package struct AddressError: Error {
    /// The `EAI_` status; ``System/addressErrorMessage(_:)`` gives its text.
    package let status: Int32
    /// `errno` when the call failed, meaningful for `EAI_SYSTEM`.
    package let errorNumber: Int32
}

/// Why a `?WATCH={...}` object was refused: the text after `Invalid WATCH: ` in the `ERROR` reply.
package struct GPSDWatchChangeError: Error, Sendable, Hashable {
    /// What is wrong, for example `bad value of enable`.
    package var message: String
}

/// The options of the client commands (`status`, `watch`, `survey`, `cancel`).
package struct ClientOptions: Sendable, Hashable {
    /// The longest `--timeout`, in seconds.
    package static let maximumTimeoutSeconds = 3_600.0

    /// The control socket given with `--control`; `nil` means the default path.
    package var control: String?
    /// How long to wait for the daemon to take the request and send its first answer (`--timeout`, 5 s by default);
    /// `watch` and `survey` then wait as long as the stream lasts.
    package var timeout: Duration

    /// Options with `control` and `timeout`.
    package init(control: String? = nil, timeout: Duration = .seconds(5)) {
        self.control = control
        self.timeout = timeout
    }
}

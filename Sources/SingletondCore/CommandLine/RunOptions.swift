/// The options of `singletond run`.
package struct RunOptions: Sendable, Hashable {
    /// The default length of a survey, in seconds.
    package static let defaultSurveySeconds: Double = 60
    /// The longest survey the daemon accepts, in seconds (one week).
    package static let maximumSurveySeconds: Double = 604_800
    /// How long a graceful shutdown may take by default before the daemon exits with status 1 regardless.
    package static let defaultStopTimeout: Duration = .milliseconds(1_800)
    /// The longest stop timeout the daemon accepts, in seconds (one hour).
    package static let maximumStopSeconds: Double = 3_600

    /// Where positions come from.
    package var source: SourceOption
    /// The control socket's path; `nil` means the default (``ControlPath/defaultPath(environment:userID:)``).
    package var control: String?
    /// How fast an NMEA file is replayed, paced by its fixes' timestamps (1 is real time); `nil` reads it as fast as
    /// it decodes.
    package var replaySpeed: Double?
    /// Where the gpsd-protocol listener binds; `nil` (the default) runs none.
    package var listen: ListenAddress?
    /// Where TPV lines go: a file path, or `-` for standard output.
    package var output: String
    /// The least severe log level written to standard error.
    package var logLevel: LogLevel
    /// The length of a survey asked for without a length, in seconds.
    package var surveySeconds: Double
    /// How long a graceful shutdown may take before the daemon exits with status 1 regardless.
    package var stopTimeout: Duration

    /// Creates options; the defaults are those of `singletond` with no arguments.
    package init(
        source: SourceOption = .demo, control: String? = nil, listen: ListenAddress? = nil, output: String = "-",
        logLevel: LogLevel = .info,
        surveySeconds: Double = RunOptions.defaultSurveySeconds, stopTimeout: Duration = RunOptions.defaultStopTimeout
    ) {
        self.source = source
        self.control = control
        self.listen = listen
        self.output = output
        self.logLevel = logLevel
        self.surveySeconds = surveySeconds
        self.stopTimeout = stopTimeout
    }
}

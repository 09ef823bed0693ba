import GNSSLocation
import SingletonRegistry

/// The daemon's long task: a survey-in that averages the fixes of the next N seconds.
///
/// The work runs off ``SingletonRegistry/RegistryActor``: it subscribes to
/// `appSingletons.locationManager.updates()`, adds every fix to a ``SurveyAccumulator``, and reports progress
/// (elapsed / N) once a second of the registry's clock, `appSingletons.clock`. When the manager cancels it, it
/// returns the partial result marked cancelled instead of throwing, so the client that asked still gets the figures
/// of the part that ran.
package enum SurveyJob {
    /// The job's name.
    package static let name = "survey"

    /// What a survey is asked for: a survey asked for while one runs joins it only when these are equal.
    package struct Parameters: Hashable, Sendable, CustomStringConvertible {
        /// The survey's length.
        package var seconds: Double
        /// Whether only 3D fixes count.
        package var requires3D: Bool

        /// The length, as `30 s` or `0.5 s`.
        package var description: String {
            let length = seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int(seconds))" : "\(seconds)"
            return "\(length) s" + (requires3D ? "" : ", 2D fixes too")
        }
    }

    /// A survey of `seconds` that logs its result (once a minute at most, with a count, for surveys that repeat).
    package static func make(seconds: Double, requires3D: Bool = true, logger: LogWriter) -> LongTask<SurveyResult> {
        LongTask(name: name, parameters: Parameters(seconds: seconds, requires3D: requires3D)) { progress in
            let result = await survey(seconds: seconds, requires3D: requires3D, progress: progress)
            // Surveys asked for again and again (`survey 1e-9` in a loop) are logged once a minute with a count.
            let cause = result.cancelled ? "survey cancelled" : "survey completed"
            logger.log(result.cancelled ? .notice : .info, repeating: cause, result.summary) {
                "\(result.summary) (the last of \($0) \(cause) since the last line)"
            }
            return result
        }
    }

    /// The daemon's ``SingletonRegistry/LongTaskManager/defaultJob``: a survey of `seconds` whose result is logged.
    package static func defaultJob(seconds: Double, logger: LogWriter) -> LongTask<Void> {
        let survey = make(seconds: seconds, logger: logger)
        return LongTask(name: name, parameters: survey.parameters) { progress in _ = try await survey.work(progress) }
    }

    private static func survey(seconds: Double, requires3D: Bool, progress: TaskProgress) async -> SurveyResult {
        let (updates, timeline) = await RegistryActor.run {
            (appSingletons.locationManager.updates(bufferSize: 256), Timeline(appSingletons.clock))
        }
        let duration = Duration.seconds(seconds)
        let accumulator = await withTaskGroup(of: SurveyAccumulator.self) { group in
            group.addTask {
                var accumulator = SurveyAccumulator(requires3D: requires3D)
                for await update in updates { accumulator.add(update.fix) }
                return accumulator
            }
            while !Task.isCancelled {
                let now = timeline.now
                guard now < duration else { break }
                do {
                    try await timeline.sleep(until: min(duration, now + .seconds(1)))
                } catch {
                    break
                }
                await progress.report(timeline.now / duration)
            }
            group.cancelAll()
            return await group.next() ?? SurveyAccumulator(requires3D: requires3D)
        }
        let elapsed = timeline.now / .seconds(1)
        return accumulator.result(
            requestedSeconds: seconds, elapsedSeconds: min(elapsed, seconds), cancelled: Task.isCancelled)
    }
}

import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import SystemCalls

/// The daemon's one reader of the location manager's ordered events: it encodes each fix's TPV once, in the gpsd
/// listener's form with the `device` member, and hands the same bytes to the output (as a line: the object and a
/// newline), to the control socket's watchers and to the gpsd listener.
///
/// The listener also gets a SKY when the satellite view changes (encoded once per change), its DEVICE when the
/// source comes and goes, a time offset (gpsd's `TOFF`) before the first fix of each new second, and the raw
/// sentences, all in the order the source produced them: a sentence before the
/// fix it completes, the DEVICE of an active source before its first TPV. The listener is attached when it starts
/// serving and detached before it stops; attaching it tells it the device's state and the latest SKY. Everything
/// sent to the listener is sent under this forwarder's lock, so an attach never lands between two reports.
///
/// It holds the source: a source that can wait (``LocationSource/canWait``) is read no faster than this forwarder
/// takes its events, and the forwarder no faster than the output takes its lines, so no fix is lost on the way to
/// the output. A serial device cannot wait: there the events the forwarder falls behind on are dropped, and the
/// output's lines over its limit; both are counted, summarised with a running total and totalled at the stop.
package final class ReportForwarder: Sendable {
    private struct State {
        var listener: GPSDListener?
        /// When the source became active (milliseconds since 1970), `nil` while it is not: when it opened, then
        /// when its first data came, which gpsd 3.22 reports as the device's `activated`.
        var activated: Int64?
        /// Whether the listener was sent the DEVICE of this activation: gpsd sends it when the first data comes,
        /// not when the device opens.
        var announced = false
        /// The latest SKY object, while the source is active or before it first is.
        var sky: [UInt8]?
        /// How many TPVs were encoded.
        var encodedTPVs = 0
        /// How many events were dropped before the forwarder read them (a source that cannot wait).
        var droppedEvents = 0
        /// The whole second (since 1970) of the last `TOFF` sent, as gpsd sends one per new second.
        var lastOffsetSecond: Int64?
        var task: Task<Void, Never>?
    }

    /// The device the reports name: the listener's device path.
    package let devicePath: String
    private let includesSentences: Bool
    /// Whether the source can wait for the output (``LocationSource/canWait``).
    private let sourceWaits: Bool
    private let logger: LogWriter
    private let state = SanitizerVisibleMutex(State())

    /// A forwarder whose reports name `devicePath`; it asks for the raw sentences when `includesSentences` (a gpsd
    /// listener will be attached), and waits for the output when `sourceWaits` (the source can wait).
    package init(devicePath: String, includesSentences: Bool, sourceWaits: Bool = true, logger: LogWriter) {
        self.devicePath = devicePath
        self.includesSentences = includesSentences
        self.sourceWaits = sourceWaits
        self.logger = logger
    }

    /// How many TPVs were encoded: one per fix, however many destinations took it.
    package var encodedTPVCount: Int { state.withLock { $0.encodedTPVs } }
    /// How many events were dropped before the forwarder read them, since it started.
    package var droppedEventCount: Int { state.withLock { $0.droppedEvents } }

    /// Subscribes to `location`'s events and forwards them from a task of its own until ``stop()``.
    package func start(from location: LocationManager, output: FixOutput?, control: ControlServer?) async {
        let events = await location.events(
            bufferSize: 4_096, includingSentences: includesSentences, holdingSource: true)
        let task = Task { await forward(events, output: output, control: control) }
        state.withLock { $0.task = task }
    }

    /// Forwards the events already received, then ends the task, and logs how many events it lost in all.
    package func stop() async {
        let task = state.withLock { state in
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
        await task?.value
        guard task != nil else { return }
        let dropped = droppedEventCount
        logger.log(
            dropped == 0 ? .info : .warning,
            "reports: \(dropped) location events dropped before the output, the watchers and the listener read them")
    }

    /// Makes `listener` get the reports from now on, starting with the device's state and the latest SKY.
    package func attach(_ listener: GPSDListener) {
        state.withLock { state in
            state.listener = listener
            if let activated = state.activated {
                listener.setDevice(activated: activated, observed: state.announced, announce: state.announced)
            }
            if let sky = state.sky { listener.publish(.sky(sky)) }
        }
    }

    /// Sends nothing more to the attached listener.
    package func detach() {
        state.withLock { $0.listener = nil }
    }

    private func forward(_ events: LocationEvents, output: FixOutput?, control: ControlServer?) async {
        var writer = GPSDReportWriter()
        var lastSky: SkyView?
        var lastFixTime: GNSSTime?
        var waitedForOutput = false
        for await event in events {
            switch event {
            case .fix(let fix):
                if let time = fix.time { lastFixTime = time }
                var object: [UInt8] = []
                writer.appendTPV(fix, device: devicePath, newline: false, to: &object)
                state.withLock { state in
                    state.encodedTPVs += 1
                    // A fix comes from an active source: this holds even when the state change was dropped.
                    Self.note(active: true, in: &state)
                    Self.announce(in: &state)
                    Self.noteTimeOffset(of: fix, in: &state)
                    state.listener?.publish(.tpv(object))
                }
                guard output != nil || control != nil else { continue }
                let line = object + [0x0A]
                control?.broadcast(line)
                if let output, output.write(line), sourceWaits, !Task.isCancelled {
                    if !waitedForOutput {
                        waitedForOutput = true
                        logger.notice(
                            "output \(output.path == "-" ? "standard output" : output.path) is slower than the source: "
                                + "reading the source no faster than the output takes TPV lines")
                    }
                    await output.waitForRoom()
                }
            case .satellites(let sky):
                guard sky != lastSky else { continue }
                lastSky = sky
                var object: [UInt8] = []
                writer.appendSKY(sky, device: devicePath, newline: false, to: &object)
                state.withLock { state in
                    state.sky = object
                    state.listener?.publish(.sky(object))
                }
            case .state(let locationState):
                if !Self.isActive(locationState) { lastSky = nil }
                state.withLock { Self.note(active: Self.isActive(locationState), in: &$0) }
            case .sentence(let sentence):
                // A GST sentence is also gpsd's GST report, an HDT or a `$PTNTHTM` its ATT, after the sentence as gpsd sends them; a
                // GST is dated with the latest fix's date.
                var report: GPSDListenerReport?
                if let noise = PseudorangeNoise(gstSentence: sentence, date: lastFixTime, device: devicePath) {
                    var object: [UInt8] = []
                    writer.appendGST(noise, newline: false, to: &object)
                    report = .gst(object)
                } else if let attitude = Attitude(sentence: sentence, device: devicePath) {
                    var object: [UInt8] = []
                    writer.appendATT(attitude, newline: false, to: &object)
                    report = .att(object)
                }
                state.withLock { state in
                    Self.announce(in: &state)
                    state.listener?.publish(.nmea(sentence))
                    if let report { state.listener?.publish(report) }
                }
            case .dropped(let count):
                let total = state.withLock { state in
                    state.droppedEvents += count
                    return state.droppedEvents
                }
                logger.log(
                    .warning, repeating: "location events dropped",
                    "the reports fell behind the source: \(count) events dropped"
                ) {
                    "the reports fell behind the source \($0) times since the last line (\(total) events dropped in all)"
                }
            }
        }
    }

    /// Records whether the source is active and, when that changed, tells the listener with a DEVICE.
    private static func note(active: Bool, in state: inout State) {
        guard active != (state.activated != nil) else { return }
        state.activated = active ? System.wallClockMilliseconds() : nil
        state.announced = !active
        if !active { state.sky = nil }
        state.listener?.setDevice(activated: state.activated, announce: !active)
    }

    /// Sends the listener the DEVICE of the current activation once, at the source's first data, activated then, as
    /// gpsd does.
    private static func announce(in state: inout State) {
        guard state.activated != nil, !state.announced else { return }
        let now = System.wallClockMilliseconds()
        state.announced = true
        state.activated = now
        state.listener?.announceDevice(at: now)
    }

    /// Sends the listener a `TOFF` for `fix` when it is a fix (2D or 3D) whose time starts a new second, as gpsd
    /// does for the serial time: the sentence's time, and the wall clock when the fix came.
    private static func noteTimeOffset(of fix: Fix, in state: inout State) {
        guard fix.mode >= .twoD, let time = fix.time else { return }
        let second = time.millisecondsSince1970 / 1_000
        guard second > state.lastOffsetSecond ?? Int64.min else { return }
        state.lastOffsetSecond = second
        state.listener?.publish(
            .timeOffset(real: time.millisecondsSince1970 * 1_000_000, clock: System.wallClockNanoseconds()))
    }

    /// Whether a source in `state` is active: connected, with or without a fix.
    private static func isActive(_ state: LocationState) -> Bool {
        switch state {
        case .waitingForFix, .fixed, .stale: true
        case .idle, .connecting, .reconnecting, .failed: false
        }
    }
}

import GNSSProtocol
import SingletonRegistry
import SystemCalls

/// Runs one ``LocationSource`` for a ``LocationManager``.
///
/// It opens the source (on a Dispatch thread), reads it on the ``ByteReader``'s thread, decodes on the cooperative
/// pool, and hops to ``RegistryActor`` once per read with what it completed (fixes, satellite views, sentences).
/// When a reconnecting source is lost, it waits with backoff and reopens it; subscribers keep their streams
/// throughout.
struct LocationSession: Sendable {
    let source: LocationSource
    let manager: LocationManager
    let policy: ReconnectPolicy
    /// How long a network source may stay silent; see ``LocationManager/silenceTimeout``.
    let silenceTimeout: Duration?
    /// The registry's clock when the session began: backoff, silence and replay pacing are timed on it.
    let timeline: Timeline

    /// Runs until the task is cancelled, or the source ends for good (a file's end, a failed open).
    func run(firstChannel: ByteChannel?) async {
        var channel = firstChannel
        var attempt = 0
        // One decoder for every connection of the session: NMEA's date outlives a reconnect, as in gpsd.
        var decoder = StreamDecoder(for: source)
        while !Task.isCancelled {
            let (healthy, end) = await runOnce(preopened: channel, decoder: &decoder)
            decoder.reconnect()
            channel = nil
            if Task.isCancelled { return }
            guard source.reconnects, case .failure(let reason) = end else {
                if case .failure(let reason) = end {
                    await manager.transition(to: .failed(source: source.description, message: reason))
                } else {
                    await manager.sessionEnded()
                }
                return
            }
            // Only a connection that proved healthy starts the backoff again: a peer that accepts and closes at
            // once is retried as slowly as one that refuses.
            attempt = healthy ? 1 : attempt + 1
            let delay = policy.delay(forAttempt: attempt)
            await manager.noteProblem(reason)
            await manager.transition(
                to: .reconnecting(
                    source: source.description, attempt: attempt, reason: reason, retryIn: delay))
            do { try await timeline.sleep(for: delay) } catch { return }
        }
    }

    /// One connection: open, read until it ends, and say whether it proved healthy and how it ended.
    ///
    /// A connection is healthy when it delivered a fix or a satellite view, or stayed open for the policy's
    /// ``ReconnectPolicy/maximumDelay`` (a quiet gpsd without a receiver delivers nothing, yet is not failing). A
    /// peer that accepts and closes at once, or sends only its banner, is not.
    private func runOnce(
        preopened: ByteChannel?, decoder: inout StreamDecoder
    ) async -> (healthy: Bool, end: SourceEnd) {
        if case .nmeaReplay(_, let bytes, let pacing, let loops) = source {
            await manager.transition(to: .waitingForFix(source: source.description))
            return (true, await replay(bytes, pacing: pacing, loops: loops))
        }
        guard let byteSource = source.byteSource else { return (false, .failure("nothing to open")) }
        let (delivered, end, openedAt) = await readConnection(byteSource, preopened: preopened, decoder: &decoder)
        let stayedUp = openedAt.map { timeline.now - $0 >= policy.maximumDelay } ?? false
        return (delivered || stayedUp, end)
    }

    /// Opens `byteSource` (unless `preopened`) and reads it until it ends: whether it delivered a fix or a satellite
    /// view, how it ended, and when it opened on the session's timeline (`nil` if it did not).
    ///
    /// Only a gpsd connection has its silence watched: gpsd answers the probe. An NMEA source, like a device of
    /// gpsd 3.22's, is kept however long it stays quiet, and reopened only when it closes or fails.
    private func readConnection(
        _ byteSource: ByteSource, preopened: ByteChannel?, decoder: inout StreamDecoder
    ) async -> (delivered: Bool, end: SourceEnd, openedAt: Duration?) {
        let channel: ByteChannel
        if let preopened {
            channel = preopened
        } else {
            await manager.transition(to: .connecting(source: source.description))
            do throws(SourceError) {
                channel = try await ChannelOpener.open(byteSource)
            } catch {
                return (false, .failure(error.description), nil)
            }
        }
        let openedAt = timeline.now
        await manager.transition(to: .waitingForFix(source: source.description))
        if case .gpsd = source {
            do throws(SourceError) {
                try channel.write(GPSDRequest.enableWatch)
            } catch {
                return (false, .failure(error.description), openedAt)
            }
        }
        let watch: SilenceWatch? =
            if let silenceTimeout, case .gpsd = source {
                SilenceWatch(timeout: silenceTimeout, timeline: timeline)
            } else {
                nil
            }
        let reader = ByteReader(channel: channel, silenceWatch: watch)
        let events = reader.events(bufferLimit: 16)
        guard let watch else {
            let (delivered, end) = await read(events, watch: nil, decoder: &decoder)
            return (delivered, end, openedAt)
        }
        let probe: (request: String, send: @Sendable () -> Bool) = (
            "?VERSION;", { (try? channel.write(GPSDRequest.version.bytes, timeout: .zero)) != nil }
        )
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { [source] in
                await watch.run(source: source.description, probe: probe, stop: { reader.stop() })
            }
            let (delivered, end) = await read(events, watch: watch, decoder: &decoder)
            group.cancelAll()
            return (delivered, end, openedAt)
        }
    }

    /// Decodes chunks until the source ends or `watch` finds it stalled, delivering what each chunk completes in one
    /// hop. The reader is held back while this decodes and delivers, so nothing is dropped on the way in; cancelling
    /// the task ends the iteration, which stops the reader.
    private func read(
        _ events: ByteReaderEvents, watch: SilenceWatch?, decoder: inout StreamDecoder
    ) async -> (delivered: Bool, end: SourceEnd) {
        var batch = DeliveryBatch(
            manager: manager, source: source.description,
            pacer: source.pacing.map { ReplayPacer(speed: $0, timeline: timeline) }, canWait: source.canWait)
        var splitter: NMEASentenceSplitter? = if case .gpsd = source { nil } else { NMEASentenceSplitter() }
        var throttle = GarbageThrottle()
        var yield = PoolYield()
        var iterator = events.makeAsyncIterator()
        while true {
            guard let event = await iterator.next() else { break }
            switch event {
            case .data(let bytes):
                if let pause = throttle.pauseBefore(decoder.throttledByteCount(of: bytes)) {
                    do { try await timeline.sleep(for: pause) } catch {
                        return (batch.delivered, .endOfData("stopped"))
                    }
                }
                batch.reported = false
                do {
                    // Line by line while sentences have subscribers, or may get one during a paced replay: each
                    // sentence goes out just before the fixes it completes.
                    if var lines = splitter, batch.pacer != nil || manager.wantsSentences {
                        try await Self.forEachLine(of: bytes[...], splitter: &lines, batch: &batch) { piece, _, batch in
                            for output in try decoder.decode(Array(piece)) { try await batch.add(output) }
                        }
                        splitter = lines
                    } else {
                        splitter?.reset()
                        for output in try decoder.decode(bytes) { try await batch.add(output) }
                    }
                    await batch.flush()
                } catch let error as GPSDProtocolError {
                    await batch.flush()
                    return (batch.delivered, .failure(error.description))
                } catch {
                    return (batch.delivered, .endOfData("stopped"))
                }
                if batch.reported { throttle.reportArrived() }
                await yield.afterChunk()
            case .finished(let end):
                for output in decoder.finish() { try? await batch.add(output) }
                await batch.flush()
                let problem = batch.problem
                if let stall = watch?.stall {
                    return (batch.delivered, .failure(stall + (problem.map { "; last problem: \($0)" } ?? "")))
                }
                return (batch.delivered, describe(end, lastProblem: problem))
            }
        }
        return (batch.delivered, .endOfData("stopped"))
    }

    /// Cuts `bytes` after each line feed and hands `decode` one line at a time, the last with `isLast`; before each
    /// line, passes the sentence it completes to `batch` (``split(_:_:into:)``), so that each sentence goes out just
    /// before the fixes it completes. What `read` and `replay` share.
    private static func forEachLine(
        of bytes: ArraySlice<UInt8>, splitter: inout NMEASentenceSplitter, batch: inout DeliveryBatch,
        _ decode: (_ line: ArraySlice<UInt8>, _ isLast: Bool, _ batch: inout DeliveryBatch) async throws -> Void
    ) async rethrows {
        let lines = NMEASentenceSplitter.lines(of: bytes)
        for (index, line) in lines.enumerated() {
            split(line, &splitter, into: &batch)
            try await decode(line, index == lines.count - 1, &batch)
        }
    }

    /// Passes the sentence that `piece` completes to `batch` while a subscriber may want sentences; otherwise
    /// forgets the line in progress, since nobody listened to its start.
    private static func split(
        _ piece: ArraySlice<UInt8>, _ lines: inout NMEASentenceSplitter, into batch: inout DeliveryBatch
    ) {
        if batch.manager.wantsSentences {
            lines.feed(piece) { batch.add(sentence: $0) }
        } else {
            lines.reset()
        }
    }

    /// Replays in-memory NMEA; when looping, shifts each pass's times to continue after the previous pass. Each
    /// 4 KiB is delivered in one hop, as a read would be. Only the first pass reports its first cycle sentence by
    /// sentence: a later one continues the stream, as gpsd continues a looped log's session.
    private func replay(_ bytes: [UInt8], pacing: ReplayPacing, loops: Bool) async -> SourceEnd {
        let pacer: ReplayPacer? =
            if case .timestamps(let speed) = pacing { ReplayPacer(speed: speed, timeline: timeline) } else { nil }
        var batch = DeliveryBatch(manager: manager, source: source.description, pacer: pacer, canWait: true)
        var shift: Int64?
        var lastTime: Int64?
        var splitter = NMEASentenceSplitter()
        var yield = PoolYield()
        repeat {
            var decoder =
                shift == nil ? NMEADecoder(liveDevice: source.description) : NMEADecoder(device: source.description)
            var outputs: [StreamDecoder.Output] = []
            var firstTimeOfPass: Int64?
            var offset = 0
            while offset < bytes.count, !Task.isCancelled {
                let end = min(bytes.count, offset + 4_096)
                do {
                    try await Self.forEachLine(of: bytes[offset..<end], splitter: &splitter, batch: &batch) {
                        piece, isLast, batch in
                        decoder.feed(piece) { outputs.append(StreamDecoder.Output($0)) }
                        if end == bytes.count, isLast { decoder.finish { outputs.append(StreamDecoder.Output($0)) } }
                        for var output in outputs {
                            if loops, let time = output.time {
                                if firstTimeOfPass == nil { firstTimeOfPass = time }
                                if shift == nil { shift = Self.wallClockMilliseconds() - time }
                                output.shiftTime(by: shift ?? 0)
                                lastTime = output.time
                            }
                            try await batch.add(output)
                        }
                        outputs.removeAll(keepingCapacity: true)
                    }
                } catch {
                    return .endOfData("stopped")
                }
                await batch.flush()
                await yield.afterChunk()
                offset = end
            }
            if let lastTime, let firstTimeOfPass {
                // The next pass starts one cycle after this one ended.
                shift = lastTime + 1_000 - firstTimeOfPass
            }
        } while loops && !Task.isCancelled
        return .endOfData("end of \(source.description)")
    }

    /// How a connection ended; a failure names the connection's last problem, which is usually the cause (a peer
    /// that sent garbage and hung up, a line cut in half).
    private func describe(_ end: ByteReaderEnd, lastProblem: String?) -> SourceEnd {
        let after = lastProblem.map { "; last problem: \($0)" } ?? ""
        return switch end {
        case .endOfFile:
            source.reconnects
                ? .failure("\(source.description) closed the connection\(after)")
                : .endOfData("end of \(source.description)")
        case .hangUp: .failure("\(source.description) hung up (device gone)\(after)")
        case .stopped: .endOfData("stopped")
        case .failed(let error): .failure("\(error.description)\(after)")
        }
    }

    static func wallClockMilliseconds() -> Int64 {
        System.wallClockMilliseconds()
    }
}

/// The fix mode as gpsd 3.22's NMEA driver sets it (`drivers/driver_nmea0183.c`).
///
/// gpsd parses a sentence before it clears its merged fix for a new cycle, so the rules that read the merged fix
/// (`gpsdata.fix`) read the previous cycle's when the sentence starts the cycle, and the cycle so far otherwise.
/// The others read `lastfix` and `oldfix` (``TimedFixes``).
extension CycleAssembler {
    /// The mode of gpsd's merged fix as the sentence being applied finds it.
    private var priorMode: FixMode { startedCycle ? lastCycle?.mode ?? .unknown : fix.mode }

    /// Whether gpsd's merged fix had an altitude as the sentence being applied finds it.
    private var priorAltitude: Bool { startedCycle ? lastCycle?.altitudeMSL != nil : fix.altitudeMSL != nil }

    /// Sets the mode a sentence gives, with the rule at the end of gpsd's `nmea_parse`: a mode other than "no fix"
    /// stays 3D when the merged fix is 3D and `lastfix` or `oldfix` had an altitude.
    mutating func setMode(_ mode: FixMode) {
        if mode != .noFix, priorMode == .threeD, timedFixes.lastAltitude || timedFixes.oldAltitude {
            fix.mode = .threeD
        } else {
            fix.mode = mode
        }
        hasContent = true
        setPositionOrMode = true
    }

    /// The mode of a valid RMC with a position, as gpsd's `processRMC` gives it: 3D when `lastfix` was 3D, when
    /// more than 3 satellites are used (the GSAs' list) or when the merged fix has an altitude; else 2D.
    var rmcMode: FixMode {
        timedFixes.lastMode == .threeD || sky.usedCount > 3 || priorAltitude ? .threeD : .twoD
    }

    /// The mode of a valid GLL with a position, as gpsd's `processGLL` gives it: 3D when the merged fix has an
    /// altitude or more than 3 satellites are used; else 2D, but for a merged fix of 2D or 3D when `oldfix` had an
    /// altitude: then gpsd sets none (mode 0), which ``setMode(_:)`` turns into 3D for a 3D merged fix.
    var gllMode: FixMode {
        if priorAltitude || sky.usedCount > 3 { return .threeD }
        if priorMode < .twoD || !timedFixes.oldAltitude { return .twoD }
        return .unknown
    }

    /// Sets the position a sentence gives.
    mutating func setPosition(latitude: Double, longitude: Double) {
        fix.latitude = latitude
        fix.longitude = longitude
        hasContent = true
        setPositionOrMode = true
    }
}

import GNSSProtocol

/// The outcome of a position survey: the averaged position and how much the fixes scattered around it.
package struct SurveyResult: Sendable, Hashable {
    /// Whether the survey ran its full length or was cancelled (the figures then cover the part that ran).
    package var cancelled: Bool
    /// The length asked for, in seconds.
    package var requestedSeconds: Double
    /// How long it actually ran, in seconds.
    package var elapsedSeconds: Double
    /// Mean latitude in degrees; `nil` when no fix was used.
    package var latitude: Double?
    /// Mean longitude in degrees; `nil` when no fix was used.
    package var longitude: Double?
    /// Mean altitude in metres (height above the ellipsoid when the fixes carry it, else above sea level).
    package var altitude: Double?
    /// Standard deviation of the north component, in metres; `nil` with fewer than two fixes.
    package var sigmaNorth: Double?
    /// Standard deviation of the east component, in metres; `nil` with fewer than two fixes.
    package var sigmaEast: Double?
    /// Standard deviation of the altitude, in metres; `nil` with fewer than two altitudes.
    package var sigmaUp: Double?
    /// The radius around the mean that holds half of the fixes (circular error probable), in metres.
    package var cep50: Double?
    /// The radius around the mean that holds 95 % of the fixes, in metres.
    package var cep95: Double?
    /// The number of fixes averaged.
    package var fixesUsed: Int
    /// Fixes rejected because they had no position (mode 0 or 1).
    package var rejectedNoFix: Int
    /// Fixes rejected because they were 2D while the survey requires 3D.
    package var rejected2D: Int

    /// Creates a result.
    package init(
        cancelled: Bool, requestedSeconds: Double, elapsedSeconds: Double, latitude: Double? = nil,
        longitude: Double? = nil, altitude: Double? = nil, sigmaNorth: Double? = nil, sigmaEast: Double? = nil,
        sigmaUp: Double? = nil, cep50: Double? = nil, cep95: Double? = nil, fixesUsed: Int = 0,
        rejectedNoFix: Int = 0, rejected2D: Int = 0
    ) {
        self.cancelled = cancelled
        self.requestedSeconds = requestedSeconds
        self.elapsedSeconds = elapsedSeconds
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.sigmaNorth = sigmaNorth
        self.sigmaEast = sigmaEast
        self.sigmaUp = sigmaUp
        self.cep50 = cep50
        self.cep95 = cep95
        self.fixesUsed = fixesUsed
        self.rejectedNoFix = rejectedNoFix
        self.rejected2D = rejected2D
    }

    /// The number of fixes rejected for any reason.
    package var fixesRejected: Int { rejectedNoFix + rejected2D }

    /// `{"class":"SURVEY","status":"completed"|"cancelled",...}` and a newline, as the control socket sends it.
    package var jsonLine: [UInt8] {
        var writer = JSONObjectWriter()
        writer.string("class", "SURVEY")
        writer.string("status", cancelled ? "cancelled" : "completed")
        writer.number("seconds", requestedSeconds, decimals: 3)
        writer.number("elapsed", elapsedSeconds, decimals: 3)
        writer.number("lat", latitude, decimals: 9)
        writer.number("lon", longitude, decimals: 9)
        writer.number("alt", altitude, decimals: 4)
        writer.number("sigmaNorth", sigmaNorth, decimals: 3)
        writer.number("sigmaEast", sigmaEast, decimals: 3)
        writer.number("sigmaUp", sigmaUp, decimals: 3)
        writer.number("cep50", cep50, decimals: 3)
        writer.number("cep95", cep95, decimals: 3)
        writer.int("used", fixesUsed)
        writer.int("rejected", fixesRejected)
        writer.int("rejectedNoFix", rejectedNoFix)
        writer.int("rejected2D", rejected2D)
        return writer.finish()
    }

    /// One line for logs and for `singletond survey`.
    package var summary: String {
        let head =
            cancelled
            ? "survey cancelled after \(format(elapsedSeconds, 1)) of \(format(requestedSeconds, 0)) s"
            : "survey of \(format(requestedSeconds, 0)) s completed"
        let counts = "\(fixesUsed) fixes used, \(fixesRejected) rejected"
        guard let latitude, let longitude else { return "\(head): \(counts), no position" }
        var text = "\(head): \(format(latitude, 7)) \(format(longitude, 7))"
        if let altitude { text += " alt \(format(altitude, 2)) m" }
        if let sigmaNorth, let sigmaEast { text += ", σ N \(format(sigmaNorth, 2)) m E \(format(sigmaEast, 2)) m" }
        if let sigmaUp { text += " U \(format(sigmaUp, 2)) m" }
        if let cep50, let cep95 { text += ", CEP50 \(format(cep50, 2)) m, CEP95 \(format(cep95, 2)) m" }
        return text + "; " + counts
    }

    private func format(_ value: Double, _ decimals: Int) -> String {
        var bytes: [UInt8] = []
        GPSDJSONWriter.appendFixed(value, decimals: decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

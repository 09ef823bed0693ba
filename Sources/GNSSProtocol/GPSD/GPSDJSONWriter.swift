/// Writes gpsd-style JSON report lines (`{"class":"TPV",...}`, `{"class":"SKY",...}`) into a byte buffer.
///
/// Field names, order, units and number formats follow gpsd 3.22's `gpsd_json(5)` output, so that tools written
/// for `gpspipe -w` or `gpsdecode` read these lines unchanged: lat/lon with 9 decimals, altitudes and tracks with
/// 4, speeds, climb and most error estimates with 3, DOPs with 2. Absent values are left out. No Foundation and
/// no allocation beyond the growth of the caller's buffer.
public enum GPSDJSONWriter {
    /// Appends one TPV line for `fix`, ending with `\n` when `newline` is true. `device` overrides `fix.device`.
    public static func appendTPV(
        _ fix: Fix, device: String? = nil, newline: Bool = true, to out: inout [UInt8]
    ) {
        var writer = GPSDReportWriter.singleLine()
        writer.appendTPV(fix, device: device, newline: newline, to: &out)
    }

    /// Appends one SKY line for `view`, ending with `\n` when `newline` is true. `device` overrides `view.device`.
    public static func appendSKY(
        _ view: SkyView, device: String? = nil, newline: Bool = true, to out: inout [UInt8]
    ) {
        var writer = GPSDReportWriter.singleLine()
        writer.appendSKY(view, device: device, newline: newline, to: &out)
    }

    /// Appends `time` in gpsd's form, `YYYY-MM-DDTHH:MM:SS.sssZ`, without quotes.
    public static func appendTime(_ time: GNSSTime, to out: inout [UInt8]) {
        LineBuffer.with(&out) { w, _ in w.time(time) }
    }

    /// Appends `value` with exactly `decimals` digits after the point (as C's `%.Nf`); non-finite values append
    /// nothing.
    public static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        LineBuffer.with(&out) { w, _ in w.fixed(value, decimals) }
    }

    /// Appends a decimal integer.
    public static func appendInt(_ value: Int, to out: inout [UInt8]) {
        LineBuffer.with(&out) { w, _ in w.int(value) }
    }

    /// Appends `text` as a JSON string with quotes and escapes.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        LineBuffer.with(&out) { w, out in w.string(text, &out) }
    }
}

/// A plain-text table with aligned columns: text left-aligned, figures right-aligned.
public struct TextTable: Sendable {
    private var header: [String]
    private var rows: [[String]] = []

    /// A table with these column titles.
    public init(header: [String]) {
        self.header = header
    }

    /// Adds a row (missing cells are blank).
    public mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The table, one line per row, with a rule under the header.
    public var rendered: String {
        let all = [header] + rows
        let widths = header.indices.map { column in
            all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            header.indices.map { column in
                let cell = column < cells.count ? cells[column] : ""
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }
            .joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// A duration in ns: two decimals under 10, one under 1,000, whole and grouped above.
    public static func nanoseconds(_ value: Double) -> String {
        if value < 10 { return fixed(value, digits: 2) }
        if value < 1000 { return fixed(value, digits: 1) }
        return grouped(Int(value.rounded()))
    }

    /// `value` with exactly `digits` decimals.
    public static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// A whole number with commas between groups of three digits.
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }
}

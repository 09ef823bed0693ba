extension Attitude {
    /// True North Technologies' magnetic compass sentence, `$PTNTHTM,heading,st,pitch,st,roll,st,dip,magx*hh`, read as
    /// gpsd 3.22's `processTNTHTM` reads it: the heading, pitch, roll, dip and the horizontal field's relative
    /// magnitude, each absent when its field is empty or not a number, and each magnetometer status as its field's
    /// first character.
    init(ptnthtm fields: NMEAFields) {
        self.init()
        heading = fields.double(1)
        magneticStatus = Self.status(fields, 2)
        pitch = fields.double(3)
        pitchStatus = Self.status(fields, 4)
        roll = fields.double(5)
        rollStatus = Self.status(fields, 6)
        dip = fields.double(7)
        horizontalField = fields.double(8)
    }

    /// The first character of field `i`, or `nil` when the field is empty.
    private static func status(_ fields: NMEAFields, _ i: Int) -> Character? {
        let c = fields.first(i)
        return c == 0 ? nil : Character(Unicode.Scalar(c))
    }

    /// Whether `fields`, with a checksum after them or not, are enough for gpsd 3.22 to read a `$PTNTHTM`: it counts
    /// the commas and the checksum's `*`, and needs 9.
    static func isCompletePTNTHTM(_ fields: NMEAFields, checked: Bool) -> Bool {
        fields.count - 1 + (checked ? 1 : 0) >= 9
    }
}

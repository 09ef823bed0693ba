extension Attitude {
    /// The heading of HDT sentence `fields`, taken as gpsd 3.22 takes it: field 1, when present and within 0...360
    /// degrees; `nil` otherwise (gpsd then reports nothing).
    init?(hdt fields: NMEAFields) {
        guard let heading = fields.double(1), heading >= 0, heading <= 360 else { return nil }
        self.init()
        self.heading = heading
    }

    /// The attitude of `sentence`, an HDT or `$PTNTHTM` sentence that passed its checksum (with its line end), as
    /// the decoder reports it; `device` names the source. `nil` for any other sentence, or one gpsd reports nothing
    /// for.
    package init?(sentence: [UInt8], device: String?) {
        let read =
            NMEAFields.reading(sentence, type: (0x48, 0x44, 0x54), Self.init(hdt:))
            ?? NMEAFields.reading(sentence, proprietary: Array("PTNTHTM".utf8)) { fields, checked in
                Self.isCompletePTNTHTM(fields, checked: checked) ? Self(ptnthtm: fields) : nil
            }
        guard var attitude = read ?? nil else { return nil }
        attitude.device = device
        self = attitude
    }
}

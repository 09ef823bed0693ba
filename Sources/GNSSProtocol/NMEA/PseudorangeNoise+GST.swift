extension PseudorangeNoise {
    /// The statistics of GST sentence `fields` (fields 2 to 8), without time or device.
    init(gst fields: NMEAFields) {
        self.init()
        rms = fields.double(2)
        major = fields.double(3)
        minor = fields.double(4)
        orientation = fields.double(5)
        latitude = fields.double(6)
        longitude = fields.double(7)
        altitude = fields.double(8)
    }

    /// The statistics of `sentence`, a GST sentence that passed its checksum (`$--GST,...*hh` and its line end), as
    /// the decoder reports them; `device` names the source. Its time of day is put on the UTC date of `date`, the
    /// stream's latest fix, or on the next day when its hour is below that fix's (a GST just past midnight, whose
    /// cycle is not reported yet), as the decoder's clock moves its date (gpsd's `merge_hhmmss`). `nil` for any
    /// other sentence.
    package init?(gstSentence sentence: [UInt8], date: GNSSTime?, device: String?) {
        guard
            let parsed = NMEAFields.reading(sentence, type: (0x47, 0x53, 0x54), { (Self(gst: $0), $0.timeOfDay(1)) })
        else { return nil }
        self = parsed.0
        self.device = device
        if let date, let timeOfDay = parsed.1 {
            var day = date.millisecondsSince1970 / 86_400_000
            if Int64(timeOfDay) / 3_600_000 < (date.millisecondsSince1970 - day * 86_400_000) / 3_600_000 { day += 1 }
            time = GNSSTime(millisecondsSince1970: day * 86_400_000 + Int64(timeOfDay))
        }
    }
}

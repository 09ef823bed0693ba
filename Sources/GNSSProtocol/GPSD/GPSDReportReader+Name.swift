extension GPSDReportReader {
    /// The member names (and the two class names) the reader decodes; every other name is ``other``.
    enum Name: Int {
        case `class`, tpv, sky, mode, time, device, lat, lon, altHAE, altMSL, alt, geoidSep, speed, track, magtrack,
            magvar, climb, status, eph, epv, epx, epy, eps, epc, epd, ept, sep, hdop, vdop, pdop, tdop, gdop, xdop,
            ydop, nSat, prn, gnssid, svid, el, az, ss, used, velN, velE, velD, depth, dgpsAge, dgpsSta, sigid,
            leapseconds
        case satellites, other

        /// The name of the bytes in `range` of `bytes`: up to 8 bytes packed little-endian into one word and
        /// matched as an integer; the two longer names, `satellites` and `leapseconds`, by their first eight bytes
        /// and the rest.
        init(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
            let count = range.count
            guard count <= 8 || count == 10 || count == 11 else {
                self = .other
                return
            }
            let start = bytes.baseAddress! + range.lowerBound
            var code: UInt64
            if range.lowerBound + 8 <= bytes.count {
                // One unaligned load of the eight bytes from the name's start, little-endian, then masked to its length.
                code = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self).littleEndian
            } else {
                code = 0
                for offset in 0..<min(count, 8) { code |= UInt64(start[offset]) << UInt64(offset * 8) }
            }
            if count == 10 {
                // "satellites": "satellit" packed, then "es".
                self = code == 0x7469_6C6C_6574_6173 && start[8] == 0x65 && start[9] == 0x73 ? .satellites : .other
                return
            }
            if count == 11 {
                // "leapseconds": "leapseco" packed, then "nds".
                self =
                    code == 0x6F63_6573_7061_656C && start[8] == 0x6E && start[9] == 0x64 && start[10] == 0x73
                    ? .leapseconds : .other
                return
            }
            if count < 8 { code &= (1 << UInt64(count * 8)) &- 1 }
            self.init(code: code)
        }

        /// The name whose bytes (at most 8, none of them zero) are `code`, packed little-endian; `satellites` and
        /// `leapseconds`, too long to pack, are never returned. Names of different lengths have different codes, as
        /// no name holds a zero byte.
        @inline(__always)
        init(code: UInt64) {
            switch code {
            case 0x73_7361_6C63: self = .`class`  // "class"
            case 0x565054: self = .tpv  // "TPV"
            case 0x594B53: self = .sky  // "SKY"
            case 0x6564_6F6D: self = .mode  // "mode"
            case 0x656D_6974: self = .time  // "time"
            case 0x6563_6976_6564: self = .device  // "device"
            case 0x74616C: self = .lat  // "lat"
            case 0x6E6F6C: self = .lon  // "lon"
            case 0x4541_4874_6C61: self = .altHAE  // "altHAE"
            case 0x4C53_4D74_6C61: self = .altMSL  // "altMSL"
            case 0x746C61: self = .alt  // "alt"
            case 0x7065_5364_696F_6567: self = .geoidSep  // "geoidSep"
            case 0x64_6565_7073: self = .speed  // "speed"
            case 0x6B_6361_7274: self = .track  // "track"
            case 0x6B63_6172_7467_616D: self = .magtrack  // "magtrack"
            case 0x7261_7667_616D: self = .magvar  // "magvar"
            case 0x62_6D69_6C63: self = .climb  // "climb"
            case 0x7375_7461_7473: self = .status  // "status"
            case 0x687065: self = .eph  // "eph"
            case 0x767065: self = .epv  // "epv"
            case 0x787065: self = .epx  // "epx"
            case 0x797065: self = .epy  // "epy"
            case 0x737065: self = .eps  // "eps"
            case 0x637065: self = .epc  // "epc"
            case 0x647065: self = .epd  // "epd"
            case 0x747065: self = .ept  // "ept"
            case 0x706573: self = .sep  // "sep"
            case 0x706F_6468: self = .hdop  // "hdop"
            case 0x706F_6476: self = .vdop  // "vdop"
            case 0x706F_6470: self = .pdop  // "pdop"
            case 0x706F_6474: self = .tdop  // "tdop"
            case 0x4E6C_6576: self = .velN  // "velN"
            case 0x456C_6576: self = .velE  // "velE"
            case 0x446C_6576: self = .velD  // "velD"
            case 0x68_7470_6564: self = .depth  // "depth"
            case 0x65_6741_7370_6764: self = .dgpsAge  // "dgpsAge"
            case 0x61_7453_7370_6764: self = .dgpsSta  // "dgpsSta"
            case 0x64_6967_6973: self = .sigid  // "sigid"
            case 0x706F_6467: self = .gdop  // "gdop"
            case 0x706F_6478: self = .xdop  // "xdop"
            case 0x706F_6479: self = .ydop  // "ydop"
            case 0x7461_536E: self = .nSat  // "nSat"
            case 0x4E5250: self = .prn  // "PRN"
            case 0x6469_7373_6E67: self = .gnssid  // "gnssid"
            case 0x6469_7673: self = .svid  // "svid"
            case 0x6C65: self = .el  // "el"
            case 0x7A61: self = .az  // "az"
            case 0x7373: self = .ss  // "ss"
            case 0x6465_7375: self = .used  // "used"
            default: self = .other
            }
        }

        /// The names seen in one object, to refuse a repeated one, as the general reader does: known names in a
        /// bit set, other names by their bytes (kept only when an object has any).
        struct Set {
            private var bits: UInt64 = 0
            private var others: [Range<Int>] = []

            /// The set of a report object whose `class` was read.
            static var afterClass: Set {
                var set = Set()
                set.bits = 1 << UInt64(Name.`class`.rawValue)
                return set
            }

            /// Adds `name`, read from `range` of `bytes`; `false` when the object already had that name.
            @inline(__always)
            mutating func insert(_ name: Name, at range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
                if name == .other { return insertOther(range, in: bytes) }
                let bit: UInt64 = 1 << UInt64(name.rawValue)
                defer { bits |= bit }
                return bits & bit == 0
            }

            /// Adds a name the reader does not decode, by its bytes.
            @inline(never)
            private mutating func insertOther(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
                let key = bytes[range]
                if others.contains(where: { bytes[$0].elementsEqual(key) }) { return false }
                others.append(range)
                return true
            }
        }
    }
}

/// Word-at-a-time byte tests for the NMEA hot loops: eight bytes per step instead of one.
///
/// Every mask is exact (no false positives from carries between bytes): the high bit of byte `k` of the result is
/// set when byte `k` of the word passes the test, and all other bits are clear. Words are loaded little-endian, so
/// `trailingZeroBitCount >> 3` of a mask is the index of the first byte that passes.
enum NMEAWord {
    /// `0x01` in every byte.
    static let ones: UInt64 = 0x0101_0101_0101_0101
    /// `0x7F` in every byte.
    static let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    /// `0x80` in every byte.
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `p`, first byte lowest.
    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// The bytes of `x` that are zero.
    @inline(__always)
    static func zeroBytes(_ x: UInt64) -> UInt64 {
        ~(((x & lows) &+ lows) | x | lows)
    }

    /// The bytes of `x` equal to `byte`.
    @inline(__always)
    static func bytes(_ x: UInt64, equalTo byte: UInt8) -> UInt64 {
        zeroBytes(x ^ (ones &* UInt64(byte)))
    }

    /// A superset of the line ends and sentence starts (`LF`, `CR`, `$`, `!`) in `x` whose lowest byte is exact:
    /// the first flagged byte is the first byte of `x` in 0x08...0x0F or in {0x20, 0x21, 0x24, 0x25}, which the
    /// caller checks; both sets are one OR and one compare away, where four exact compares cost twice as much.
    @inline(__always)
    static func lineStopCandidates(_ x: UInt64) -> UInt64 {
        // A byte is zero after the OR and XOR exactly when it is in the set; subtracting 1 borrows out of a byte only
        // when it is zero, so no byte below the first zero one is flagged.
        let a = (x | 0x0707_0707_0707_0707) ^ 0x0F0F_0F0F_0F0F_0F0F
        let b = (x | 0x0505_0505_0505_0505) ^ 0x2525_2525_2525_2525
        return ((a &- ones) & ~a | (b &- ones) & ~b) & highs
    }

    /// The bytes of `x` outside printable ASCII `0x20...0x7E`.
    @inline(__always)
    static func unprintableBytes(_ x: UInt64) -> UInt64 {
        // On the low seven bits of each byte no sum carries out of the byte: adding 1 sets the high bit at 0x7F,
        // adding 0x60 leaves it clear below 0x20; `x` itself has it set from 0x80 up.
        let low = x & lows
        return ((low &+ ones) | x | ~(low &+ 0x6060_6060_6060_6060)) & highs
    }

    /// The XOR of the eight bytes of `x`.
    @inline(__always)
    static func xorOfBytes(_ x: UInt64) -> UInt8 {
        var a = x ^ (x >> 32)
        a ^= a >> 16
        a ^= a >> 8
        return UInt8(truncatingIfNeeded: a)
    }

    /// Scans sentence `p[0..<n]` (`$` first) once, eight bytes at a time: up to the first `*` or byte outside
    /// printable ASCII (`stop`, or `n` when there is none), the XOR of the bytes from 1 to `stop` (`sum`), and the
    /// fields of that body split on commas, as ``NMEAFields`` reads them: `starts[0]` is 0, `starts[i]` is one past
    /// the `i`th comma relative to `p + 1`, and when fewer than ``NMEAFields/capacity`` commas were kept, a last
    /// entry `stop` closes the last field. `starts` has room for ``NMEAFields/capacity`` + 1 entries; `n` is at most
    /// 255 (the framer passes at most ``NMEAFramer/maximumSentenceLength`` bytes).
    @inline(__always)
    static func scanSentence(
        _ p: UnsafePointer<UInt8>, _ n: Int, starts: UnsafeMutablePointer<UInt8>
    ) -> (stop: Int, sum: UInt8, count: Int) {
        let capacity = NMEAFields.capacity
        starts[0] = 0
        var count = 0
        var stop = n
        var words: UInt64 = 0
        /// Records the commas flagged in `commas`, a mask of the word at `k`.
        @inline(__always) func record(_ commas: UInt64, at k: Int) {
            var m = commas
            if count &+ 8 <= capacity {
                // A word holds at most eight commas, so all fit.
                while m != 0 {
                    count &+= 1
                    starts[count] = UInt8(truncatingIfNeeded: k &+ (m.trailingZeroBitCount &>> 3))
                    m &= m &- 1
                }
            } else {
                while m != 0, count < capacity {
                    count &+= 1
                    starts[count] = UInt8(truncatingIfNeeded: k &+ (m.trailingZeroBitCount &>> 3))
                    m &= m &- 1
                }
            }
        }
        if n >= 8 {
            var k = 1
            while k < n {
                let rest = n &- k
                var w: UInt64
                var stops: UInt64
                if rest >= 8 {
                    // In bounds: k + 8 <= n.
                    w = load(p + k)
                    stops = bytes(w, equalTo: 0x2A) | unprintableBytes(w)
                } else {
                    // The last eight bytes of the sentence (n >= 8, so from p[n - 8] on, in bounds), shifted so
                    // that byte k comes first; the zero bytes shifted in are not stops and not commas.
                    w = load(p + (n &- 8)) &>> UInt64(truncatingIfNeeded: 64 &- 8 &* rest)
                    stops = (bytes(w, equalTo: 0x2A) | unprintableBytes(w)) & ((1 &<< UInt64(8 &* rest)) &- 1)
                }
                if stops != 0 {
                    // Only the bytes before the first stop belong to the body.
                    let t = stops.trailingZeroBitCount &>> 3
                    w &= (1 &<< UInt64(8 &* t)) &- 1
                    words ^= w
                    record(bytes(w, equalTo: 0x2C), at: k)
                    stop = k &+ t
                    break
                }
                words ^= w
                record(bytes(w, equalTo: 0x2C), at: k)
                k &+= 8
            }
        } else {
            var k = 1
            while k < n {
                let c = p[k]
                if c == 0x2A || c < 0x20 || c > 0x7E { break }
                words ^= UInt64(c)
                if c == 0x2C { record(0x80, at: k) }
                k &+= 1
            }
            stop = k
        }
        if count < capacity {
            count &+= 1
            starts[count] = UInt8(truncatingIfNeeded: stop)
        }
        return (stop, xorOfBytes(words), count)
    }

    /// The bytes of `x` that may end a sentence body, a superset of `*`, sentence starts (`$`, `!`) and bytes
    /// outside printable ASCII whose lowest byte is exact: the first flagged byte is the first byte of `x` below
    /// 0x25, equal to 0x2A, or from 0x7F up; the caller checks that it is `*`.
    @inline(__always)
    static func bodyStopCandidates(_ x: UInt64) -> UInt64 {
        // `- 0x25` sets the high bit below 0x25 and from 0xA5 up, `+ 1` from 0x7F to 0xFE. A borrow or a carry
        // leaves a byte only when that byte is flagged itself, so no byte below the first flagged one is touched.
        // Below 0x80, `(x ^ 0x2A) + 0x7F` has its high bit clear exactly at 0x2A.
        let range = (x &- 0x2525_2525_2525_2525) | (x &+ ones)
        let star = ~((x ^ 0x2A2A_2A2A_2A2A_2A2A) &+ lows)
        return (range | star) & highs
    }

    /// The commas of `x`, exact in every byte below 0x80 that no lower byte of 0x80 or more precedes (adding 0x7F
    /// carries out of a byte only from 0x81 up), so exact below the first ``bodyStopCandidates(_:)`` byte.
    @inline(__always)
    static func commasBeforeStop(_ x: UInt64) -> UInt64 {
        ~((x ^ 0x2C2C_2C2C_2C2C_2C2C) &+ lows) & highs
    }

    /// Scans the line starting at `p[0]` (`$` or `!`), with `available` bytes readable from `p`, when it is a
    /// plain sentence: printable bytes free of `$`, `!` and the three bytes 0x22, 0x23, 0x20 up to a `*` at
    /// `stop`, two bytes above 0x24 and a CR or LF at `stop + 3`, which is at most `limit`. Then the result is what
    /// ``scanSentence(_:_:starts:)`` gives for `p[0..<stop + 3]`, with `starts` holding room for
    /// ``NMEAFields/capacity`` + 1 entries and for `limit` + 14, and `places` the storage of ``CommaPlaces/table``;
    /// otherwise nil, and `starts` holds junk.
    @inline(__always)
    static func scanLine(
        _ p: UnsafePointer<UInt8>, available: Int, limit: Int, starts: UnsafeMutablePointer<UInt8>,
        places: UnsafePointer<UInt64>
    ) -> (stop: Int, sum: UInt8, count: Int)? {
        // Words start at 1, 9, ... and stop before one that starts past `limit - 3`, the last place for the `*`;
        // every word lies inside the `available` bytes (k + 8 <= available).
        let wordEnd = Swift.min(available, limit &+ 5) &- 7
        starts[0] = 0
        // The last entry written: a moving pointer keeps one register fewer busy than a base and a count.
        var last = starts
        var words: UInt64 = 0
        var k = 1
        while k < wordEnd {
            var w = load(p + k)
            var commas = commasBeforeStop(w)
            let stops = bodyStopCandidates(w)
            if stops != 0 {
                // The bits up to the first stop's high bit: its byte is not a comma, and the bytes below it are
                // the body's.
                let upTo = stops ^ (stops &- 1)
                commas &= upTo
                w &= upTo &>> 8
            }
            words ^= w
            // The word's commas as one byte (bit i for byte i), then their places in one eight-byte store: at most
            // `limit` + 4 commas in all, and the table has room for each plus the store's eight bytes; the count
            // is capped below. Places fit a byte: k + 7 < limit + 5 < 256, and the table's are 0...7.
            let bits = Int(truncatingIfNeeded: ((commas &>> 7) &* 0x0102_0408_1020_4080) &>> 56)
            UnsafeMutableRawPointer(last + 1).storeBytes(
                of: CommaPlaces.places(places, bits) &+ UInt64(truncatingIfNeeded: k) &* ones, as: UInt64.self)
            last += CommaPlaces.count(places, bits)
            if stops != 0 {
                let stop = k &+ (stops.trailingZeroBitCount &>> 3)
                // p[stop + 3] is readable: stop + 3 < available.
                guard p[stop] == 0x2A, stop &+ 3 <= limit, stop &+ 3 < available, p[stop &+ 1] > 0x24,
                    p[stop &+ 2] > 0x24, p[stop &+ 3] == 0x0D || p[stop &+ 3] == 0x0A
                else { return nil }
                var count = last - starts
                if count >= NMEAFields.capacity {
                    count = NMEAFields.capacity
                } else {
                    count &+= 1
                    starts[count] = UInt8(truncatingIfNeeded: stop)
                }
                return (stop, xorOfBytes(words), count)
            }
            k &+= 8
        }
        return nil
    }

    /// Scans sentence `p[0..<n]` as ``scanSentence(_:_:starts:)`` does, without splitting it: `stop`,
    /// `sum`, and one field (`count` is 1, nothing is written). The loop is this short for sentences nothing
    /// parses.
    static func checkSentence(_ p: UnsafePointer<UInt8>, _ n: Int) -> (stop: Int, sum: UInt8, count: Int) {
        var k = 1
        var words: UInt64 = 0
        // Eight bytes at a time (in bounds: k + 8 <= n) up to the word holding the first `*` or unprintable byte;
        // the bytes from there on one by one.
        while k &+ 8 <= n {
            let w = load(p + k)
            if bytes(w, equalTo: 0x2A) | unprintableBytes(w) != 0 { break }
            words ^= w
            k &+= 8
        }
        var sum = xorOfBytes(words)
        while k < n {
            let c = p[k]
            if c == 0x2A || c < 0x20 || c > 0x7E { break }
            sum ^= c
            k &+= 1
        }
        return (k, sum, 1)
    }
}

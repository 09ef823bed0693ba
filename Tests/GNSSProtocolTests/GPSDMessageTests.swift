import GNSSProtocol
import Testing

/// Lines captured from gpsd 3.22 (`gpsfake -1 -q -P PORT -c 0.02 ublox-lea-4h.log` / `ublox-zed-f9p-nmea.log` with
/// `gpspipe -w`, and a raw client for the ERROR reply), and from gpsd 3.22's `gpsdecode` for the `status` line.
enum CapturedLines {
    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
    static let devicesEmpty = #"{"class":"DEVICES","devices":[]}"#
    static let devices =
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/5","activated":"2026-11-22T02:18:20.875Z","native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}]}"#
    static let watch =
        #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#
    static let deviceActivated = #"{"class":"DEVICE","path":"/dev/pts/1","activated":"2026-11-22T02:17:50.503Z"}"#
    static let deviceDriver =
        #"{"class":"DEVICE","path":"/dev/pts/1","driver":"NMEA0183","activated":"2026-11-22T02:17:51.515Z","native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}"#
    static let deviceGone = #"{"class":"DEVICE","path":"/dev/pts/1","activated":0}"#
    static let tpvFirst =
        #"{"class":"TPV","device":"/dev/pts/1","mode":2,"lat":49.130904000,"lon":-122.719980333,"magvar":15.8}"#
    static let tpvNoFix =
        #"{"class":"TPV","device":"/dev/pts/1","mode":1,"time":"2026-03-26T03:10:07.000Z","ept":0.005}"#
    static let tpvFull =
        #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-03-26T03:15:16.000Z","ept":0.005,"lat":49.126133500,"lon":-122.710178833,"altHAE":82.4000,"altMSL":99.1000,"alt":99.1000,"epx":8.997,"epy":14.222,"epv":79.350,"track":39.1400,"magtrack":54.9307,"magvar":15.8,"speed":0.043,"climb":0.094,"epd":55.2223,"eps":0.14,"epc":0.52,"geoidSep":-16.700,"eph":40.850,"sep":77.140}"#
    static let tpvStatus =
        #"{"class":"TPV","device":"stdin","status":2,"mode":3,"time":"2030-01-17T14:52:44.000Z","ept":0.005,"lat":34.032940000,"lon":-117.747123333,"altHAE":201.5000,"altMSL":234.7000,"alt":234.7000,"epx":2.156,"epy":2.476,"epv":7.533,"track":119.2700,"magtrack":130.9332,"magvar":11.7,"speed":0.000,"climb":0.000,"eps":4.95,"epc":15.07,"geoidSep":-33.200,"eph":4.133,"sep":7.505}"#
    static let sky =
        #"{"class":"SKY","device":"/dev/pts/1","vdop":1.00,"hdop":9.99,"pdop":10.04,"nSat":3,"uSat":3,"satellites":[{"PRN":28,"el":28.0,"az":95.0,"ss":32.0,"used":true,"gnssid":0,"svid":28},{"PRN":4,"el":30.0,"az":150.0,"ss":45.0,"used":true,"gnssid":0,"svid":4},{"PRN":2,"el":7.0,"az":178.0,"ss":32.0,"used":true,"gnssid":0,"svid":2}]}"#
    static let skyGalileo =
        #"{"class":"SKY","device":"/dev/pts/5","nSat":1,"uSat":0,"satellites":[{"PRN":33,"el":62.0,"az":34.0,"ss":9.0,"used":false,"gnssid":1,"svid":120}]}"#
    static let gst = #"{"class":"GST","device":"/dev/pts/5","rms":348874.000,"lat":2.300,"lon":3.500,"alt":4.000}"#
    static let error = #"{"class":"ERROR","message":"Unrecognized request '?FOO;\n'"}"#
}

@Suite struct GPSDMessageTests {
    private func decode(_ line: String) throws(GPSDDecodingError) -> GPSDMessage { try GPSDMessage(line: line) }

    private func failure(_ line: String) -> GPSDDecodingError? {
        do {
            _ = try GPSDMessage(line: line)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesVersion() throws {
        let expected = GPSDVersion(release: "3.22", revision: "3.22", protocolMajor: 3, protocolMinor: 14)
        #expect(try decode(CapturedLines.version) == .version(expected))
        #expect(expected.isSupported)
    }

    @Test func refusesProtocolBeforeThree() throws {
        guard
            case .version(let old) = try decode(
                #"{"class":"VERSION","release":"2.39","rev":"x","proto_major":2,"proto_minor":5}"#)
        else {
            Issue.record("not a VERSION")
            return
        }
        #expect(!old.isSupported)
        let error = try #require(throws: GPSDProtocolError.self) { try old.requireSupported() }
        #expect(error == .unsupportedProtocol(old))
        #expect(error.description.contains("protocol 2.5"))
    }

    @Test func decodesDevicesAndWatch() throws {
        #expect(try decode(CapturedLines.devicesEmpty) == .devices([]))
        guard case .devices(let list) = try decode(CapturedLines.devices) else {
            Issue.record("not DEVICES")
            return
        }
        #expect(list.map(\.path) == ["/dev/pts/5"])
        #expect(list.first?.bitsPerSecond == 4800)
        #expect(list.first?.activation == .active(since: GNSSTime(iso8601: "2026-11-22T02:18:20.875Z")!))
        guard case .watch(let watch) = try decode(CapturedLines.watch) else {
            Issue.record("not WATCH")
            return
        }
        #expect(watch.enable == true && watch.json == true && watch.nmea == false && watch.raw == 0)
    }

    @Test func decodesDeviceActivationAsStringOrNumber() throws {
        guard case .device(let first) = try decode(CapturedLines.deviceActivated),
            case .device(let driver) = try decode(CapturedLines.deviceDriver),
            case .device(let gone) = try decode(CapturedLines.deviceGone)
        else {
            Issue.record("not DEVICE")
            return
        }
        #expect(first.driver == nil)
        #expect(first.activation == .active(since: GNSSTime(iso8601: "2026-11-22T02:17:50.503Z")!))
        #expect(driver.driver == "NMEA0183" && driver.parity == "N" && driver.stopBits == 1 && driver.cycle == 1)
        #expect(gone.path == "/dev/pts/1")
        #expect(gone.activation == .inactive)
        // Releases before 3.10 sent seconds since 1970.
        guard case .device(let old) = try decode(#"{"class":"DEVICE","path":"/dev/gps","activated":1300000000.5}"#)
        else {
            Issue.record("not DEVICE")
            return
        }
        #expect(old.activation == .active(since: GNSSTime(millisecondsSince1970: 1_300_000_000_500)))
        #expect(
            failure(#"{"class":"DEVICE","path":"/dev/gps","activated":true}"#)
                == .wrongType(
                    className: "DEVICE", field: "activated", expected: "a time string or a number", found: "a boolean"))
    }

    @Test func decodesEveryTPVField() throws {
        guard case .tpv(let fix) = try decode(CapturedLines.tpvFull) else {
            Issue.record("not TPV")
            return
        }
        #expect(fix.mode == .threeD)
        #expect(fix.time?.iso8601 == "2026-03-26T03:15:16.000Z")
        #expect(fix.latitude == 49.1261335 && fix.longitude == -122.710178833)
        #expect(fix.altitudeHAE == 82.4 && fix.altitudeMSL == 99.1 && fix.geoidSeparation == -16.7)
        #expect(fix.speed == 0.043 && fix.track == 39.14 && fix.magneticTrack == 54.9307)
        #expect(fix.magneticVariation == 15.8 && fix.climb == 0.094)
        #expect(fix.eph == 40.85 && fix.epv == 79.35 && fix.epx == 8.997 && fix.epy == 14.222)
        #expect(fix.eps == 0.14 && fix.epc == 0.52 && fix.epd == 55.2223 && fix.ept == 0.005 && fix.sep == 77.14)
        #expect(fix.status == nil)
        #expect(fix.device == "/dev/pts/1")
        #expect(fix.horizontalAccuracy == 40.85)

        guard case .tpv(let dgps) = try decode(CapturedLines.tpvStatus) else { return }
        #expect(dgps.status == 2)
    }

    @Test func decodesSparseTPVs() throws {
        #expect(
            try decode(CapturedLines.tpvFirst)
                == .tpv(
                    {
                        var f = Fix(mode: .twoD, latitude: 49.130904, longitude: -122.719980333, device: "/dev/pts/1")
                        f.magneticVariation = 15.8
                        return f
                    }()))
        guard case .tpv(let noFix) = try decode(CapturedLines.tpvNoFix) else { return }
        #expect(noFix.mode == .noFix && noFix.latitude == nil && noFix.ept == 0.005)
        // Older gpsd: only the deprecated `alt`.
        guard case .tpv(let old) = try decode(#"{"class":"TPV","mode":3,"alt":12.5}"#) else { return }
        #expect(old.altitudeMSL == 12.5)
        guard case .tpv(let mode0) = try decode(#"{"class":"TPV","mode":0,"lat":null}"#) else { return }
        #expect(mode0.mode == .unknown && mode0.latitude == nil)
    }

    @Test func decodesSky() throws {
        guard case .sky(let sky) = try decode(CapturedLines.sky) else {
            Issue.record("not SKY")
            return
        }
        #expect(sky.satellites.count == 3 && sky.satellitesUsed == 3)
        #expect(
            sky.satellites[0]
                == Satellite(prn: 28, gnssID: 0, svID: 28, elevation: 28, azimuth: 95, signalStrength: 32, used: true))
        #expect(sky.hdop == 9.99 && sky.vdop == 1 && sky.pdop == 10.04 && sky.gdop == nil)
        guard case .sky(let sbas) = try decode(CapturedLines.skyGalileo) else { return }
        #expect(
            sbas.satellites == [Satellite(prn: 33, gnssID: 1, svID: 120, elevation: 62, azimuth: 34, signalStrength: 9)]
        )
        let dops =
            #"{"class":"SKY","xdop":0.98,"ydop":1.92,"vdop":4.05,"tdop":2.55,"hdop":2.22,"gdop":4.80,"pdop":4.62}"#
        guard case .sky(let onlyDops) = try decode(dops) else { return }
        #expect(onlyDops.satellites.isEmpty)
        #expect(onlyDops.xdop == 0.98 && onlyDops.ydop == 1.92 && onlyDops.tdop == 2.55 && onlyDops.gdop == 4.8)
    }

    @Test func decodesErrorAndIgnoredClasses() throws {
        #expect(try decode(CapturedLines.error) == .error(message: "Unrecognized request '?FOO;\n'"))
        #expect(try decode(CapturedLines.gst) == .other(className: "GST"))
        for name in ["TOFF", "PPS", "ATT", "POLL", "AIS", "IMU"] {
            #expect(try decode(#"{"class":"\#(name)","whatever":[1,{"x":null}]}"#) == .other(className: name))
        }
        #expect(try decode(CapturedLines.gst).className == "GST")
    }

    @Test func reportsWrongTypesByName() {
        #expect(
            failure(#"{"class":"TPV","mode":3,"lat":"abc"}"#)
                == .wrongType(className: "TPV", field: "lat", expected: "a number", found: "a string"))
        #expect(
            failure(#"{"class":"TPV","mode":3,"lat":"abc"}"#)?.description
                == #"TPV field "lat": expected a number, found a string"#)
        #expect(
            failure(#"{"class":"TPV","mode":7}"#)
                == .invalidValue(className: "TPV", field: "mode", reason: "7 is not 0, 1, 2 or 3"))
        #expect(
            failure(#"{"class":"TPV","mode":2.5}"#)
                == .invalidValue(className: "TPV", field: "mode", reason: "2.5 is not an integer"))
        #expect(failure(#"{"class":"TPV"}"#) == .missingField(className: "TPV", field: "mode"))
        #expect(failure(#"{"class":"TPV","mode":3,"lat":91}"#) != nil)
        #expect(failure(#"{"class":"TPV","mode":3,"time":"yesterday"}"#) != nil)
        #expect(failure(#"{"class":"VERSION","release":"3.22","proto_major":"3","proto_minor":1}"#) != nil)
        #expect(
            failure(#"{"class":"SKY","satellites":[{"PRN":1},{"PRN":"2"}]}"#)
                == .wrongType(className: "SKY satellites[1]", field: "PRN", expected: "an integer", found: "a string"))
        #expect(failure(#"{"class":"SKY","satellites":[3]}"#) != nil)
        #expect(failure(#"{"class":"SKY","satellites":{}}"#) != nil)
        #expect(failure(#"{"class":"DEVICES","devices":[{"class":"DEVICE"}]}"#) != nil)
        #expect(failure(#"{"class":"WATCH","enable":"yes"}"#) != nil)
    }

    @Test func rejectsNonMessages() {
        #expect(failure("[1,2]") == .notAnObject(found: "array"))
        #expect(failure(#"{"mode":3}"#) == .missingClass)
        #expect(failure(#"{"class":3}"#) == .missingClass)
        guard case .invalidJSON? = failure(#"{"class":"TPV","mode":3"#) else {
            Issue.record("truncated line accepted")
            return
        }
        guard case .invalidJSON? = failure("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47") else {
            Issue.record("NMEA accepted as JSON")
            return
        }
    }

    @Test func buildsRequests() {
        #expect(String(decoding: GPSDRequest.enableWatch, as: UTF8.self) == "?WATCH={\"enable\":true,\"json\":true}\n")
        #expect(String(decoding: GPSDRequest.disableWatch, as: UTF8.self) == "?WATCH={\"enable\":false}\n")
        #expect(
            GPSDRequest.watch(enable: true, device: "/dev/tty\"USB0\"").text
                == "?WATCH={\"enable\":true,\"json\":true,\"device\":\"/dev/tty\\\"USB0\\\"\"}\n")
        #expect(GPSDRequest.poll.text == "?POLL;\n")
        #expect(GPSDRequest.version.text == "?VERSION;\n")
        #expect(GPSDRequest.devices.text == "?DEVICES;\n")
    }
}

/// Where the gpsd-protocol listener binds: an IPv4 address and a TCP port, from `--listen [HOST:]PORT`.
package struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address's four bytes, most significant first; 127.0.0.1 unless the option named a host.
    package var octets: [UInt8]
    /// The TCP port, 1 to 65535.
    package var port: UInt16

    /// Creates an address.
    package init(octets: [UInt8] = [127, 0, 0, 1], port: UInt16) {
        self.octets = octets
        self.port = port
    }

    /// Parses `PORT`, `HOST:PORT` or `localhost:PORT`, HOST being a dotted IPv4 address (`0.0.0.0` for every
    /// interface); `nil` for anything else.
    package init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let portText = parts.last, portText.count <= 5, let port = UInt16(portText), port > 0
        else { return nil }
        var octets: [UInt8] = [127, 0, 0, 1]
        if parts.count == 2, parts[0] != "localhost" {
            let fields = parts[0].split(separator: ".", omittingEmptySubsequences: false)
            guard fields.count == 4 else { return nil }
            octets = []
            for field in fields {
                guard field.count <= 3, field.allSatisfy(\.isASCII), let byte = UInt8(field) else { return nil }
                octets.append(byte)
            }
        }
        self.init(octets: octets, port: port)
    }

    /// `HOST:PORT`, as logs name it.
    package var description: String {
        octets.map { String($0) }.joined(separator: ".") + ":\(port)"
    }
}

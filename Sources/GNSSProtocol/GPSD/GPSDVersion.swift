/// gpsd's VERSION banner, the first line it sends on every connection.
public struct GPSDVersion: Sendable, Hashable {
    /// The lowest protocol major version this client speaks: gpsd 2.90 (2009) and later.
    public static let minimumProtocolMajor = 3

    /// The gpsd release, for example `"3.22"` (VERSION `release`).
    public var release: String
    /// The repository revision gpsd was built from (VERSION `rev`).
    public var revision: String
    /// The protocol major version (VERSION `proto_major`); a change means incompatible.
    public var protocolMajor: Int
    /// The protocol minor version (VERSION `proto_minor`); a change means compatible additions.
    public var protocolMinor: Int
    /// The URL of a remote gpsd this one relays, when it does (VERSION `remote`).
    public var remote: String?

    /// Creates a banner.
    public init(release: String, revision: String, protocolMajor: Int, protocolMinor: Int, remote: String? = nil) {
        self.release = release
        self.revision = revision
        self.protocolMajor = protocolMajor
        self.protocolMinor = protocolMinor
        self.remote = remote
    }

    /// Whether this client can talk to that gpsd: protocol major version 3 or later.
    public var isSupported: Bool { protocolMajor >= Self.minimumProtocolMajor }

    /// Throws ``GPSDProtocolError/unsupportedProtocol(_:)`` unless ``isSupported``.
    public func requireSupported() throws(GPSDProtocolError) {
        guard isSupported else { throw .unsupportedProtocol(self) }
    }

    init(_ f: GPSDFields) throws(GPSDDecodingError) {
        release = try f.required("release", f.string)
        revision = try f.string("rev") ?? ""
        protocolMajor = try f.required("proto_major", f.int)
        protocolMinor = try f.required("proto_minor", f.int)
        remote = try f.string("remote")
    }
}

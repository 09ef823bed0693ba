import Foundation

/// A fresh directory under /tmp for one test's sockets and files, removed by ``remove()``.
///
/// Paths stay short because a Unix socket path may hold at most 107 bytes.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/sdt-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A TCP port on 127.0.0.1 that the kernel just handed out and that nothing listens on now: bound to a
/// ``LoopbackPeer`` that never listens, then released for a server the test starts (gpsd, the daemon).
package func freePort() throws -> UInt16 {
    try LoopbackPeer(listening: false).port
}

import Foundation
import TestSupport
import Testing

/// `cgps` on a tmux screen against the daemon's gpsd listener and against a real gpsd fed the same log in the same
/// test (``SideBySide``): its error panel shows figures, not n/a, and the figures it shows for gpsd.
@Suite(.gpsdTools, .requires([Requirement.tmux, Requirement.cgps]), .hangBound)
struct GPSDSideBySideCgpsTests {
    /// cgps 3.22's error rows, by their labels: `Long Err (XDOP, EPX)`, `Lat Err (YDOP, EPY)`, `Alt Err (VDOP,
    /// EPV)`, `2D Err (HDOP, CEP)`, `3D Err (PDOP, SEP)`, `Time Err (TDOP)`, `Geo Err (GDOP)`, `Speed Err (EPS)`,
    /// `Track Err (EPD)`.
    static func errorPanel(_ screen: [String]) -> [String] {
        // The left pane is 44 columns wide; the satellite list is to its right.
        screen.map { String($0.prefix(44)) }.filter { $0.contains(" Err ") }
    }

    /// Captures the screen of tmux session `session` until `done` holds for its error panel once it shows the
    /// log's last fix; returns the last screen read. Asked every 100 ms (the screen announces no change; the
    /// interval paces the asking), for at most 300 times: a bound that only ends a hang.
    static func screen(
        _ tmux: String, _ socket: String, _ session: String, until done: ([String]) -> Bool
    ) async throws -> [String] {
        var screen: [String] = []
        for _ in 0..<300 {
            let capture = try ChildProcess(tmux, ["-S", socket, "capture-pane", "-p", "-t", session], stdout: .pipe)
            screen = await capture.stdout.rest()
            _ = await capture.wait()
            if screen.contains(where: { $0.contains(SideBySide.lastTime) }), done(errorPanel(screen)) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return screen
    }

    @Test func errorPanelShowsGpsdsFigures() async throws {
        let tmux = try SideBySide.tool("tmux", package: "tmux")
        let cgps = try SideBySide.tool("cgps")
        let pair = try await SideBySide.start()
        let socket = pair.directory.file("tmux.sock")
        // A failed expectation leaves the tmux server to end with its sessions: cgps exits when its server does.
        for (session, ofGpsd) in [("gpsd", true), ("ours", false)] {
            let start = try ChildProcess(
                tmux,
                [
                    "-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                    "\(cgps) -s \(pair.server(ofGpsd: ofGpsd))",
                ])
            #expect(await start.wait() == .exited(0))
        }
        try await pair.waitForWatchers()
        try pair.feedLog()

        let gpsdScreen = try await Self.screen(tmux, socket, "gpsd") { panel in
            !panel.isEmpty && !panel.contains { $0.contains("n/a") }
        }
        let gpsdPanel = Self.errorPanel(gpsdScreen)
        let ourScreen = try await Self.screen(tmux, socket, "ours") { $0 == gpsdPanel }
        let ourPanel = Self.errorPanel(ourScreen)
        let stop = try ChildProcess(tmux, ["-S", socket, "kill-server"])
        _ = await stop.wait()
        await pair.stop()

        #expect(gpsdPanel.count >= 9, "cgps showed for gpsd:\n\(gpsdScreen.joined(separator: "\n"))")
        #expect(
            !gpsdPanel.contains { $0.contains("n/a") }, "cgps showed for gpsd:\n\(gpsdPanel.joined(separator: "\n"))")
        #expect(!ourPanel.contains { $0.contains("n/a") }, "cgps showed:\n\(ourScreen.joined(separator: "\n"))")
        #expect(
            ourPanel == gpsdPanel,
            "cgps showed:\n\(ourPanel.joined(separator: "\n"))\nand for gpsd:\n\(gpsdPanel.joined(separator: "\n"))")
    }
}

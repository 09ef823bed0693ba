/// The text `singletond --help` prints and a usage error repeats.
package enum Usage {
    /// The exit status of a usage error (`EX_USAGE` from sysexits.h).
    package static let exitStatus: Int32 = 64

    /// The usage text.
    package static let text = """
        usage: singletond [run] [SOURCE] [OPTIONS]     run the daemon (no arguments: the built-in demo track)
               singletond status | watch | cancel [--control PATH] [--timeout N]
               singletond survey [SECONDS] [--control PATH] [--timeout N]
               singletond decode [--device NAME] [--week-rollover as-sent|gpsd] [FILE|-]
               singletond --help | --version

        sources (one):
          --gpsd [HOST:PORT]      a gpsd server (default 127.0.0.1:2947); reconnects when lost
          --nmea PATH|-           NMEA 0183 from a file, FIFO, serial device or standard input
            --baud N              the serial speed (makes PATH a serial device; a terminal
                                  device is one anyway, at 9600 without --baud)
          --nmea-tcp HOST:PORT    NMEA 0183 over TCP; reconnects when lost
          --demo                  the built-in demo track, replayed in real time and looped
            --replay-speed N      (--nmea FILE) replay at N times the pace of its timestamps
                                  (0.001 to 1000)

        options:
          --control PATH          the control socket (default $XDG_RUNTIME_DIR/singletond.sock,
                                  else /tmp/singletond-$UID/singletond.sock)
          --listen [HOST:]PORT    serve gpsd's JSON protocol on TCP (off unless given; HOST is an
                                  IPv4 address, 127.0.0.1 when left out); gpspipe, cgps connect
          --output PATH|-         where TPV lines go (default - , standard output); SIGHUP reopens it
          --log-level LEVEL       trace, debug, info, notice, warning or error (default info)
          --survey-seconds N      the length of a survey asked for without one (default 60)
          --stop-timeout N        how long a shutdown may take before the daemon exits 1 (default 1.8)
          --timeout N             (client commands) how long to wait for the daemon's first answer
                                  (default 5); watch and survey then wait as long as they last

        """
}

import Glibc
import SingletonDaemon

exit(await Singletond.main(Array(CommandLine.arguments.dropFirst())))

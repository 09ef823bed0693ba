import SingletonDaemon

Singletond.runProcess(Array(CommandLine.arguments.dropFirst()))

import SingletondCore

Singletond.runProcess(Array(CommandLine.arguments.dropFirst()))

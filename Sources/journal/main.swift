import Foundation
import JournalCLI

let environment = ProcessInfo.processInfo.environment
let status = JournalCLI.run(
  arguments: Array(CommandLine.arguments.dropFirst()),
  environment: environment,
  console: StandardStreams.console(environment: environment)
)
exit(status)

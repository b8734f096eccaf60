import Foundation
import JournalCLI

let environment = ProcessInfo.processInfo.environment
let status = JournalCLI.run(
  arguments: Array(CommandLine.arguments.dropFirst()),
  environment: environment,
  console: StandardStreams.console(environment: environment),
  // The process exits right after: the journal a command replayed is not worth freeing.
  keepingJournalsUntilExit: true
)
exit(status)

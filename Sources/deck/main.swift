import DeckCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let environment = ProcessInfo.processInfo.environment
let session = DeckSession(
  processEnvironment: environment, providers: LiveProviders(), output: .standard(environment: environment))
CompletionSession.register { session }
let code = await DeckRunner.run(Deck.self, arguments: Array(CommandLine.arguments.dropFirst()), session: session)
exit(code)

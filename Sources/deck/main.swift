import DeckApp
import DeckCore
import DeckLive
import DeckREPL
import DeckSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current()
// Tokens given through the environment are read from `environment` (the session's copy); the
// process's own environment drops them before any thread starts, so nothing deck starts or
// evaluates (a plugin, an editor, jq's `$ENV` and `env` in --jq) can print them.
for secret in ["DECK_TOKEN", "DECK_SANDBOX_ADMIN_TOKEN"] { unsetenv(secret) }
let scriptMode = (arguments.isEmpty && isatty(0) == 0) || arguments.first == "run"
var output = Output.standard(environment: environment)
if scriptMode { output = output.withoutColor() }
DeckRegistry.install(Registry.modules)
let session = DeckSession(
  processEnvironment: environment, providers: LiveProviders(sandboxFeatures: Registry.sandboxFeatures),
  output: output, lineReader: ReadlineLineReader(), registry: Registry.modules)
CompletionSession.register { session }
DynamicCompletion.register(Registry.modules.completionProviders)
DeckShell.register(root: Deck.self)

let code: Int32
if arguments.isEmpty {
  // No arguments: the REPL on a terminal, script mode when stdin is a pipe or a file.
  code =
    isatty(0) == 1
    ? await REPL(session: session).run()
    : await ScriptRunner(session: session, keepGoing: false).run(lines: ScriptInput.stdinLines(), source: "stdin")
} else {
  code = await DeckRunner.run(Deck.self, arguments: arguments, session: session)
}
exit(code)

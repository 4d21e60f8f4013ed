import DeckSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Started by the launcher as the start-up helper (docs/HELPER.md), or as deck itself.
if let socket = getenv("DECK_HELPER_SOCKET").map({ String(cString: $0) }) {
  unsetenv("DECK_HELPER_SOCKET")
  DeckProgram.serveAsHelper(socketPath: socket)
}
DeckProgram.start(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current())

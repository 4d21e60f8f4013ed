import DeckSupport

DeckProgram.start(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current())

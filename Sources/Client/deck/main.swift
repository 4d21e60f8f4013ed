import DeckCore
import DeckSupport

// A filter child (`--jq`, QA's jq checks) limits itself and runs before anything else starts.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == JQChild.flag {
  JQChild.main(arguments: Array(CommandLine.arguments.dropFirst(2)))
}
JQFilter.runChildrenAsThisProgram()

DeckProgram.start(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current())

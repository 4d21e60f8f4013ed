import SandboxApp

await SandboxProgram.run(CommandLine.arguments.dropFirst())

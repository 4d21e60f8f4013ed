// swift-tools-version:6.1
// deck: a terminal client for the FLYR, kiosk, recruiting and nudge backends.
// The layout mirrors the architecture (see docs/ARCHITECTURE.md):
//   Sources/Core       command protocol, registry, context, output, built-in commands
//   Sources/Shared     config, auth tokens, networking (middleware) and the HTTP transport
//   Sources/Contracts  OpenAPI documents; client and sandbox server are generated from them
//   Sources/Features   one folder per product feature: pure spec logic + thin commands
//   Sources/Sandbox    the sandbox server (Hummingbird + GRDB) and its commands
//   Sources/deck       the executable: registers the modules and runs
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
]

let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let openAPIRuntime = Target.Dependency.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")
let openAPIGenerator = Target.PluginUsage.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")

/// A target generated from one service's OpenAPI document (types, client and server stubs).
@MainActor func contract(_ name: String) -> Target {
  .target(
    name: name, dependencies: [openAPIRuntime], path: "Sources/Contracts/\(name)",
    swiftSettings: swiftSettings, plugins: [openAPIGenerator])
}

let package = Package(
  name: "deck",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "deck", targets: ["deck"])
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: []),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
    .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
    .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
    .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
  ],
  targets: [
    // MARK: Shared modules (no NIO, no GRDB)
    .target(name: "DeckSupport", path: "Sources/Shared/DeckSupport", swiftSettings: swiftSettings),
    .target(
      name: "DeckConfig",
      dependencies: [
        .product(name: "Configuration", package: "swift-configuration"),
        .product(name: "Yams", package: "Yams"),
        "DeckSupport",
      ],
      path: "Sources/Shared/DeckConfig", swiftSettings: swiftSettings),
    .target(
      name: "DeckAuth", dependencies: ["DeckSupport"], path: "Sources/Shared/DeckAuth", swiftSettings: swiftSettings),
    .target(
      name: "DeckNetworking",
      dependencies: [
        "DeckSupport", "DeckConfig", "DeckAuth", openAPIRuntime,
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      path: "Sources/Shared/DeckNetworking", swiftSettings: swiftSettings),

    // MARK: Core: command protocol, registry, context, output
    .target(
      name: "DeckCore",
      dependencies: [
        argumentParser, "DeckSupport", "DeckConfig", "DeckAuth", "DeckNetworking", "AuthAPI", openAPIRuntime,
      ],
      path: "Sources/Core/DeckCore", swiftSettings: swiftSettings),
    .target(
      name: "DeckBuiltins",
      dependencies: [
        "DeckCore", "DeckREPL", "AuthAPI", openAPIRuntime, argumentParser,
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      path: "Sources/Core/DeckBuiltins", swiftSettings: swiftSettings),

    // MARK: The interactive shell: REPL on GNU readline, script mode, completion, plugins
    .systemLibrary(name: "CReadline", path: "Sources/Core/CReadline"),
    .target(
      name: "DeckREPL",
      dependencies: ["DeckCore", "CReadline", argumentParser],
      path: "Sources/Core/DeckREPL", swiftSettings: swiftSettings),

    // MARK: Contracts (OpenAPI documents -> generated types, client and server)
    contract("AuthAPI"),
    contract("FlyrAPI"),
    contract("SandboxAdminAPI"),
    contract("KioskAPI"),
    contract("SandboxWorkspaceAPI"),
    contract("SandboxKioskAPI"),
    contract("NudgeAPI"),
    contract("SandboxMbtiAPI"),

    // MARK: Feature modules
    .target(name: "BrokerageRules", path: "Sources/Features/Brokerage/Rules", swiftSettings: swiftSettings),
    .target(
      name: "BrokerageModule",
      dependencies: ["DeckCore", "BrokerageRules", "FlyrAPI", argumentParser],
      path: "Sources/Features/Brokerage/Commands", swiftSettings: swiftSettings),

    .target(
      name: "WorkspaceRules", dependencies: ["BrokerageRules"], path: "Sources/Features/Workspace/Rules",
      swiftSettings: swiftSettings),
    .target(
      name: "WorkspaceModule",
      dependencies: [
        "DeckCore", "WorkspaceRules", "BrokerageRules", "FlyrAPI", argumentParser,
      ],
      path: "Sources/Features/Workspace/Commands", swiftSettings: swiftSettings),
    .systemLibrary(name: "CQRencode", path: "Sources/Features/Kiosk/CQRencode"),
    .systemLibrary(name: "CZlib", path: "Sources/Features/Kiosk/CZlib"),
    .target(name: "KioskRules", path: "Sources/Features/Kiosk/Rules", swiftSettings: swiftSettings),
    .target(
      name: "KioskModule",
      dependencies: ["DeckCore", "KioskRules", "KioskAPI", "CQRencode", "CZlib", argumentParser],
      path: "Sources/Features/Kiosk/Commands", swiftSettings: swiftSettings),

    .target(name: "MbtiRules", path: "Sources/Features/Mbti/Rules", swiftSettings: swiftSettings),
    .target(
      name: "MbtiModule",
      dependencies: ["DeckCore", "MbtiRules", "NudgeAPI", openAPIRuntime, argumentParser],
      path: "Sources/Features/Mbti/Commands", swiftSettings: swiftSettings),

    // MARK: Heavy modules: the HTTP transport and the sandbox server
    .target(
      name: "DeckHTTPTransport",
      dependencies: [
        "DeckSupport", "DeckConfig", openAPIRuntime,
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOTLS", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      path: "Sources/Shared/DeckHTTPTransport", swiftSettings: swiftSettings),
    .target(
      name: "DeckSandbox",
      dependencies: [
        "AuthAPI", "FlyrAPI", "SandboxAdminAPI", "KioskAPI", "SandboxWorkspaceAPI", "SandboxKioskAPI", "NudgeAPI",
        "SandboxMbtiAPI",
        "BrokerageRules", "WorkspaceRules", "KioskRules", openAPIRuntime,
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
        .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      path: "Sources/Sandbox/DeckSandbox", swiftSettings: swiftSettings),
    .target(
      name: "SandboxModule",
      dependencies: [
        "DeckCore", "SandboxAdminAPI", "SandboxWorkspaceAPI", "SandboxKioskAPI", "SandboxMbtiAPI", openAPIRuntime,
        argumentParser, .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      path: "Sources/Sandbox/SandboxModule", swiftSettings: swiftSettings),

    // MARK: The live providers: what the core's ServiceProviders protocol stands for
    .target(
      name: "DeckLive",
      dependencies: ["DeckCore", "DeckHTTPTransport", "DeckSandbox", openAPIRuntime],
      path: "Sources/Core/DeckLive", swiftSettings: swiftSettings),

    // MARK: The executable
    .executableTarget(
      name: "deck",
      dependencies: [
        "DeckCore", "DeckBuiltins", "DeckREPL", "BrokerageModule", "WorkspaceModule", "KioskModule", "MbtiModule",
        "SandboxModule",
        "DeckLive", argumentParser,
      ],
      path: "Sources/deck", swiftSettings: swiftSettings),

    // MARK: Plugins
    .plugin(
      name: "GenerateCompletions",
      capability: .command(
        intent: .custom(
          verb: "generate-completions", description: "Write deck's bash, zsh and fish completion scripts"),
        permissions: [
          .writeToPackageDirectory(reason: "Writes completions/deck.bash, completions/_deck and completions/deck.fish")
        ]
      ),
      path: "Plugins/GenerateCompletions"),

    // MARK: Tests
    .testTarget(
      name: "DeckCoreTests",
      dependencies: [
        "DeckCore", "DeckREPL", "DeckBuiltins", "DeckSupport", "DeckConfig", "DeckAuth", "DeckNetworking",
        openAPIRuntime,
      ],
      path: "Tests/DeckCoreTests", swiftSettings: swiftSettings),
    .testTarget(
      name: "BrokerageRulesTests", dependencies: ["BrokerageRules"],
      path: "Tests/BrokerageRulesTests", swiftSettings: swiftSettings),
    .testTarget(
      name: "WorkspaceRulesTests", dependencies: ["WorkspaceRules", "BrokerageRules"],
      path: "Tests/WorkspaceRulesTests", swiftSettings: swiftSettings),
    .testTarget(
      name: "KioskRulesTests", dependencies: ["KioskRules"],
      path: "Tests/KioskRulesTests", swiftSettings: swiftSettings),
    .testTarget(
      name: "MbtiRulesTests", dependencies: ["MbtiRules"],
      path: "Tests/MbtiRulesTests", swiftSettings: swiftSettings),
    .testTarget(
      name: "SandboxTests", dependencies: ["DeckSandbox", .product(name: "GRDB", package: "GRDB.swift")],
      path: "Tests/SandboxTests", swiftSettings: swiftSettings),
    .testTarget(
      name: "CommandTests",
      dependencies: ["DeckCore", "DeckLive", "BrokerageModule", "MbtiModule", "DeckBuiltins", argumentParser],
      path: "Tests/CommandTests", swiftSettings: swiftSettings),
    .testTarget(
      name: "EndToEndTests", dependencies: ["deck"],
      path: "Tests/EndToEndTests", swiftSettings: swiftSettings),
  ]
)

// swift-tools-version:6.1
// deck: a terminal client for the FLYR, kiosk, recruiting and nudge backends.
// The layout mirrors the architecture (see docs/ARCHITECTURE.md):
//   Sources/Core       command protocol, registry, context, output, built-in commands
//   Sources/Shared     config, auth tokens, networking (middleware) and the HTTP transport
//   Sources/Contracts  OpenAPI documents; client and sandbox server are generated from them
//   Sources/Features   one folder per product feature: pure spec logic + thin commands
//   Sources/Sandbox    the sandbox server program `deck-sandbox` (Hummingbird + GRDB), and the
//                      `deck sandbox` commands that drive it
//   Sources/deck       the program: registers the modules and runs a line, the REPL or a script
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
]

let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let openAPIRuntime = Target.Dependency.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")
let openAPIGenerator = Target.PluginUsage.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")

/// A target generated from one OpenAPI document (types, client and server stubs).
@MainActor func contract(_ name: String) -> Target {
  .target(
    name: name, dependencies: [openAPIRuntime], path: "Sources/Contracts/\(name)",
    swiftSettings: swiftSettings, plugins: [openAPIGenerator])
}

let jwtKit = Target.Dependency.product(name: "JWTKit", package: "jwt-kit")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")

/// One feature, one folder: `Sources/Features/<name>/Rules` (the spec's logic, pure),
/// `Commands` (its `deck` command tree, a DeckModule) and `Sandbox` (its part of the sandbox
/// server, a SandboxFeature). The targets are `<name>Rules`, `<name>Module` and `<name>Sandbox`.
/// `sandboxPlugins` run on the Sandbox target (EmbedData: the files in `<name>/Data`).
@MainActor func feature(
  _ name: String, rules: [Target.Dependency] = [], commands: [Target.Dependency] = [],
  sandbox: [Target.Dependency] = [], sandboxPlugins: [Target.PluginUsage] = []
) -> [Target] {
  let folder = "Sources/Features/\(name)"
  return [
    .target(name: "\(name)Rules", dependencies: rules, path: "\(folder)/Rules", swiftSettings: swiftSettings),
    .target(
      name: "\(name)Module", dependencies: ["DeckCore", .target(name: "\(name)Rules"), argumentParser] + commands,
      path: "\(folder)/Commands", swiftSettings: swiftSettings),
    .target(
      name: "\(name)Sandbox",
      dependencies: ["SandboxKit", "DeckSupport", .target(name: "\(name)Rules"), grdb, hummingbird, openAPIRuntime]
        + sandbox,
      path: "\(folder)/Sandbox", swiftSettings: swiftSettings, plugins: sandboxPlugins),
  ]
}

/// The features deck is built with, in registry order (Sources/App/Registry.swift).
let features = ["Brokerage", "Workspace", "Kiosk", "Mbti", "Prefs"]

let package = Package(
  name: "deck",
  platforms: [.macOS(.v15)],
  products: [
    // The client. It links no server code (scripts/check-architecture checks its closure).
    .executable(name: "deck", targets: ["deck"]),
    // The sandbox server, which `deck` starts on demand and `deck sandbox serve` runs.
    .executable(name: "deck-sandbox", targets: ["deck-sandbox"]),
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
    .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
    .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
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
      name: "DeckAuth", dependencies: ["DeckSupport"], path: "Sources/Shared/DeckAuth",
      swiftSettings: swiftSettings),
    .target(
      name: "DeckNetworking",
      dependencies: [
        "DeckSupport", "DeckConfig", "DeckAuth", openAPIRuntime,
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      path: "Sources/Shared/DeckNetworking", swiftSettings: swiftSettings),
    // How a sandbox server is started and found: its serve options and its runtime record.
    .target(
      name: "SandboxLaunch", dependencies: ["DeckSupport", "DeckConfig", argumentParser],
      path: "Sources/Shared/SandboxLaunch",
      swiftSettings: swiftSettings),

    // MARK: Core: command protocol, registry, context, output
    // libjq for --jq, linked like readline: a module map, no pkg-config (Debian: libjq-dev).
    .systemLibrary(name: "CJQ", path: "Sources/Core/CJQ"),
    .target(
      name: "DeckCore",
      dependencies: [
        argumentParser, "DeckSupport", "DeckConfig", "DeckAuth", "DeckNetworking", "SandboxLaunch", "AuthAPI",
        openAPIRuntime, "CJQ",
        .product(name: "Yams", package: "Yams"),
      ],
      path: "Sources/Core/DeckCore", swiftSettings: swiftSettings),
    .target(
      name: "DeckBuiltins",
      dependencies: [
        "DeckCore", "DeckREPL", "SandboxLaunch", "AuthAPI", openAPIRuntime, argumentParser,
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
    contract("SandboxAdminAPI"),
    contract("BrokerageAPI"),
    contract("WorkspaceAPI"),
    contract("SandboxWorkspaceAPI"),
    contract("KioskAPI"),
    contract("SandboxKioskAPI"),
    contract("NudgeAPI"),
    contract("SandboxMbtiAPI"),
    contract("RecruitingAPI"),
    contract("SandboxPrefsAPI"),
    contract("GeocoderAPI"),

    // MARK: Features
    .systemLibrary(name: "CQRencode", path: "Sources/Features/Kiosk/CQRencode"),
    .systemLibrary(name: "CZlib", path: "Sources/Features/Kiosk/CZlib"),
  ]
    + feature("Brokerage", commands: ["BrokerageAPI"], sandbox: ["BrokerageAPI"])
    + feature(
      "Workspace", rules: ["BrokerageRules"],
      commands: ["BrokerageRules", "BrokerageAPI", "WorkspaceAPI", "SandboxWorkspaceAPI"],
      sandbox: ["BrokerageRules", "BrokerageSandbox", "WorkspaceAPI", "SandboxWorkspaceAPI"])
    + feature(
      "Kiosk", commands: ["KioskAPI", "SandboxKioskAPI", "CQRencode", "CZlib"],
      sandbox: ["KioskAPI", "SandboxKioskAPI"])
    + feature("Mbti", commands: ["NudgeAPI", "SandboxMbtiAPI"], sandbox: ["NudgeAPI", "SandboxMbtiAPI"])
    + feature(
      "Prefs",
      commands: [
        "RecruitingAPI", "SandboxPrefsAPI", "GeocoderAPI", "DeckAuth", openAPIRuntime,
        .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Yams", package: "Yams"),
      ],
      sandbox: ["RecruitingAPI", "SandboxPrefsAPI", "GeocoderAPI"],
      // Data/zip-centroids.csv, the geocoder's table, compiled in as ZipCentroidsData.csv.
      sandboxPlugins: [.plugin(name: "EmbedData")])
    + [
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
        name: "SandboxKit",
        dependencies: [
          "DeckSupport", "AuthAPI", "SandboxAdminAPI", openAPIRuntime, hummingbird, grdb, jwtKit,
          .product(name: "ExtrasBase64", package: "swift-extras-base64"),
          .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
          .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
          .product(name: "Crypto", package: "swift-crypto"),
          .product(name: "Logging", package: "swift-log"),
          .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
          .product(name: "NIOCore", package: "swift-nio"),
        ],
        path: "Sources/Sandbox/SandboxKit", swiftSettings: swiftSettings),
      .target(
        name: "SandboxModule",
        dependencies: ["DeckCore", "SandboxLaunch", "SandboxAdminAPI", openAPIRuntime, argumentParser],
        path: "Sources/Sandbox/SandboxModule", swiftSettings: swiftSettings),
      // The server program: every feature's part of the sandbox, and `deck-sandbox serve`.
      .target(
        name: "SandboxApp",
        dependencies: ["SandboxKit", "SandboxLaunch", "DeckConfig", "DeckSupport", argumentParser]
          + features.map { .target(name: "\($0)Sandbox") },
        path: "Sources/Sandbox/SandboxApp", swiftSettings: swiftSettings),
      .executableTarget(
        name: "deck-sandbox", dependencies: ["SandboxApp"], path: "Sources/Sandbox/deck-sandbox",
        swiftSettings: swiftSettings),

      // MARK: The live providers: what the core's ServiceProviders protocol stands for
      .target(
        name: "DeckLive", dependencies: ["DeckCore", "DeckHTTPTransport", openAPIRuntime],
        path: "Sources/Core/DeckLive", swiftSettings: swiftSettings),

      // MARK: The application: the registry of modules and the root command; and the executable
      .target(
        name: "DeckApp",
        dependencies: ["DeckCore", "DeckBuiltins", "DeckREPL", "SandboxModule", "DeckLive", argumentParser]
          + features.map { .target(name: "\($0)Module") },
        path: "Sources/App", swiftSettings: swiftSettings),
      .executableTarget(
        name: "deck",
        dependencies: ["DeckApp", "DeckCore", "DeckLive", "DeckREPL", "DeckSupport"],
        path: "Sources/deck", swiftSettings: swiftSettings),

      // MARK: Plugins
      .plugin(
        name: "GenerateCompletions",
        capability: .command(
          intent: .custom(
            verb: "generate-completions", description: "Write deck's bash, zsh and fish completion scripts"),
          permissions: [
            .writeToPackageDirectory(
              reason: "Writes completions/deck.bash, completions/_deck, completions/deck.fish and docs/man/")
          ]
        ),
        path: "Plugins/GenerateCompletions"),
      // Compiles the `*.csv` files in a target's `../Data` folder into it as string constants.
      .plugin(name: "EmbedData", capability: .buildTool(), path: "Plugins/EmbedData"),

      // MARK: Tests
      .testTarget(
        name: "DeckCoreTests",
        dependencies: [
          "DeckCore", "DeckREPL", "DeckBuiltins", "DeckSupport", "DeckConfig", "DeckAuth", "DeckNetworking",
          "SandboxLaunch", openAPIRuntime,
          .product(name: "Yams", package: "Yams"),
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
        name: "PrefsRulesTests", dependencies: ["PrefsRules"],
        path: "Tests/PrefsRulesTests", swiftSettings: swiftSettings),
      .testTarget(
        name: "SandboxTests",
        dependencies: [
          "SandboxApp", "SandboxKit", grdb, .product(name: "ExtrasBase64", package: "swift-extras-base64"),
        ] + features.map { .target(name: "\($0)Sandbox") },
        path: "Tests/SandboxTests", swiftSettings: swiftSettings),
      .testTarget(
        name: "CommandTests",
        dependencies: [
          "DeckApp", "DeckCore", "DeckLive", "BrokerageModule", "MbtiModule", "PrefsModule", "PrefsRules",
          "GeocoderAPI",
          "DeckBuiltins", "SandboxApp", "SandboxKit",
          argumentParser,
          .product(name: "Yams", package: "Yams"),
        ],
        path: "Tests/CommandTests", swiftSettings: swiftSettings),
      .testTarget(
        // The two programs, built before the tests, which run them as a user does.
        name: "EndToEndTests", dependencies: ["deck", "deck-sandbox"],
        path: "Tests/EndToEndTests", swiftSettings: swiftSettings),
    ]
)

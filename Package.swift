// swift-tools-version:6.1
// deck: a terminal client for the FLYR, kiosk, recruiting and nudge backends, and deck-sandbox,
// the server that stands in for them. The folders are the architecture (docs/ARCHITECTURE.md):
// Sources/Client (deck), Sources/Server (deck-sandbox), Sources/Shared (what both link) and
// Sources/Features (one folder per product feature).
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
]

let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")
let yams = Target.Dependency.product(name: "Yams", package: "Yams")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let openAPIRuntime = Target.Dependency.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")
/// The files of a contract that are not Swift: its document and the generator's configuration.
let contractDocuments = ["openapi.yaml", "openapi-generator-config.yaml"]

/// A target generated from one OpenAPI document (types, client and server stubs): the code is in
/// its Generated/ folder, written by scripts/generate-contracts (CI checks it is current). The
/// generator's code is not ours to change: its warnings (public imports that one of its split
/// files does not use, which it silences itself from Swift 6.4 on) are suppressed.
@MainActor func contract(_ name: String, in folder: String = "Sources/Shared/Contracts") -> Target {
  .target(
    name: name, dependencies: [openAPIRuntime, httpTypes], path: "\(folder)/\(name)", exclude: contractDocuments,
    swiftSettings: swiftSettings + [.unsafeFlags(["-suppress-warnings"])])
}

let sqlKit = Target.Dependency.product(name: "SQLKit", package: "sql-kit")
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")

/// A feature is one folder, `Sources/Features/<name>/`, and its tests, `Tests/<name>Tests/`:
///   API/<Contract>/   its OpenAPI documents, one folder each (`contracts`): `Sandbox<...>API` is
///                     its operator contract (under /__sandbox/v1), the others are what its backend serves
///   Rules/            the spec's logic, pure: target `<name>Rules`
///   Commands/         its `deck` command tree, a DeckModule: target `<name>Module`
///   Server/           its part of the sandbox server, a SandboxFeature: target `<name>Server`
///   System/<Module>/  system libraries its commands link, a module map each (`systemLibraries`)
///   Data/             data files its Server target compiles in (`data`; EmbedData: `*.csv`)
/// Its line names these optional parts (a manifest that listed folders would go stale in SwiftPM's
/// cache); scripts/check-architecture fails when a line and its feature's folders disagree.
/// `uses` names the features it builds on: its Rules get their Rules, its Commands their Rules and
/// served contracts, its Server their Rules and Server (the edges docs/ARCHITECTURE.md allows).
struct Feature {
  var name: String
  var uses: [String] = []
  /// Its contracts, the folders of `API/`.
  var contracts: [String] = []
  /// Its system libraries, the folders of `System/`.
  var systemLibraries: [String] = []
  /// Whether its Server target compiles in `Data/*.csv` (by the EmbedData plugin).
  var data = false
  /// Whether it has tests, `Tests/<name>Tests`.
  var tests = false
  var commands: [Target.Dependency] = []
  var server: [Target.Dependency] = []

  var folder: String { "Sources/Features/\(name)" }
  var servedContracts: [String] { contracts.filter { !$0.hasPrefix("Sandbox") } }
}

/// The features deck is built with, in registry order: the one list. The client's and the server's
/// registries (FeatureRegistry plugin), the test targets, schemathesis and the docs derive from it.
let features: [Feature] = [
  Feature(name: "Brokerage", contracts: ["BrokerageAPI"], tests: true),
  Feature(
    name: "Workspace", uses: ["Brokerage"], contracts: ["SandboxWorkspaceAPI", "WorkspaceAPI"], tests: true,
    commands: ["DeckAuth"]),
  Feature(
    name: "Kiosk", contracts: ["KioskAPI", "SandboxKioskAPI"], systemLibraries: ["CQRencode", "CZlib"], tests: true,
    commands: ["DeckNetworking"]),
  Feature(name: "Mbti", contracts: ["NudgeAPI", "SandboxMbtiAPI"], tests: true, commands: [httpTypes]),
  Feature(
    name: "Prefs", contracts: ["GeocoderAPI", "RecruitingAPI", "SandboxPrefsAPI", "StorageAPI"],
    systemLibraries: ["CVips"], data: true, tests: true, commands: ["DeckAuth", httpTypes, "DeckYAML"]),
]

let featureRegistry = Target.PluginUsage.plugin(name: "FeatureRegistry")
let buildCommit = Target.PluginUsage.plugin(name: "BuildCommit")

@MainActor func targets(of feature: Feature) -> [Target] {
  let name = feature.name
  let contracts = feature.contracts.map { Target.Dependency.target(name: $0) }
  let theirRules = feature.uses.map { Target.Dependency.target(name: "\($0)Rules") }
  let theirContracts = features.filter { feature.uses.contains($0.name) }.flatMap(\.servedContracts)
    .map { Target.Dependency.target(name: $0) }
  let theirServers = feature.uses.map { Target.Dependency.target(name: "\($0)Server") }
  let rules = Target.Dependency.target(name: "\(name)Rules")
  var all: [Target] = feature.contracts.map { contract($0, in: "\(feature.folder)/API") }
  all += feature.systemLibraries.map { .systemLibrary(name: $0, path: "\(feature.folder)/System/\($0)") }
  all += [
    .target(
      name: "\(name)Rules", dependencies: ["DeckValues"] + theirRules, path: "\(feature.folder)/Rules",
      swiftSettings: swiftSettings),
    .target(
      name: "\(name)Module",
      dependencies: ["DeckCore", "DeckSupport", "DeckValues", "DeckConfig", rules, argumentParser, openAPIRuntime]
        + contracts
        + theirRules + theirContracts + feature.systemLibraries.map { .target(name: $0) } + feature.commands,
      path: "\(feature.folder)/Commands", swiftSettings: swiftSettings),
    .target(
      name: "\(name)Server",
      dependencies: ["SandboxKit", "DeckSupport", "DeckValues", rules, sqlKit, hummingbird, openAPIRuntime] + contracts
        + theirRules + theirServers + feature.server,
      path: "\(feature.folder)/Server", swiftSettings: swiftSettings,
      plugins: feature.data ? [.plugin(name: "EmbedData")] : []),
  ]
  if feature.tests {
    // Every layer's tests in one target: Rules/, Commands/, Sandbox/ (over HTTP) and EndToEnd/.
    all.append(
      .testTarget(
        name: "\(name)Tests",
        dependencies: [
          rules, .target(name: "\(name)Module"), .target(name: "\(name)Server"), "TestSupport", "SandboxApp",
          "DeckValues", "DeckCore",
          "SandboxKit", "deck", "deck-sandbox", sqlKit, hummingbird, openAPIRuntime, httpTypes, argumentParser,
          .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
        ] + contracts + theirRules,
        path: "Tests/\(name)Tests", swiftSettings: swiftSettings))
  }
  return all
}

let package = Package(
  name: "deck",
  platforms: [.macOS(.v15)],
  products: [
    // The client, which links no server code (scripts/check-architecture checks its closure).
    .executable(name: "deck", targets: ["deck"]),
    .executable(name: "deck-sandbox", targets: ["deck-sandbox"]),  // the sandbox server
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
    .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
    // No FullFoundation: the client links FoundationEssentials only (no ICU).
    .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4", traits: []),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
    .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
    .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
    .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
  ],
  targets: [
    // MARK: Shared modules: what both programs link (no NIO, no SQL), and the client's services
    // Pure values and their text (JSON string quoting, HTML/XML escaping): no I/O, so Rules may use it.
    .target(name: "DeckValues", path: "Sources/Shared/DeckValues", swiftSettings: swiftSettings),
    .target(
      name: "DeckSupport", dependencies: ["DeckValues"], path: "Sources/Shared/DeckSupport",
      swiftSettings: swiftSettings),
    // YAML: libyaml's parser (Debian: libyaml-dev) under a tree of deck's own, and a writer.
    .systemLibrary(name: "CYAML", path: "Sources/Shared/CYAML"),
    .target(name: "DeckYAML", dependencies: ["CYAML"], path: "Sources/Shared/DeckYAML", swiftSettings: swiftSettings),
    .target(
      name: "DeckConfig", dependencies: ["DeckYAML", "DeckSupport"], path: "Sources/Client/Services/DeckConfig",
      swiftSettings: swiftSettings),
    .target(
      name: "DeckAuth", dependencies: ["DeckSupport"], path: "Sources/Client/Services/DeckAuth",
      swiftSettings: swiftSettings),
    .target(
      name: "DeckNetworking",
      dependencies: [
        "DeckSupport", "DeckConfig", "DeckAuth", openAPIRuntime,
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      path: "Sources/Client/Services/DeckNetworking", swiftSettings: swiftSettings),
    // How a sandbox server is started and found: its serve options and its runtime record.
    .target(
      name: "SandboxLaunch", dependencies: ["DeckSupport", argumentParser],
      path: "Sources/Shared/SandboxLaunch",
      swiftSettings: swiftSettings),
    // `deck contract check`'s pure part: the documents' operations (YAML trees) and the check of
    // a response against them, with its own JSON Schema validator.
    .target(
      name: "ContractCheck", dependencies: ["DeckYAML", "DeckSupport", "DeckValues"],
      path: "Sources/Client/Services/ContractCheck", swiftSettings: swiftSettings),

    // MARK: Core: command protocol, registry, context, output
    // libjq for --jq, linked like readline: a module map, no pkg-config (Debian: libjq-dev).
    .systemLibrary(name: "CJQ", path: "Sources/Client/Kernel/CJQ"),
    .systemLibrary(name: "CSQLite3", path: "Sources/Server/CSQLite3"),
    .target(
      name: "DeckCore",
      dependencies: [
        argumentParser, "DeckSupport", "DeckValues", "DeckConfig", "DeckAuth", "DeckNetworking", "SandboxLaunch",
        "AuthAPI", openAPIRuntime, "CJQ", httpTypes, "DeckYAML",
      ],
      path: "Sources/Client/Kernel/DeckCore", swiftSettings: swiftSettings),
    .target(
      name: "DeckBuiltins",
      dependencies: [
        "DeckCore", "DeckREPL", "SandboxLaunch", "AuthAPI", "SandboxAdminAPI", "DeckSupport", "DeckConfig", "DeckAuth",
        "DeckNetworking", openAPIRuntime, argumentParser, httpTypes,
      ],
      path: "Sources/Client/Modules/DeckBuiltins", swiftSettings: swiftSettings),
    // `deck contract`: every contract's read-only operations against an environment. The
    // documents are embedded at build time (EmbedContracts), so it names no feature.
    .target(
      name: "DeckContract",
      dependencies: [
        "DeckCore", "ContractCheck", "DeckSupport", "DeckValues", "DeckConfig", "DeckNetworking", openAPIRuntime,
        argumentParser, httpTypes, "DeckYAML",
      ],
      path: "Sources/Client/Modules/DeckContract", swiftSettings: swiftSettings,
      plugins: [.plugin(name: "EmbedContracts")]),
    // `deck qa`: the specs' checklists as scenarios of deck lines. The shipped scenarios
    // (Sources/Features/<name>/QA) are embedded at build time (EmbedScenarios).
    .target(
      name: "DeckQA",
      dependencies: [
        "DeckCore", "DeckSupport", "DeckValues", "DeckConfig", "DeckNetworking", argumentParser, "DeckYAML",
      ],
      path: "Sources/Client/Modules/DeckQA", swiftSettings: swiftSettings, plugins: [.plugin(name: "EmbedScenarios")]),

    // MARK: The interactive shell: REPL on GNU readline, script mode, completion, plugins
    .systemLibrary(name: "CReadline", path: "Sources/Client/Kernel/CReadline"),
    .target(
      name: "DeckREPL",
      dependencies: ["DeckCore", "DeckSupport", "DeckConfig", "DeckAuth", "CReadline", argumentParser],
      path: "Sources/Client/Kernel/DeckREPL", swiftSettings: swiftSettings),

    // MARK: The core's contracts (OpenAPI documents); each feature's are in its folder's API/
    contract("AuthAPI"),
    contract("SandboxAdminAPI"),
  ]
    // MARK: Features
    + features.flatMap(targets(of:))
    + [
      // MARK: Heavy modules: the HTTP transport and the sandbox server
      .target(
        name: "DeckHTTPTransport",
        dependencies: [
          "DeckSupport", "DeckConfig", openAPIRuntime, httpTypes,
          .product(name: "AsyncHTTPClient", package: "async-http-client"),
          .product(name: "NIOCore", package: "swift-nio"),
          .product(name: "NIOHTTP1", package: "swift-nio"),
          .product(name: "NIOPosix", package: "swift-nio"),
          .product(name: "NIOTLS", package: "swift-nio"),
          .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ],
        path: "Sources/Client/Services/DeckHTTPTransport", swiftSettings: swiftSettings),
      .target(
        name: "SandboxKit",
        dependencies: [
          "DeckSupport", "DeckValues", "AuthAPI", "SandboxAdminAPI", "CSQLite3", openAPIRuntime, httpTypes,
          hummingbird, sqlKit,
          .product(name: "PostgresKit", package: "postgres-kit"),
          .product(name: "NIOSSL", package: "swift-nio-ssl"),
          .product(name: "ExtrasBase64", package: "swift-extras-base64"),
          .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
          .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
          .product(name: "Crypto", package: "swift-crypto"),
          .product(name: "Logging", package: "swift-log"),
          .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
          .product(name: "NIOCore", package: "swift-nio"),
          .product(name: "NIOPosix", package: "swift-nio"),
        ],
        path: "Sources/Server/SandboxKit", swiftSettings: swiftSettings),
      .target(
        name: "SandboxModule",
        dependencies: [
          "DeckCore", "DeckContract", "DeckSupport", "DeckConfig", "SandboxLaunch", "SandboxAdminAPI", openAPIRuntime,
          argumentParser, httpTypes,
        ],
        path: "Sources/Client/Modules/SandboxModule", swiftSettings: swiftSettings),
      // The server program: every feature's part of the sandbox, and `deck-sandbox serve`.
      .target(
        name: "SandboxApp",
        dependencies: ["SandboxKit", "SandboxLaunch", "DeckSupport", argumentParser]
          + features.map { .target(name: "\($0.name)Server") },
        path: "Sources/Server/SandboxApp", swiftSettings: swiftSettings, plugins: [featureRegistry, buildCommit]),
      .executableTarget(
        name: "deck-sandbox", dependencies: ["SandboxApp"], path: "Sources/Server/deck-sandbox",
        swiftSettings: swiftSettings),

      // MARK: The live providers: what the core's ServiceProviders protocol stands for
      .target(
        name: "DeckLive", dependencies: ["DeckCore", "DeckHTTPTransport", openAPIRuntime],
        path: "Sources/Client/Kernel/DeckLive", swiftSettings: swiftSettings),

      // MARK: The application: the registry of modules and the root command; and the executable
      .target(
        name: "DeckApp",
        dependencies: [
          "DeckCore", "DeckBuiltins", "DeckContract", "DeckQA", "DeckREPL", "SandboxModule", "DeckLive", "DeckSupport",
          argumentParser,
        ]
          + features.map { .target(name: "\($0.name)Module") },
        path: "Sources/Client/App", swiftSettings: swiftSettings, plugins: [featureRegistry, buildCommit]),
      .executableTarget(
        name: "deck",
        dependencies: ["DeckApp", "DeckCore", "DeckLive", "DeckREPL", "DeckSupport"],
        path: "Sources/Client/deck", swiftSettings: swiftSettings),

      // MARK: Plugins
      // Writes the client's and the server's registries from the `features` list above.
      .plugin(name: "FeatureRegistry", capability: .buildTool(), path: "Plugins/FeatureRegistry"),
      // Compiles the `*.csv` files in a feature's Data folder into its Server target as strings.
      .plugin(name: "EmbedData", capability: .buildTool(), path: "Plugins/EmbedData"),
      .plugin(name: "EmbedContracts", capability: .buildTool(), path: "Plugins/EmbedContracts"),
      .plugin(name: "EmbedScenarios", capability: .buildTool(), path: "Plugins/EmbedScenarios"),
      // Writes the git commit a program is built from into DeckApp and SandboxApp (`--version`).
      .plugin(name: "BuildCommit", capability: .buildTool(), path: "Plugins/BuildCommit"),

      // MARK: Tests: the core's here, each feature's in its own Tests/<name>Tests (above)
      // What tests share: the in-process deck, the sandbox over HTTP, the programs on a pty, and
      // the fixture feature the core's tests drive (Fixture/: a command and its server part).
      .target(
        name: "TestSupport",
        dependencies: [
          "DeckApp", "DeckCore", "DeckLive", "DeckBuiltins", "SandboxApp", "SandboxKit", "DeckSupport", "DeckConfig",
          "DeckNetworking", "BrokerageServer", argumentParser, sqlKit, hummingbird, openAPIRuntime, httpTypes,
          .product(name: "NIOCore", package: "swift-nio"),
        ],
        path: "Tests/Support", swiftSettings: swiftSettings),
      // The unit tests, one target per library target. What they share (a temporary directory,
      // the features' services as fixtures) is TestFixtures: it links no server and no feature.
      .target(name: "TestFixtures", dependencies: ["DeckConfig"], path: "Tests/Fixtures", swiftSettings: swiftSettings),
      .testTarget(
        name: "DeckSupportTests", dependencies: ["DeckSupport", "DeckValues", "TestFixtures"],
        path: "Tests/DeckSupportTests",
        swiftSettings: swiftSettings),
      .testTarget(
        name: "DeckConfigTests", dependencies: ["DeckConfig", "DeckAuth", "DeckSupport", "TestFixtures"],
        path: "Tests/DeckConfigTests", swiftSettings: swiftSettings),
      .testTarget(
        name: "DeckAuthTests", dependencies: ["DeckAuth", "DeckSupport", "TestFixtures"], path: "Tests/DeckAuthTests",
        swiftSettings: swiftSettings),
      .testTarget(
        name: "DeckNetworkingTests",
        dependencies: ["DeckNetworking", "DeckConfig", "DeckSupport", "TestFixtures", openAPIRuntime, httpTypes],
        path: "Tests/DeckNetworkingTests", swiftSettings: swiftSettings),
      .testTarget(
        name: "DeckCoreTests",
        dependencies: [
          "DeckCore", "DeckSupport", "DeckNetworking", "SandboxLaunch", "TestFixtures", "DeckValues", openAPIRuntime,
          yams, httpTypes,
          argumentParser,
        ],
        path: "Tests/DeckCoreTests", swiftSettings: swiftSettings),
      .testTarget(
        name: "DeckREPLTests", dependencies: ["DeckREPL", "DeckCore", "DeckSupport", "TestFixtures", argumentParser],
        path: "Tests/DeckREPLTests", swiftSettings: swiftSettings),
      .testTarget(
        name: "DeckBuiltinsTests",
        dependencies: [
          "DeckBuiltins", "DeckCore", "DeckSupport", "DeckConfig", "DeckAuth", "SandboxLaunch", "SandboxAdminAPI",
          "TestFixtures",
        ],
        path: "Tests/DeckBuiltinsTests", swiftSettings: swiftSettings),
      .testTarget(
        name: "QATests", dependencies: ["DeckQA", "DeckApp", "DeckConfig", "DeckCore", "DeckSupport"],
        path: "Tests/QATests", exclude: ["junit.xsd"], swiftSettings: swiftSettings),
      .testTarget(
        name: "DeckValuesTests", dependencies: ["DeckValues", "DeckSupport"], path: "Tests/DeckValuesTests",
        swiftSettings: swiftSettings),
      .testTarget(
        name: "DeckYAMLTests", dependencies: ["DeckYAML", yams], path: "Tests/DeckYAMLTests",
        swiftSettings: swiftSettings),
      .testTarget(
        name: "ContractCheckTests",
        dependencies: ["ContractCheck", "DeckValues", .product(name: "OpenAPIKit", package: "OpenAPIKit"), yams],
        path: "Tests/ContractCheckTests",
        swiftSettings: swiftSettings),
      .testTarget(
        name: "SandboxTests",
        dependencies: [
          "TestSupport", "SandboxApp", "SandboxKit", "DeckSupport", sqlKit, hummingbird,
          .product(name: "ExtrasBase64", package: "swift-extras-base64"),
          .product(name: "Crypto", package: "swift-crypto"),
          .product(name: "SQLKitBenchmark", package: "sql-kit"),
        ],
        path: "Tests/SandboxTests", swiftSettings: swiftSettings),
      .testTarget(
        name: "CommandTests",
        dependencies: [
          "TestSupport", "DeckApp", "DeckCore", "DeckConfig", "DeckSupport", "DeckLive", "DeckHTTPTransport",
          "DeckBuiltins", openAPIRuntime, httpTypes,
          "SandboxApp", "SandboxKit",
          argumentParser, yams,
        ],
        path: "Tests/CommandTests", swiftSettings: swiftSettings),
      .testTarget(
        // The two programs, built before the tests, which run them as a user does.
        name: "EndToEndTests",
        dependencies: ["TestSupport", "deck", "deck-sandbox", "SandboxApp", "SandboxKit", "DeckSupport", sqlKit],
        path: "Tests/EndToEndTests", swiftSettings: swiftSettings),
    ]
)

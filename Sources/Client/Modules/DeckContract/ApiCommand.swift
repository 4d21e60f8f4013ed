import ArgumentParser
import ContractCheck
import DeckConfig
import DeckCore
import DeckNetworking
import DeckSupport
import DeckValues
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime

/// `deck api`: one raw request to a service of the environment, with its URL and (where the
/// token policy allows) the signed-in account's token, as `gh api` sends one to GitHub.
struct ApiCommand: DeckCommand, NamingFiles {
  static let files = FileArguments(reads: ["--input"], readsFields: ["-F", "--field"])

  static let exits: [ExitDoc] = [
    .failure("the service answered 404, a redirect or another status the codes below do not cover"),
    .usage("a bad option, path or field; or a path no contract, or more than one, has (nothing was sent)"),
    .rejected("the service answered 400, 409 or 422"),
    .unavailable("the service could not be reached, or answered 429 or 5xx"),
    .unauthorized("the service answered 401 or 403"),
  ]

  static let configuration = CommandConfiguration(
    commandName: "api", _superCommandName: "deck",
    abstract: "Send one request to a service of the environment and print the answer.",
    discussion: HelpText.discussion(
      """
      The escape hatch for what no command does, and for testing a backend without deck's \
      client in between: the path goes to the service's URL in the environment (--env), never \
      to another host, and the signed-in account's token goes with it where the token policy \
      allows (the origins it was stored for; never to the geocoder).

      The service is --service, or the one whose contract has the path (`deck contract list`; \
      a path in none, or in two, asks for --service).

      -f key=value adds a string field, -F key=value a typed one (true, false, null and \
      numbers as JSON; @FILE a file's text, @- stdin's). The fields are a JSON body, or the \
      query for GET and HEAD; with --input FILE (- for stdin) the body is the file and the \
      fields go to the query. The method is GET, or POST with fields or --input; -X sets it.

      The body is printed as it came; --jq, --json and --format read it as JSON. --include \
      prints the status and headers first (cookies and tokens masked). A status of 300 or \
      more prints the body too, and exits with the code below.

        $ deck api /api/access/state
        $ deck api /api/invites/accept -f token=abc -f email=' Mixed@Case.test '
        $ deck api --service flyr /api/brokerages/search -X GET -f q=keller --jq '.[].name'
      """, exits: exits))

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: ArgumentHelp("The path, e.g. /api/access/state (a query may follow ?).", valueName: "path"),
    completion: ApiCompletion.paths)
  var path: String

  @Option(
    name: .customLong("service"),
    help: ArgumentHelp("The service (default: the one whose contract has the path).", valueName: "name"),
    completion: ApiCompletion.services)
  var service: String?

  @Option(
    name: [.customShort("X"), .customLong("method")],
    help: ArgumentHelp("The method (default GET, or POST with fields or --input).", valueName: "method"))
  var method: String?

  @Option(
    name: [.customShort("f"), .customLong("raw-field")],
    help: ArgumentHelp("A string field (repeatable).", valueName: "key=value"))
  var rawFields: [String] = []

  @Option(
    name: [.customShort("F"), .customLong("field")],
    help: ArgumentHelp("A typed field: true, false, null, a number, @FILE (repeatable).", valueName: "key=value"))
  var fields: [String] = []

  @Option(help: ArgumentHelp("The body, from a file (- for stdin).", valueName: "file"), completion: .file())
  var input: String?

  @Option(
    name: [.customShort("H"), .customLong("header")],
    help: ArgumentHelp("A request header (repeatable).", valueName: "Name: value"))
  var headers: [String] = []

  @Flag(name: [.customShort("i"), .customLong("include")], help: "Print the status and the headers before the body.")
  var include = false

  func validate() throws {
    if let method,
      method.isEmpty || !method.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0 & ~0x20) })
    {
      throw ValidationError("-X takes a method of letters (GET, POST, PUT, PATCH, DELETE, …), got \"\(method)\".")
    }
  }

  func run(_ context: DeckContext) async throws {
    let catalog = try ContractCatalog.embedded()
    var target = try ApiRequest.path(path)
    let service = try self.service.map(Self.service(named:)) ?? catalog.service(forPath: target)
    let read = { (file: String) in
      String(
        decoding: try InputFile.read(file, what: "the field's file", hint: "Give a file deck can read."), as: UTF8.self)
    }
    let fields = try rawFields.map(ApiRequest.rawField) + self.fields.map { try ApiRequest.typedField($0, read: read) }
    let method = method?.uppercased() ?? (fields.isEmpty && input == nil ? "GET" : "POST")
    var body: [UInt8]?
    if let input {
      body = Array(try InputFile.read(input, what: "the request body", hint: "Give a file, or - for stdin."))
    }
    if !fields.isEmpty {
      if body == nil, method != "GET", method != "HEAD" {
        body = Array(ApiRequest.body(fields).jsonText.utf8)
      } else {
        target += (target.contains("?") ? "&" : "?") + ApiRequest.query(fields)
      }
    }
    var headerFields = HTTPFields()
    for header in try headers.map(ApiRequest.header) {
      guard let name = HTTPField.Name(header.name) else { continue }
      headerFields.append(HTTPField(name: name, value: header.value))
    }
    if body != nil, headerFields[.contentType] == nil { headerFields[.contentType] = "application/json" }
    let request = HTTPRequest(
      method: HTTPRequest.Method(method) ?? .get, scheme: nil, authority: nil, path: target, headerFields: headerFields)

    // The token goes where the policy lets it, when someone is signed in and the request
    // carries no Authorization of its own.
    let auth: AuthUse =
      try headerFields[.authorization] == nil && service.sendsToken && signedIn(context) ? .required : .none
    let client = try await context.client(service, auth: auth) { url, transport, middlewares in
      RawClient(
        serverURL: url, transport: transport,
        middlewares: middlewares.filter { !($0 is RetryMiddleware) && !($0 is ErrorMappingMiddleware) })
    }
    let response = try await client.send(request, body: body.map { HTTPBody($0) }, operationID: "deck api")
    try show(response, output: context.output)
    if response.status >= 300 {
      throw HTTPErrorMapping.error(
        status: response.status, body: Data(response.body), service: service.rawValue,
        location: response.header("location"))
    }
  }

  /// The service named by --service, or a usage error listing the known ones.
  static func service(named name: String) throws -> Service {
    guard let service = Service(rawValue: name) else {
      throw DeckError.usage(
        "No service is named \"\(TerminalText.sanitize(name))\".",
        hint: "Services: \(Service.allCases.map(\.rawValue).joined(separator: ", ")).")
    }
    return service
  }

  /// Whether a token is there to send: `DECK_TOKEN`, or the environment's active account.
  func signedIn(_ context: DeckContext) throws -> Bool {
    if let token = context.session.processEnvironment["DECK_TOKEN"], !token.isEmpty { return true }
    return try context.tokenStore.accounts(in: context.environment().name).activeSession != nil
  }

  /// The answer: with --include its status and headers (secrets masked), then the body as it
  /// came (on a terminal without control characters), or read as JSON for --jq and --format.
  func show(_ response: ContractResponse, output: Output) throws {
    if include {
      var text = "HTTP \(response.status)\n"
      for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
        text += "\(name): \(Redactor.redact(header: name, value: value))\n"
      }
      output.writeOut(TerminalText.sanitize(text, keepNewlines: true) + "\n")
    }
    guard !response.body.isEmpty else { return }
    if !output.isHuman {
      if let json = try? JSONDecoder().decode(JSONValue.self, from: Data(response.body)) {
        return try output.emit(json) {}
      }
      guard response.status >= 300 else {
        throw DeckError.failure(
          "The answer is not JSON (\(response.header("content-type") ?? "no content type")), so --jq and --format cannot read it.",
          hint: "Drop --jq and --format to see it as it came.")
      }
    }
    let text = String(decoding: response.body, as: UTF8.self)
    let shown = output.stdoutIsTerminal ? TerminalText.sanitize(text, keepNewlines: true) : text
    output.writeOut(shown.hasSuffix("\n") ? shown : shown + "\n")
  }
}

/// Completion of `deck api`: the services, and the contracts' paths.
enum ApiCompletion {
  static let services = CompletionKind.custom { _, _, prefix in
    Service.allCases.map(\.rawValue).filter { $0.hasPrefix(prefix) }
  }

  static let paths = CompletionKind.custom { _, _, prefix in
    ((try? ContractCatalog.embedded())?.paths ?? []).filter { $0.hasPrefix(prefix) }
  }
}

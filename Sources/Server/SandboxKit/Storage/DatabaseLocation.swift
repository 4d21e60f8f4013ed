import Foundation

/// Where the sandbox keeps its data, from `--database` / `DECK_SANDBOX_DATABASE`: a SQLite file
/// (a path, or `sqlite:PATH`), or a PostgreSQL database (`postgres://…` or `postgresql://…`,
/// libpq's URI form).
package enum DatabaseLocation: Sendable, Equatable {
  case sqlite(path: String)
  case postgres(PostgresLocation)

  /// Parses what the user gave. `environment` supplies `PGPASSWORD`, `PGPASSFILE` and `HOME`
  /// (for `~/.pgpass`), as libpq reads them.
  package static func parse(_ text: String, environment: [String: String] = [:]) throws(DatabaseLocationError)
    -> DatabaseLocation
  {
    let lowered = text.lowercased()
    if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
      return .postgres(try PostgresLocation.parse(text, environment: environment))
    }
    if lowered.hasPrefix("sqlite:") {
      var path = String(text.dropFirst("sqlite:".count))
      if path.hasPrefix("//") { path.removeFirst(2) }
      guard !path.isEmpty else {
        throw .invalid(text, "sqlite: needs a file path, e.g. sqlite:/var/lib/deck/sandbox.sqlite")
      }
      return .sqlite(path: path)
    }
    if lowered.contains("://") {
      throw .invalid(
        Self.redacted(text), "the scheme is not one the sandbox knows: use a file path, sqlite:PATH or postgres://…")
    }
    guard !text.isEmpty else { throw .invalid(text, "the database is empty: give a file path or a postgres:// URL") }
    return .sqlite(path: text)
  }

  /// What to show of the location: the path, or the URL without its password.
  package var description: String {
    switch self {
    case .sqlite(let path): path
    case .postgres(let location): location.description
    }
  }

  /// A user's text with any password of a URL in it replaced (for messages about it).
  static func redacted(_ text: String) -> String {
    guard var components = URLComponents(string: text), components.password != nil else { return text }
    components.password = "***"
    return components.string ?? text
  }
}

/// A PostgreSQL database to connect to. Its ``description`` never holds the password.
package struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
  /// libpq's `sslmode`, as libpq spells it.
  package enum SSLMode: String, Sendable, CaseIterable {
    case disable, allow, prefer, require
    case verifyCA = "verify-ca"
    case verifyFull = "verify-full"
  }

  package var host: String
  package var port: Int
  package var user: String
  package var password: String?
  package var database: String
  package var sslMode: SSLMode
  /// `sslrootcert`: the CA certificates (PEM) that verify the server, for verify-ca/verify-full.
  package var rootCertificate: String?
  /// Where the password came from (for messages: never the password itself).
  package var passwordSource: String?

  package var description: String {
    var components = URLComponents()
    components.scheme = "postgres"
    components.user = user
    components.host = host.contains(":") ? "[\(host)]" : host
    components.port = port
    components.path = "/" + database
    components.queryItems = [URLQueryItem(name: "sslmode", value: sslMode.rawValue)]
    return components.string ?? "postgres://\(host):\(port)/\(database)"
  }

  static func parse(_ text: String, environment: [String: String]) throws(DatabaseLocationError) -> PostgresLocation {
    let shown = DatabaseLocation.redacted(text)
    guard let components = URLComponents(string: text) else {
      throw .invalid(shown, "not a valid URL; the form is postgres://USER@HOST:PORT/DATABASE?sslmode=require")
    }
    guard let host = components.host, !host.isEmpty else {
      throw .invalid(shown, "no host; the form is postgres://USER@HOST:PORT/DATABASE")
    }
    let port = components.port ?? 5432
    guard (1...65535).contains(port) else { throw .invalid(shown, "the port must be between 1 and 65535") }
    let user = components.user.flatMap { $0.removingPercentEncoding } ?? environment["PGUSER"] ?? environment["USER"]
    guard let user, !user.isEmpty else { throw .invalid(shown, "no user; the form is postgres://USER@HOST/DATABASE") }
    var path = components.path
    if path.hasPrefix("/") { path.removeFirst() }
    let database = path.removingPercentEncoding ?? path
    guard !database.isEmpty else {
      throw .invalid(shown, "no database name; the form is postgres://USER@HOST/DATABASE")
    }

    let query = components.queryItems ?? []
    let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    var location = PostgresLocation(
      host: bareHost, port: port, user: user, password: nil, database: database, sslMode: .require,
      rootCertificate: nil, passwordSource: nil)
    for item in query {
      switch item.name {
      case "sslmode":
        guard let value = item.value, let mode = SSLMode(rawValue: value) else {
          let modes = SSLMode.allCases.map(\.rawValue).joined(separator: ", ")
          throw .invalid(shown, "sslmode must be one of \(modes)")
        }
        location.sslMode = mode
      case "sslrootcert":
        location.rootCertificate = item.value
      case "application_name", "connect_timeout":
        continue
      default:
        throw .invalid(shown, "the parameter \(item.name) is not supported (sslmode and sslrootcert are)")
      }
    }
    if let password = components.password {
      location.password = password.removingPercentEncoding ?? password
      location.passwordSource = "the URL"
    } else if let password = environment["PGPASSWORD"] {
      location.password = password
      location.passwordSource = "PGPASSWORD"
    } else if let file = PGPass.path(environment: environment),
      let password = PGPass.password(file: file, host: bareHost, port: port, database: database, user: user)
    {
      location.password = password
      location.passwordSource = file
    }
    return location
  }
}

/// `~/.pgpass` (or `PGPASSFILE`): lines of `host:port:database:user:password`, `*` matching
/// anything, `\:` and `\\` escaped; the first matching line wins. As libpq does, a file that
/// others can read is ignored.
package enum PGPass {
  static func path(environment: [String: String]) -> String? {
    if let file = environment["PGPASSFILE"] { return file }
    guard let home = environment["HOME"] else { return nil }
    return home + "/.pgpass"
  }

  package static func password(file path: String, host: String, port: Int, database: String, user: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o077 == 0,
      let data = FileManager.default.contents(atPath: path)
    else { return nil }
    return password(in: String(decoding: data, as: UTF8.self), host: host, port: port, database: database, user: user)
  }

  package static func password(in text: String, host: String, port: Int, database: String, user: String) -> String? {
    let wanted = [host, String(port), database, user]
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      let line = line.hasSuffix("\r") ? line.dropLast() : line
      if line.hasPrefix("#") { continue }
      let fields = split(line)
      guard fields.count == 5 else { continue }
      let matches = zip(fields, wanted).allSatisfy { field, value in field == "*" || field == value }
      if matches { return fields[4] }
    }
    return nil
  }

  /// The fields of a line: split at unescaped colons, escapes removed.
  static func split(_ line: Substring) -> [String] {
    var fields: [String] = []
    var current = ""
    var escaped = false
    for character in line {
      if escaped {
        current.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == ":" {
        fields.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    fields.append(current)
    return fields
  }
}

package enum DatabaseLocationError: Error, Equatable, CustomStringConvertible {
  case invalid(String, String)

  package var description: String {
    switch self {
    case .invalid(let text, let reason): "Cannot use the database \"\(text)\": \(reason)."
    }
  }
}

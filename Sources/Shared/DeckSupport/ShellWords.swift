/// Splits a line into words the way a POSIX shell does: 'single' and "double" quotes,
/// backslash escapes, and `#` comments. Used by the REPL, script mode and completion.
public enum ShellWords {
  public enum Split: Equatable, Sendable {
    case words([String])
    /// An unclosed quote or a trailing backslash: the line continues on the next one.
    case incomplete
  }

  public static func split(_ line: String) -> Split {
    let scan = scan(line)
    return scan.openQuote != nil || scan.trailingEscape ? .incomplete : .words(scan.words)
  }

  /// Why a line's variables cannot be expanded (script mode).
  public enum ExpansionError: Error, Equatable, Sendable {
    /// `$NAME` or `${NAME}` names no variable.
    case undefined(String)
    /// A `${` without its `}`, or with something in it that is no name.
    case badSubstitution(String)

    public var message: String {
      switch self {
      case .undefined(let name): "$\(name) is not defined. Define it first with: let \(name) = COMMAND"
      case .badSubstitution(let text): "bad substitution: ${\(text)"
      }
    }
  }

  /// Splits a complete command as `split` does, replacing `$NAME` and `${NAME}` by the
  /// variable's value: unquoted and in double quotes, never in single quotes or after a
  /// backslash (`\$`). A value is never split into words or scanned again: `$sid` is one word,
  /// as `"$sid"` is. A `$` that starts no name (`$`, `$1`, `$.`) stays a `$`. Script mode's
  /// `let` variables; the REPL expands nothing.
  public static func expand(_ text: String, variables: [String: String]) throws(ExpansionError) -> [String] {
    var scanner = Scanner()
    scanner.variables = variables
    scanner.consume(text)
    scanner.endReference(closed: false)
    if let error = scanner.expansionError { throw error }
    return scanner.state.words
  }

  /// The state at the end of a partial line, for completion: the finished words, the word
  /// being typed (unquoted), and the quote it was opened with, if any.
  public struct Partial: Equatable, Sendable {
    public var words: [String]
    public var current: String
    public var openQuote: Character?
  }

  public static func partial(_ line: String) -> Partial {
    let scan = scan(line)
    var words = scan.words
    var current = ""
    if scan.inWord, let last = words.popLast() { current = last }
    return Partial(words: words, current: current, openQuote: scan.openQuote)
  }

  /// Whether `word` can name a variable (`let NAME = …`): a letter or `_`, then letters,
  /// digits and `_`.
  public static func isVariableName(_ word: String) -> Bool {
    guard let first = word.unicodeScalars.first, Scanner.isNameCharacter(first, first: true) else { return false }
    return word.unicodeScalars.allSatisfy { Scanner.isNameCharacter($0, first: false) }
  }

  /// Quotes a word so that `split` gives it back unchanged. Works on code points, as the
  /// scanner does (a quote or backslash inside a grapheme cluster still counts).
  public static func quote(_ word: String) -> String {
    let scalars = word.unicodeScalars
    let safe =
      !scalars.isEmpty
      && scalars.allSatisfy {
        $0.properties.isAlphabetic || $0.properties.numericType != nil || "-_./:=@,+%".unicodeScalars.contains($0)
      }
    if safe { return word }
    if !scalars.contains(where: { "\"\\$`".unicodeScalars.contains($0) }) { return "\"\(word)\"" }
    var quoted = String.UnicodeScalarView()
    quoted.append("'")
    for scalar in scalars {
      if scalar == "'" { quoted.append(contentsOf: "'\\''".unicodeScalars) } else { quoted.append(scalar) }
    }
    quoted.append("'")
    return String(quoted)
  }

  struct Scan {
    var words: [String] = []
    var openQuote: Character?
    var trailingEscape = false
    /// The line ends inside a word (no whitespace after it).
    var inWord = false
  }

  static func scan(_ line: String) -> Scan {
    var scanner = Scanner()
    scanner.consume(line)
    return scanner.state
  }

  /// The splitter's state machine. It consumes text in pieces and keeps its state between
  /// them, so a command that continues over many lines is scanned once (never re-scanned
  /// from its start for every new line). Like a shell it works on code points, not on
  /// grapheme clusters: a quote followed by a combining mark is still a quote.
  struct Scanner {
    private(set) var words: [String] = []
    private var word = String.UnicodeScalarView()
    private var inWord = false
    private(set) var quote: Unicode.Scalar?
    private var escape = false
    private var inComment = false
    /// Script mode's variables; nil (the REPL, completion) keeps `$` an ordinary character.
    var variables: [String: String]?
    /// The first reference that could not be expanded.
    private(set) var expansionError: ExpansionError?
    /// The `$NAME` or `${NAME}` being read, if any.
    private var reference: (name: String.UnicodeScalarView, braced: Bool)?

    mutating func consume(_ text: String) {
      for scalar in text.unicodeScalars { consume(scalar) }
    }

    mutating func consume(_ scalar: Unicode.Scalar) {
      if let current = reference {
        if current.braced {
          if scalar == "}" { endReference() } else { reference?.name.append(scalar) }
          return
        }
        if current.name.isEmpty && scalar == "{" {
          reference?.braced = true
          return
        }
        if Self.isNameCharacter(scalar, first: current.name.isEmpty) {
          reference?.name.append(scalar)
          return
        }
        endReference()
      }
      if inComment {
        if scalar == "\n" { inComment = false }
        return
      }
      if escape {
        escape = false
        // In double quotes a backslash escapes only these; elsewhere it keeps itself.
        if quote == "\"" && !"\"\\$`\n".unicodeScalars.contains(scalar) { word.append("\\") }
        // A backslash-newline joins the lines and is itself removed, as in sh: it starts no word.
        if scalar != "\n" {
          word.append(scalar)
          inWord = true
        }
        return
      }
      switch quote {
      case "'":
        if scalar == "'" { quote = nil } else { word.append(scalar) }
      case "\"":
        if scalar == "\"" {
          quote = nil
        } else if scalar == "\\" {
          escape = true
        } else if scalar == "$" && variables != nil {
          reference = (String.UnicodeScalarView(), false)
        } else {
          word.append(scalar)
        }
      default:
        if scalar == "\\" {
          escape = true
        } else if scalar == "'" || scalar == "\"" {
          quote = scalar
          inWord = true
        } else if scalar.properties.isWhitespace {
          if inWord { words.append(String(word)) }
          word = String.UnicodeScalarView()
          inWord = false
        } else if scalar == "#" && !inWord {
          inComment = true
        } else if scalar == "$" && variables != nil {
          reference = (String.UnicodeScalarView(), false)
          inWord = true
        } else {
          word.append(scalar)
          inWord = true
        }
      }
    }

    /// Ends the reference being read: the variable's value joins the word (a `$` that starts
    /// no name stays a `$`). At the end of the text, an unclosed `${` is an error.
    mutating func endReference(closed: Bool = true) {
      guard let (name, braced) = reference else { return }
      reference = nil
      let text = String(name)
      if braced {
        guard closed, !name.isEmpty, name.enumerated().allSatisfy({ Self.isNameCharacter($1, first: $0 == 0) }) else {
          if expansionError == nil { expansionError = .badSubstitution(text) }
          return
        }
      } else if name.isEmpty {
        word.append("$")
        return
      }
      guard let value = variables?[text] else {
        if expansionError == nil { expansionError = .undefined(text) }
        return
      }
      word.append(contentsOf: value.unicodeScalars)
    }

    /// A letter, digit or underscore; a name does not start with a digit.
    static func isNameCharacter(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
      scalar == "_" || (scalar.isASCII && scalar.properties.isAlphabetic) || (!first && ("0"..."9").contains(scalar))
    }

    /// True when the text so far ends inside a quote or after a backslash.
    var isIncomplete: Bool { quote != nil || escape }

    var state: Scan {
      var result = Scan()
      result.words = words
      if !inComment && (inWord || quote != nil) { result.words.append(String(word)) }
      result.openQuote = quote.map(Character.init)
      result.trailingEscape = escape && !inComment
      result.inWord = !inComment && (inWord || quote != nil || escape)
      return result
    }
  }

  /// Joins the lines of one command that continues over several lines (an unclosed quote or
  /// a trailing backslash), for script mode and the REPL. Each line is scanned once, and a
  /// continuation is capped, so a stray apostrophe cannot swallow the rest of a long script.
  public struct Continuation: Sendable {
    /// At most this many lines, or this many bytes, in one command.
    public static let maxLines = 1000
    public static let maxBytes = 64 * 1024

    public enum Step: Equatable, Sendable {
      /// The command is complete.
      case words([String])
      /// The command continues on the next line.
      case more
      /// The command went past `maxLines` or `maxBytes`: almost certainly an unclosed quote.
      case tooLong
    }

    private var scanner = Scanner()
    private var lines = 0
    private var bytes = 0
    /// The number of the line that started the command.
    public private(set) var firstLine = 0
    /// The number of the line where the quote that is still open began.
    public private(set) var quoteLine: Int?
    /// The open quote, if any.
    public var openQuote: Character? { scanner.quote.map(Character.init) }

    public init() {}

    /// True when no line of a command is pending.
    public var isEmpty: Bool { lines == 0 }

    /// Adds line `number` (numbers are the caller's, e.g. the script's line numbers).
    public mutating func add(_ line: String, number: Int) -> Step {
      if lines == 0 { firstLine = number } else { scanner.consume("\n") }
      lines += 1
      bytes += line.utf8.count + 1
      for scalar in line.unicodeScalars {
        let wasQuoted = scanner.quote != nil
        scanner.consume(scalar)
        if !wasQuoted && scanner.quote != nil { quoteLine = number }
      }
      if scanner.quote == nil { quoteLine = nil }
      if !scanner.isIncomplete {
        let words = scanner.state.words
        self = Continuation()
        return .words(words)
      }
      return lines >= Self.maxLines || bytes >= Self.maxBytes ? .tooLong : .more
    }

    /// What went wrong with the pending command, for an error message: where its quote
    /// began (or that it ends with a backslash).
    public var problem: String {
      if let quote = openQuote {
        return "unclosed \(quote) quote opened on line \(quoteLine ?? firstLine)"
      }
      return "the command that starts on line \(firstLine) ends with a backslash"
    }

    /// Forgets the pending command.
    public mutating func reset() { self = Continuation() }
  }
}

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

  /// Quotes a word so that `split` gives it back unchanged.
  public static func quote(_ word: String) -> String {
    let safe = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=@,+%".contains($0) }
    if safe { return word }
    if !word.contains("\"") && !word.contains("\\") && !word.contains("$") && !word.contains("`") {
      return "\"\(word)\""
    }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  struct Scan {
    var words: [String] = []
    var openQuote: Character?
    var trailingEscape = false
    /// The line ends inside a word (no whitespace after it).
    var inWord = false
  }

  static func scan(_ line: String) -> Scan {
    var result = Scan()
    var word = ""
    var inWord = false
    var quote: Character?
    var escape = false
    for character in line {
      if escape {
        escape = false
        // In double quotes a backslash escapes only these; elsewhere it keeps itself.
        if quote == "\"" && !"\"\\$`\n".contains(character) { word.append("\\") }
        if character != "\n" { word.append(character) }
        inWord = true
        continue
      }
      switch quote {
      case "'":
        if character == "'" { quote = nil } else { word.append(character) }
      case "\"":
        if character == "\"" {
          quote = nil
        } else if character == "\\" {
          escape = true
        } else {
          word.append(character)
        }
      default:
        if character == "\\" {
          escape = true
        } else if character == "'" || character == "\"" {
          quote = character
          inWord = true
        } else if character.isWhitespace {
          if inWord { result.words.append(word) }
          word = ""
          inWord = false
        } else if character == "#" && !inWord {
          result.inWord = false
          return result
        } else {
          word.append(character)
          inWord = true
        }
      }
    }
    if inWord || quote != nil { result.words.append(word) }
    result.openQuote = quote
    result.trailingEscape = escape
    result.inWord = inWord || quote != nil || escape
    return result
  }
}

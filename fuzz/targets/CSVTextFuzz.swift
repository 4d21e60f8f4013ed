import DeckSupport
import DeckValues
import Foundation

// libFuzzer target: `--format csv` (CSVText) on any JSON document. The CSV it writes must read
// back (RFC 4180) as a header and rows of the same width; no field may start a formula (=, +,
// -, @, tab, CR) unless it is a number, and with --csv-raw the fields read back as the cells.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Data(UnsafeBufferPointer(start: data, count: size))
  guard let tree = try? DeckJSON.decoder.decode(JSONValue.self, from: bytes) else { return 0 }
  for raw in [false, true] {
    let table = CSVText.table(tree, raw: raw)
    let text = CSVText.text(table, forTerminal: false)
    let lines = readCSV(text)
    guard !table.columns.isEmpty else {
      precondition(text.isEmpty, "a table without columns printed something")
      continue
    }
    precondition(lines.count == table.rows.count + 1, "the CSV does not read back as its rows")
    precondition(lines.allSatisfy { $0.count == table.columns.count }, "a row is not as wide as the header")
    if raw {
      precondition(Array(lines.dropFirst()) == table.rows, "--csv-raw changed a cell")
      continue
    }
    for field in lines.joined() {
      guard let first = field.utf8.first, CSVText.formulaStarts.contains(first) else { continue }
      precondition(Double(field) != nil, "a formula reached the CSV: \(field.debugDescription)")
    }
  }
  return 0
}

/// RFC 4180: fields separated by commas, lines by LF; a quoted field doubles its quotes.
func readCSV(_ text: String) -> [[String]] {
  var lines: [[String]] = []
  var fields: [String] = []
  var field = ""
  var quoted = false
  var scalars = text.unicodeScalars.makeIterator()
  var pending: Unicode.Scalar?
  while let scalar = pending ?? scalars.next() {
    pending = nil
    if quoted {
      if scalar == "\"" {
        let next = scalars.next()
        if next == "\"" { field.unicodeScalars.append("\"") } else { quoted = false; pending = next }
      } else {
        field.unicodeScalars.append(scalar)
      }
    } else if scalar == "\"" {
      quoted = true
    } else if scalar == "," {
      fields.append(field)
      field = ""
    } else if scalar == "\n" {
      fields.append(field)
      lines.append(fields)
      fields = []
      field = ""
    } else {
      field.unicodeScalars.append(scalar)
    }
  }
  return lines
}

import DeckYAML
import Testing
import Yams

/// DeckYAML reads what deck's files and embedded documents hold and writes what `--format yaml`
/// and deck's files print. Yams (a separate parser, used only here) checks that what the writer
/// prints reads back as the same text elsewhere too.
@Suite struct YAMLReadTests {
  @Test("a document: mappings in order, sequences, styles and where each node starts")
  func compose() throws {
    let text = """
      # a comment
      name: deck
      tags: [a, 'b']
      nested:
        - key: "quoted"
          block: |
            line one
            line two
      """
    let root = try #require(try YAMLNode.compose(yaml: text))
    let mapping = try #require(root.mapping)
    #expect(mapping.map { $0.key.string } == ["name", "tags", "nested"])
    #expect(mapping["name"]?.scalar == YAMLNode.Scalar("deck", mark: YAMLMark(line: 2, column: 7)))
    #expect(mapping["tags"]?.sequence?.map { $0.scalar?.style } == [.plain, .singleQuoted])
    let item = try #require(mapping["nested"]?.sequence?.first?.mapping)
    #expect(item.mark == YAMLMark(line: 5, column: 5))
    #expect(item["key"]?.scalar?.style == .doubleQuoted)
    #expect(item["block"]?.scalar?.style == .literal)
    #expect(item["block"]?.string == "line one\nline two")
    #expect(try YAMLNode.compose(yaml: "") == nil)
    #expect(try YAMLNode.compose(yaml: "# only a comment\n") == nil)
  }

  @Test(
    "plain scalars are typed by YAML 1.2's core schema; quoted, block and !!str ones are text",
    arguments: [
      ("~", YAMLScalarValue.null), ("null", .null), ("NULL", .null), ("", .null),
      ("true", .bool(true)), ("False", .bool(false)),
      ("yes", .string("yes")), ("off", .string("off")), ("1:30", .string("1:30")),
      ("42", .int(42)), ("-7", .int(-7)), ("+3", .int(3)), ("0x1F", .int(31)), ("0o17", .int(15)),
      ("99999999999999999999", .bigInteger("99999999999999999999")),
      ("1.5", .float(1.5)), ("-.5", .float(-0.5)), ("1e3", .float(1000)), (".inf", .float(.infinity)),
      ("1.2.3", .string("1.2.3")), ("0x", .string("0x")), ("0xG", .string("0xG")), ("e3", .string("e3")),
      ("'true'", .string("true")), ("\"42\"", .string("42")), ("!!str 42", .string("42")),
      ("!!int \"42\"", .int(42)), ("!custom 42", .string("42")),
    ])
  func coreSchema(text: String, value: YAMLScalarValue) throws {
    let node = try #require(try YAMLNode.compose(yaml: "key: \(text)\n")?.mapping?["key"])
    #expect(node.resolved == value)
  }

  @Test("aliases are expanded; an alias to nothing is an error with its place")
  func aliases() throws {
    let root = try #require(try YAMLNode.compose(yaml: "a: &x {b: 1}\nc: *x\n")?.mapping)
    #expect(root["c"]?.mapping?["b"]?.int == 1)
    let error = #expect(throws: YAMLError.self) { try YAMLNode.compose(yaml: "a: 1\nb: *nothing\n") }
    #expect(error?.mark?.line == 2)
    #expect(error?.problem.contains("*nothing") == true)
  }

  @Test("syntax errors name the line and column and libyaml's problem")
  func syntaxErrors() {
    let error = #expect(throws: YAMLError.self) { try YAMLNode.compose(yaml: "ok: 1\nlist: [1, 2\nnext: 3\n") }
    #expect(error?.mark != nil)
    #expect(error?.exceedsLimit == false)
    #expect(error?.description.hasPrefix("line ") == true, "\(String(describing: error))")
    let tabs = #expect(throws: YAMLError.self) { try YAMLNode.compose(yaml: "a:\n\tb: 1\n") }
    #expect(tabs?.mark?.line == 2)
    let two = #expect(throws: YAMLError.self) { try YAMLNode.compose(yaml: "a: 1\n---\nb: 2\n") }
    #expect(two?.problem.contains("another") == true)
    let bytes = #expect(throws: YAMLError.self) { try YAMLNode.compose(yaml: "a: \u{1}\n") }
    #expect(bytes != nil)
  }

  @Test("a billion laughs and a thousand nested lists stop at the limits instead of the memory")
  func limits() throws {
    var laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for level in 1...9 {
      laughs +=
        "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
    }
    let expanded = #expect(throws: YAMLError.self) { try YAMLNode.compose(yaml: laughs) }
    #expect(expanded?.exceedsLimit == true)
    let small = #expect(throws: YAMLError.self) { try YAMLNode.compose(yaml: "a: [1, 2, 3]\n", nodeLimit: 3) }
    #expect(small?.exceedsLimit == true)
    #expect(try YAMLNode.compose(yaml: "a: [1, 2, 3]\n", nodeLimit: 6) != nil)
    let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
    let nested = #expect(throws: YAMLError.self) { try YAMLNode.compose(yaml: deep) }
    #expect(nested?.exceedsLimit == true)
  }
}

@Suite struct YAMLWriteTests {
  static let awkward = [
    "true", "yes", "No", "ON", "y", "1:30", "2026-11-26", "2026-11-26 10:00:00", "0x1F", "1e3", ".5", "1_000",
    "-", "- a", "a: b", "#c", "a #b", "a#b", "'q'", "\"d\"", "it's", "multi\nline", "tab\there", "\u{7}bell",
    "é unicode", "", " lead", "trail ", "~", "null", "@at", "`tick", "%pct", "!bang", "&amp", "*star", "|pipe",
    ">gt", "[x]", "{y}", "a,b", "?q", ":colon", "key:", "<<", "=", "\u{FEFF}bom", "\u{2028}ls", "\u{85}nel",
    "emoji 😀", "\\back", "12 Main St", "Keller Williams, Realty", "-5", "+5", ".inf", ".NaN", "0o7", "\r",
  ]

  @Test("text reads back as the same text, in DeckYAML and in Yams, and never holds a raw control character")
  func textRoundTrips() throws {
    for text in Self.awkward {
      let document = YAMLWriter.document(
        .mapping(
          YAMLNode.Mapping([
            (key: .scalar(.init(text, style: .doubleQuoted)), value: .scalar(.init(text, style: .doubleQuoted)))
          ])))
      let ours = try #require(try YAMLNode.compose(yaml: document)?.mapping, "\(document)")
      #expect(ours.first?.key.resolved == .string(text), "\(document)")
      #expect(ours.first?.value.resolved == .string(text), "\(document)")
      // Yams reads through Foundation's strings, which drop a leading byte order mark.
      if !text.hasPrefix("\u{FEFF}") {
        let theirs = try Yams.load(yaml: document) as? [String: String]
        #expect(theirs == [text: text], "\(document)")
      }
      #expect(!document.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(document)")
    }
  }

  @Test("text in a flow collection reads back as the same text: `,[]{}` and `:?` are quoted there, not in a block")
  func flowTextRoundTrips() throws {
    for text in Self.awkward + ["a:?b", "https://example.com/a?b=c,d", "x]", "a{b"] {
      let item = YAMLWriter.text(text, inFlow: true)
      let list = try #require(try YAMLNode.compose(yaml: "k: [" + item + ", " + item + "]\n")?.mapping, "\(item)")
      #expect(list.first?.value.sequence?.map(\.resolved) == [.string(text), .string(text)], "\(item)")
      let map = try #require(try YAMLNode.compose(yaml: "{" + item + ": " + item + "}\n")?.mapping, "\(item)")
      #expect(map.first?.key.resolved == .string(text), "\(item)")
      #expect(map.first?.value.resolved == .string(text), "\(item)")
    }
    #expect(YAMLWriter.text("https://example.com/a?b=c") == "https://example.com/a?b=c")
    #expect(YAMLWriter.text("a,b", inFlow: true) == "'a,b'")
    #expect(YAMLWriter.text("a,b") == "a,b")
  }

  /// Found by fuzz/run's yaml target: each printed a document that did not read back.
  @Test(
    "what fuzzing found reads back: combining marks after a quote or at an item's start, keys over 1024 bytes, empty keys, text starting with `...`"
  )
  func fuzzFindings() throws {
    let trees: [YAMLNode] = [
      .sequence(YAMLNode.Sequence([.scalar(.init(":'\u{33D}x", style: .doubleQuoted))])),
      .sequence(
        YAMLNode.Sequence([
          .mapping(YAMLNode.Mapping([(key: .scalar(.init("\u{35D}&x")), value: .scalar(.init("null")))]))
        ])),
      .mapping(
        YAMLNode.Mapping([
          (key: .scalar(.init(String(repeating: "k", count: 1100), style: .doubleQuoted)), value: .scalar(.init("1")))
        ])),
      .mapping(YAMLNode.Mapping([(key: .scalar(.init("")), value: .scalar(.init("a: b", style: .doubleQuoted)))])),
      .mapping(
        YAMLNode.Mapping([(key: .scalar(.init("a: \u{301}b", style: .doubleQuoted)), value: .scalar(.init("1")))])),
      // At the start of a line, `... ` ends the document: as a top-level scalar, or a key.
      .scalar(.init("... ...f\u{FFFD}", style: .singleQuoted)),
      .mapping(YAMLNode.Mapping([(key: .scalar(.init("... x", style: .plain)), value: .scalar(.init("1")))])),
    ]
    for tree in trees {
      let text = YAMLWriter.document(tree)
      let back = try #require(try YAMLNode.compose(yaml: text), "\(text)")
      #expect(YAMLWriter.document(back) == text, "\(text)")
    }
    let long = try #require(try YAMLNode.compose(yaml: YAMLWriter.document(trees[2]))?.mapping)
    #expect(long.first?.key.string?.count == 1100)
    let quote = try #require(try YAMLNode.compose(yaml: YAMLWriter.document(trees[0]))?.sequence?.first)
    #expect(quote.string == ":'\u{33D}x")
    #expect(try YAMLNode.compose(yaml: YAMLWriter.document(trees[5]))?.string == "... ...f\u{FFFD}")
  }

  @Test("libyaml's layout: indentless lists under keys, items' mappings after the dash, {} and []")
  func layout() throws {
    let tree = YAMLNode.mapping(
      YAMLNode.Mapping([
        (
          key: .scalar(.init("list", style: .doubleQuoted)),
          value: .sequence(
            YAMLNode.Sequence([
              .mapping(
                YAMLNode.Mapping([
                  (key: .scalar(.init("a", style: .doubleQuoted)), value: .scalar(.init("1"))),
                  (
                    key: .scalar(.init("b", style: .doubleQuoted)),
                    value: .sequence(YAMLNode.Sequence([.scalar(.init("x", style: .doubleQuoted))]))
                  ),
                ])),
              .sequence(YAMLNode.Sequence([.scalar(.init("null")), .scalar(.init("true"))])),
              .sequence(YAMLNode.Sequence([])),
            ]))
        ),
        (
          key: .scalar(.init("map", style: .doubleQuoted)),
          value: .mapping(
            YAMLNode.Mapping([
              (key: .scalar(.init("inner", style: .doubleQuoted)), value: .mapping(YAMLNode.Mapping([])))
            ]))
        ),
      ]))
    let text = YAMLWriter.document(tree)
    #expect(
      text == """
        list:
        - a: 1
          b:
          - x
        - - null
          - true
        - []
        map:
          inner: {}

        """)
    let back = try #require(try YAMLNode.compose(yaml: text))
    #expect(YAMLWriter.document(back) == text)
    #expect(YAMLWriter.document(.scalar(.init("text", style: .doubleQuoted))) == "text\n")
    #expect(YAMLWriter.document(.sequence(YAMLNode.Sequence([]))) == "[]\n")
  }
}

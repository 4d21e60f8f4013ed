import Testing

@testable import ContractCheck

/// One instance against one schema: the paths of the violations expected (none: valid).
struct SchemaCase: CustomTestStringConvertible, Sendable {
  let name: String
  /// JSON (or YAML): the schema; `#/components/schemas/...` resolves against `components`.
  let schema: String
  let instance: String
  let violations: [String]
  var components: String = "{}"

  var testDescription: String { name }
}

/// The corpus: for each keyword, instances that pass and instances that fail, with the edge cases.
let schemaCorpus: [SchemaCase] = [
  // type
  SchemaCase(name: "string ok", schema: #"{"type":"string"}"#, instance: #""a""#, violations: []),
  SchemaCase(name: "string vs number", schema: #"{"type":"string"}"#, instance: "42", violations: ["$"]),
  SchemaCase(name: "integer ok", schema: #"{"type":"integer"}"#, instance: "3", violations: []),
  SchemaCase(name: "integer 3.0 is an integer", schema: #"{"type":"integer"}"#, instance: "3.0", violations: []),
  SchemaCase(name: "integer 1e2 is an integer", schema: #"{"type":"integer"}"#, instance: "1e2", violations: []),
  SchemaCase(name: "integer vs 3.5", schema: #"{"type":"integer"}"#, instance: "3.5", violations: ["$"]),
  SchemaCase(
    name: "integer huge literal", schema: #"{"type":"integer"}"#,
    instance: "123456789012345678901234567890123456789", violations: []),
  SchemaCase(name: "number accepts integer", schema: #"{"type":"number"}"#, instance: "7", violations: []),
  SchemaCase(name: "boolean is not a number", schema: #"{"type":"number"}"#, instance: "true", violations: ["$"]),
  SchemaCase(name: "0 is not a boolean", schema: #"{"type":"boolean"}"#, instance: "0", violations: ["$"]),
  SchemaCase(name: "1 is not a boolean", schema: #"{"type":"boolean"}"#, instance: "1", violations: ["$"]),
  SchemaCase(name: "false is a boolean", schema: #"{"type":"boolean"}"#, instance: "false", violations: []),
  SchemaCase(name: "null vs string", schema: #"{"type":"string"}"#, instance: "null", violations: ["$"]),
  SchemaCase(
    name: "type array with null: null", schema: #"{"type":["string","null"]}"#, instance: "null", violations: []),
  SchemaCase(
    name: "type array with null: string", schema: #"{"type":["string","null"]}"#, instance: #""x""#, violations: []),
  SchemaCase(
    name: "type array with null: number", schema: #"{"type":["string","null"]}"#, instance: "1", violations: ["$"]),
  SchemaCase(
    name: "nullable 3.0 accepts null", schema: #"{"type":"string","nullable":true}"#, instance: "null", violations: []),
  SchemaCase(
    name: "nullable with enum accepts null", schema: #"{"type":"string","nullable":true,"enum":["a"]}"#,
    instance: "null", violations: []),
  SchemaCase(
    name: "nullable false refuses null", schema: #"{"type":"string","nullable":false}"#, instance: "null",
    violations: ["$"]),
  SchemaCase(name: "array type", schema: #"{"type":"array"}"#, instance: "{}", violations: ["$"]),
  SchemaCase(name: "object type", schema: #"{"type":"object"}"#, instance: "[]", violations: ["$"]),
  SchemaCase(name: "boolean schema false", schema: "false", instance: "1", violations: ["$"]),
  SchemaCase(name: "boolean schema true", schema: "true", instance: "1", violations: []),

  // required, properties, additionalProperties
  SchemaCase(
    name: "required present", schema: #"{"type":"object","required":["a"]}"#, instance: #"{"a":null}"#, violations: []),
  SchemaCase(
    name: "required missing twice", schema: #"{"type":"object","required":["a","b"]}"#, instance: "{}",
    violations: ["$.a", "$.b"]),
  SchemaCase(
    name: "property type", schema: #"{"type":"object","properties":{"a":{"type":"integer"}}}"#,
    instance: #"{"a":"1"}"#, violations: ["$.a"]),
  SchemaCase(
    name: "property key that is no identifier",
    schema: #"{"type":"object","properties":{"a b":{"type":"integer"}}}"#, instance: #"{"a b":"1"}"#,
    violations: [#"$["a b"]"#]),
  SchemaCase(
    name: "additionalProperties false",
    schema: #"{"type":"object","properties":{"a":{}},"additionalProperties":false}"#,
    instance: #"{"a":1,"b":2}"#, violations: ["$.b"]),
  SchemaCase(
    name: "additionalProperties schema",
    schema: #"{"type":"object","additionalProperties":{"type":"string"}}"#, instance: #"{"x":"1","y":2}"#,
    violations: ["$.y"]),
  SchemaCase(
    name: "additionalProperties true", schema: #"{"type":"object","additionalProperties":true}"#,
    instance: #"{"x":1}"#, violations: []),
  SchemaCase(
    name: "additionalProperties false only sees its own properties (allOf)",
    schema: #"{"allOf":[{"properties":{"a":{}}}],"properties":{"b":{}},"additionalProperties":false}"#,
    instance: #"{"a":1,"b":2}"#, violations: ["$.a"]),
  SchemaCase(
    name: "additionalProperties false inside an allOf branch",
    schema: #"{"allOf":[{"properties":{"a":{}},"additionalProperties":false},{"properties":{"b":{}}}]}"#,
    instance: #"{"a":1,"b":2}"#, violations: ["$.b"]),
  SchemaCase(
    name: "patternProperties", schema: #"{"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}"#,
    instance: #"{"x-a":"1","x-b":2,"c":3}"#, violations: [#"$["x-b"]"#, "$.c"]),
  SchemaCase(name: "minProperties", schema: #"{"minProperties":1}"#, instance: "{}", violations: ["$"]),
  SchemaCase(name: "maxProperties", schema: #"{"maxProperties":1}"#, instance: #"{"a":1,"b":2}"#, violations: ["$"]),

  // enum, const
  SchemaCase(name: "enum member", schema: #"{"enum":["a","b"]}"#, instance: #""b""#, violations: []),
  SchemaCase(name: "enum unknown", schema: #"{"enum":["a","b"]}"#, instance: #""c""#, violations: ["$"]),
  SchemaCase(name: "enum is case-sensitive", schema: #"{"enum":["a"]}"#, instance: #""A""#, violations: ["$"]),
  SchemaCase(name: "enum number by value", schema: #"{"enum":[1]}"#, instance: "1.0", violations: []),
  SchemaCase(name: "enum true is not 1", schema: #"{"enum":[1]}"#, instance: "true", violations: ["$"]),
  SchemaCase(
    name: "enum of objects ignores order", schema: #"{"enum":[{"a":1,"b":2}]}"#, instance: #"{"b":2,"a":1}"#,
    violations: []),
  SchemaCase(
    name: "enum with null", schema: #"{"type":["string","null"],"enum":["a",null]}"#, instance: "null", violations: []),
  SchemaCase(name: "const equal", schema: #"{"const":"x"}"#, instance: #""x""#, violations: []),
  SchemaCase(name: "const different", schema: #"{"const":"x"}"#, instance: #""y""#, violations: ["$"]),
  SchemaCase(name: "const false vs 0", schema: #"{"const":false}"#, instance: "0", violations: ["$"]),

  // numbers
  SchemaCase(name: "minimum boundary", schema: #"{"minimum":1}"#, instance: "1", violations: []),
  SchemaCase(name: "minimum below", schema: #"{"minimum":1}"#, instance: "0.99", violations: ["$"]),
  SchemaCase(name: "maximum boundary", schema: #"{"maximum":5}"#, instance: "5", violations: []),
  SchemaCase(name: "maximum above", schema: #"{"maximum":5}"#, instance: "5.0001", violations: ["$"]),
  SchemaCase(name: "exclusiveMaximum boundary", schema: #"{"exclusiveMaximum":5}"#, instance: "5", violations: ["$"]),
  SchemaCase(name: "exclusiveMaximum below", schema: #"{"exclusiveMaximum":5}"#, instance: "4.999", violations: []),
  SchemaCase(name: "exclusiveMinimum boundary", schema: #"{"exclusiveMinimum":0}"#, instance: "0", violations: ["$"]),
  SchemaCase(name: "exclusiveMinimum above", schema: #"{"exclusiveMinimum":0}"#, instance: "1e-9", violations: []),
  SchemaCase(
    name: "3.0 boolean exclusiveMaximum", schema: #"{"maximum":5,"exclusiveMaximum":true}"#, instance: "5",
    violations: ["$"]),
  SchemaCase(name: "minimum ignores strings", schema: #"{"minimum":5}"#, instance: #""1""#, violations: []),
  SchemaCase(name: "huge number over maximum", schema: #"{"maximum":5}"#, instance: "1e400", violations: ["$"]),
  SchemaCase(name: "huge negative under minimum", schema: #"{"minimum":0}"#, instance: "-1e400", violations: ["$"]),
  SchemaCase(name: "multipleOf integer", schema: #"{"multipleOf":3}"#, instance: "9", violations: []),
  SchemaCase(name: "multipleOf integer fails", schema: #"{"multipleOf":3}"#, instance: "10", violations: ["$"]),
  SchemaCase(name: "multipleOf decimal", schema: #"{"multipleOf":0.01}"#, instance: "19.99", violations: []),
  SchemaCase(name: "multipleOf decimal fails", schema: #"{"multipleOf":0.01}"#, instance: "19.995", violations: ["$"]),
  SchemaCase(
    name: "multipleOf with Int.min does not trap", schema: #"{"multipleOf":1}"#, instance: "-9223372036854775808",
    violations: []),

  // strings
  SchemaCase(
    name: "minLength counts characters, not bytes", schema: #"{"minLength":3}"#, instance: #""héé""#, violations: []),
  SchemaCase(
    name: "maxLength counts characters, not bytes", schema: #"{"maxLength":2}"#, instance: #""éé""#, violations: []),
  SchemaCase(name: "maxLength with an emoji", schema: #"{"maxLength":1}"#, instance: #""👍""#, violations: []),
  SchemaCase(name: "maxLength exceeded", schema: #"{"maxLength":2}"#, instance: #""abc""#, violations: ["$"]),
  SchemaCase(name: "minLength short", schema: #"{"minLength":1}"#, instance: #""""#, violations: ["$"]),
  SchemaCase(
    name: "pattern searches (unanchored)", schema: #"{"pattern":"b+"}"#, instance: #""abbbc""#, violations: []),
  SchemaCase(name: "pattern anchored fails", schema: #"{"pattern":"^b+$"}"#, instance: #""abbbc""#, violations: ["$"]),
  SchemaCase(
    name: "pattern with \\u escapes (deck's blank check)", schema: #"{"pattern":"[^\\t\\n\\u000B\\u000C\\r ]"}"#,
    instance: #"" \t ""#, violations: ["$"]),
  SchemaCase(
    name: "pattern with \\u escapes passes", schema: #"{"pattern":"[^\\t\\n\\u000B\\u000C\\r ]"}"#,
    instance: #"" a ""#, violations: []),
  SchemaCase(name: "pattern on a non-string is ignored", schema: #"{"pattern":"^a$"}"#, instance: "3", violations: []),

  // formats
  SchemaCase(
    name: "date-time ok", schema: #"{"format":"date-time"}"#, instance: #""2024-02-29T23:59:60.123+05:30""#,
    violations: []),
  SchemaCase(
    name: "date-time Z lowercase t", schema: #"{"format":"date-time"}"#, instance: #""2024-01-01t00:00:00z""#,
    violations: []),
  SchemaCase(
    name: "date-time without offset", schema: #"{"format":"date-time"}"#, instance: #""2024-01-01T00:00:00""#,
    violations: ["$"]),
  SchemaCase(
    name: "date-time Feb 30", schema: #"{"format":"date-time"}"#, instance: #""2024-02-30T00:00:00Z""#,
    violations: ["$"]),
  SchemaCase(
    name: "date-time hour 24", schema: #"{"format":"date-time"}"#, instance: #""2024-01-01T24:00:00Z""#,
    violations: ["$"]),
  SchemaCase(name: "date ok", schema: #"{"format":"date"}"#, instance: #""2023-12-31""#, violations: []),
  SchemaCase(name: "date not leap", schema: #"{"format":"date"}"#, instance: #""2023-02-29""#, violations: ["$"]),
  SchemaCase(name: "date 1900 not leap", schema: #"{"format":"date"}"#, instance: #""1900-02-29""#, violations: ["$"]),
  SchemaCase(name: "date 2000 leap", schema: #"{"format":"date"}"#, instance: #""2000-02-29""#, violations: []),
  SchemaCase(
    name: "uuid ok", schema: #"{"format":"uuid"}"#, instance: #""123e4567-E89B-12d3-a456-426614174000""#, violations: []
  ),
  SchemaCase(
    name: "uuid short", schema: #"{"format":"uuid"}"#, instance: #""123e4567-e89b-12d3-a456-42661417400""#,
    violations: ["$"]),
  SchemaCase(
    name: "uuid bad hex", schema: #"{"format":"uuid"}"#, instance: #""123e4567-e89b-12d3-a456-42661417400g""#,
    violations: ["$"]),
  SchemaCase(name: "email ok", schema: #"{"format":"email"}"#, instance: #""a.b+c@example.co""#, violations: []),
  SchemaCase(name: "email two ats", schema: #"{"format":"email"}"#, instance: #""a@b@c""#, violations: ["$"]),
  SchemaCase(name: "email no local", schema: #"{"format":"email"}"#, instance: #""@example.com""#, violations: ["$"]),
  SchemaCase(name: "email space", schema: #"{"format":"email"}"#, instance: #""a b@example.com""#, violations: ["$"]),
  SchemaCase(name: "uri ok", schema: #"{"format":"uri"}"#, instance: #""https://x.example/a?b=c#d""#, violations: []),
  SchemaCase(name: "uri relative", schema: #"{"format":"uri"}"#, instance: #""/a/b""#, violations: ["$"]),
  SchemaCase(name: "uri space", schema: #"{"format":"uri"}"#, instance: #""https://x.example/a b""#, violations: ["$"]),
  SchemaCase(name: "uri bad percent", schema: #"{"format":"uri"}"#, instance: #""https://x/%zz""#, violations: ["$"]),
  SchemaCase(name: "unknown format is an annotation", schema: #"{"format":"int64"}"#, instance: "1", violations: []),
  SchemaCase(name: "format ignores non-strings", schema: #"{"format":"uuid"}"#, instance: "1", violations: []),

  // arrays
  SchemaCase(
    name: "items", schema: #"{"type":"array","items":{"type":"integer"}}"#, instance: #"[1,"2",3,"4"]"#,
    violations: ["$[1]", "$[3]"]),
  SchemaCase(
    name: "nested arrays' paths",
    schema:
      #"{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","required":["b"],"properties":{"b":{"type":"string"}}}}}}"#,
    instance: #"{"a":[{"b":"x"},{"b":"y"},{"b":3},{}]}"#, violations: ["$.a[2].b", "$.a[3].b"]),
  SchemaCase(name: "minItems", schema: #"{"minItems":2}"#, instance: "[1]", violations: ["$"]),
  SchemaCase(name: "maxItems", schema: #"{"maxItems":2}"#, instance: "[1,2,3]", violations: ["$"]),
  SchemaCase(name: "uniqueItems ok", schema: #"{"uniqueItems":true}"#, instance: "[1,2,true]", violations: []),
  SchemaCase(
    name: "uniqueItems 1 and 1.0 are equal", schema: #"{"uniqueItems":true}"#, instance: "[1,1.0]", violations: ["$"]),
  SchemaCase(
    name: "uniqueItems objects", schema: #"{"uniqueItems":true}"#, instance: #"[{"a":1,"b":2},{"b":2,"a":1}]"#,
    violations: ["$"]),
  SchemaCase(
    name: "prefixItems", schema: #"{"prefixItems":[{"type":"string"}],"items":{"type":"integer"}}"#,
    instance: #"["a",1,"b"]"#, violations: ["$[2]"]),

  // composition
  SchemaCase(name: "allOf both", schema: #"{"allOf":[{"minimum":1},{"maximum":3}]}"#, instance: "5", violations: ["$"]),
  SchemaCase(
    name: "allOf reports every branch", schema: #"{"allOf":[{"required":["a"]},{"required":["b"]}]}"#, instance: "{}",
    violations: ["$.a", "$.b"]),
  SchemaCase(
    name: "anyOf one", schema: #"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#, instance: "1", violations: []),
  SchemaCase(
    name: "anyOf none", schema: #"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#, instance: "1.5", violations: ["$"]
  ),
  SchemaCase(
    name: "oneOf exactly one", schema: #"{"oneOf":[{"type":"string"},{"type":"integer"}]}"#, instance: #""a""#,
    violations: []),
  SchemaCase(
    name: "oneOf two branches match", schema: #"{"oneOf":[{"type":"number"},{"type":"integer"}]}"#, instance: "1",
    violations: ["$"]),
  SchemaCase(
    name: "oneOf none", schema: #"{"oneOf":[{"type":"string"},{"type":"integer"}]}"#, instance: "null",
    violations: ["$"]),
  SchemaCase(name: "not", schema: #"{"not":{"type":"string"}}"#, instance: #""a""#, violations: ["$"]),

  // $ref
  SchemaCase(
    name: "ref", schema: ##"{"$ref":"#/components/schemas/Id"}"##, instance: "1", violations: ["$"],
    components: #"{"Id":{"type":"string"}}"#),
  SchemaCase(
    name: "ref to a ref", schema: ##"{"$ref":"#/components/schemas/A"}"##, instance: ##""x""##, violations: ["$"],
    components: ##"{"A":{"$ref":"#/components/schemas/B"},"B":{"type":"integer"}}"##),
  SchemaCase(
    name: "ref cycle does not loop", schema: ##"{"$ref":"#/components/schemas/A"}"##, instance: "1", violations: [],
    components: ##"{"A":{"$ref":"#/components/schemas/B"},"B":{"allOf":[{"$ref":"#/components/schemas/A"}]}}"##),
  SchemaCase(
    name: "recursive tree", schema: ##"{"$ref":"#/components/schemas/Node"}"##,
    instance: #"{"name":"a","children":[{"name":"b","children":[{"name":3}]}]}"#,
    violations: ["$.children[0].children[0].name"],
    components:
      ##"{"Node":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/components/schemas/Node"}}}}}"##
  ),
  SchemaCase(
    name: "unresolvable ref", schema: ##"{"$ref":"#/components/schemas/Nope"}"##, instance: "1", violations: ["$"]),
  SchemaCase(
    name: "ref with a sibling keyword (3.1)", schema: ##"{"$ref":"#/components/schemas/S","maxLength":2}"##,
    instance: #""abc""#, violations: ["$"], components: #"{"S":{"type":"string"}}"#),
  SchemaCase(
    name: "ref with ~1 in a pointer", schema: ##"{"$ref":"#/components/schemas/a~1b"}"##, instance: "1",
    violations: ["$"], components: #"{"a/b":{"type":"string"}}"#),

  // discriminator
  SchemaCase(
    name: "discriminator picks the mapped branch", schema: discriminated, instance: #"{"kind":"cat","lives":9}"#,
    violations: [], components: pets),
  SchemaCase(
    name: "discriminator reports that branch's findings", schema: discriminated,
    instance: #"{"kind":"dog","bark":3}"#, violations: ["$.bark"], components: pets),
  SchemaCase(
    name: "discriminator unknown value", schema: discriminated, instance: #"{"kind":"cow"}"#,
    violations: ["$.kind"], components: pets),
  SchemaCase(
    name: "discriminator missing", schema: discriminated, instance: #"{"lives":9}"#, violations: ["$.kind"],
    components: pets),
  SchemaCase(
    name: "discriminator without mapping uses the schema name",
    schema:
      ##"{"oneOf":[{"$ref":"#/components/schemas/Cat"},{"$ref":"#/components/schemas/Dog"}],"discriminator":{"propertyName":"kind"}}"##,
    instance: #"{"kind":"Dog","bark":"woof"}"#, violations: [], components: pets),
]

let discriminated =
  ##"{"oneOf":[{"$ref":"#/components/schemas/Cat"},{"$ref":"#/components/schemas/Dog"}],"discriminator":{"propertyName":"kind","mapping":{"cat":"#/components/schemas/Cat","dog":"Dog"}}}"##
let pets =
  #"{"Cat":{"type":"object","required":["kind","lives"],"properties":{"kind":{"type":"string"},"lives":{"type":"integer"}}},"Dog":{"type":"object","required":["kind","bark"],"properties":{"kind":{"type":"string"},"bark":{"type":"string"}}}}"#

func violations(of instance: String, against schema: String, components: String = "{}") throws -> [SchemaViolation] {
  let document = try YAMLTree.load(#"{"components":{"schemas":"# + components + #"},"schema":"# + schema + "}")
  let parsed = try JSONParser.parse(Array(instance.utf8))
  return SchemaValidator(document: document).validate(parsed, against: document["schema"] ?? .bool(true))
}

@Suite("The JSON Schema check")
struct SchemaCorpusTests {
  @Test("the corpus", arguments: schemaCorpus)
  func corpus(_ item: SchemaCase) throws {
    let found = try violations(of: item.instance, against: item.schema, components: item.components)
    #expect(found.map(\.path).sorted() == item.violations.sorted(), "\(found)")
  }

  @Test("a finding says what the schema wants and what came back")
  func wording() throws {
    #expect(
      try violations(of: "42", against: #"{"type":"string","format":"uuid"}"#)
        == [SchemaViolation(path: "$", expected: "string (format uuid)", actual: "integer 42")])
    #expect(
      try violations(of: #""c""#, against: #"{"enum":["a","b"]}"#)
        == [SchemaViolation(path: "$", expected: "one of [a, b]", actual: #"string "c""#)])
    #expect(
      try violations(of: "{}", against: #"{"required":["id"]}"#)
        == [SchemaViolation(path: "$.id", expected: "required", actual: "missing")])
    #expect(
      try violations(of: "5", against: #"{"exclusiveMaximum":5}"#)
        == [SchemaViolation(path: "$", expected: "< 5", actual: "integer 5")])
    let long = String(repeating: "x", count: 500)
    let found = try violations(of: "\"\(long)\"", against: #"{"type":"integer"}"#)
    #expect(found.count == 1 && found[0].actual.count <= 80)
  }

  @Test("findings are capped at the limit")
  func cap() throws {
    let instance = "[" + Array(repeating: "\"x\"", count: 500).joined(separator: ",") + "]"
    let found = try violations(of: instance, against: #"{"items":{"type":"integer"}}"#)
    #expect(found.count == 50)
    #expect(found.last?.path == "$[49]")
  }

  @Test("a schema that refers to itself without moving into the instance ends")
  func directCycle() throws {
    let found = try violations(
      of: "1", against: ##"{"$ref":"#/components/schemas/A"}"##,
      components: ##"{"A":{"$ref":"#/components/schemas/A"}}"##)
    #expect(found.isEmpty)
  }
}

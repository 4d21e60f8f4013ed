import DeckSupport
import FoundationEssentials
import Testing

/// The one redactor of `--trace=body` and the sandbox's request log.
struct RedactorTests {
  @Test func aSecretValueTheLimitCutsIsMaskedWhole() {
    let body = Data(#"{"email":"a@b.c","password":"correct-horse-battery"}"#.utf8)
    for limit in 30..<body.count {
      let shown = Redactor.redact(body: body, limit: limit)
      #expect(!shown.contains("correct"), "limit \(limit): \(shown)")
      #expect(!shown.contains("horse"), "limit \(limit): \(shown)")
    }
    #expect(Redactor.redact(body: body, limit: body.count) == #"{"email":"a@b.c","password":"[REDACTED]"}"#)
    let cut = Redactor.redact(body: body, limit: 40)
    #expect(cut == #"{"email":"a@b.c","password":"[REDACTED]""# + "\n… (\(body.count - 40) more bytes)")
  }

  @Test func tokensInFieldsQueriesAndTextAreMasked() {
    let body = Data(#"{"access_token":"abc\"def","refresh_token":"r1","user":{"email":"a@b.c"}}"#.utf8)
    #expect(
      Redactor.redact(body: body, limit: 1000)
        == #"{"access_token":"[REDACTED]","refresh_token":"[REDACTED]","user":{"email":"a@b.c"}}"#)
    #expect(Redactor.redact(url: "/verify?type=x&token=abc") == "/verify?type=x&token=[REDACTED]")
    #expect(Redactor.redact(text: "Bearer abcdefghijkl") == "Bearer [REDACTED]")
  }
}

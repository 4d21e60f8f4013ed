import DeckCore
import DeckSupport
import Foundation
import SandboxLaunch
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 44 (finding 1, 5, 9): what deck trusts of the runtime directory, of a sandbox record
/// and of the process and server a record names.
@Suite("Local sandbox: what deck trusts")
struct LocalSandboxTrustTests {
  /// A private temporary directory, removed at the end.
  final class Scratch {
    let path: String
    init() throws { path = try SecureDirectory.makeTemporary(prefix: "deck-trust-") }
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  func record(url: String = "http://127.0.0.1:4321", start: UInt64? = ProcessStart.current) -> LocalSandboxRecord {
    LocalSandboxRecord(
      pid: getpid(), processStart: start, url: url, adminToken: "secret", database: "/x.sqlite", startedAt: 0,
      idleTimeout: 0, build: "b")
  }

  @Test func sha256AndHMACMatchTheStandardsVectors() {
    #expect(
      SHA256.hex(SHA256.hash(Array("abc".utf8)))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(SHA256.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    #expect(
      SHA256.hex(SHA256.hash(Array(twoBlocks.utf8)))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    // RFC 4231, test cases 2 and 6 (a key longer than the block).
    #expect(
      SHA256.hex(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
        == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    #expect(
      SHA256.hex(
        SHA256.hmac(
          key: [UInt8](repeating: 0xaa, count: 131),
          message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
        == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  }

  @Test func aProofIsTiedToItsTokenAndNonce() {
    let nonce = SandboxProof.nonce()
    #expect(SandboxProof.isNonce(nonce))
    #expect(nonce != SandboxProof.nonce())
    #expect(SandboxProof.answer(adminToken: "a", nonce: nonce) != SandboxProof.answer(adminToken: "b", nonce: nonce))
    #expect(
      SandboxProof.answer(adminToken: "a", nonce: nonce)
        != SandboxProof.answer(adminToken: "a", nonce: SandboxProof.nonce()))
    for bad in ["", "abc", String(repeating: "A", count: 32), String(repeating: "g", count: 32)] {
      #expect(!SandboxProof.isNonce(bad), "\(bad)")
    }
  }

  @Test(arguments: [
    "http://127.0.0.1:8787", "http://[::1]:8787",
  ])
  func loopbackLiteralsAreAddresses(url: String) {
    #expect(LoopbackAddress(url: url)?.url == url)
  }

  @Test(arguments: [
    "http://localhost:8787", "http://evil.test:8787", "https://127.0.0.1:8787", "http://127.0.0.1:8787/x",
    "http://127.0.0.1:0", "http://127.0.0.1:65536", "http://127.0.0.1", "http://127.0.0.2:80",
    "http://127.0.0.1:80@evil.test:1", "http://[::2]:80",
  ])
  func otherURLsAreNot(url: String) {
    #expect(LoopbackAddress(url: url) == nil)
  }

  @Test func aRecordIsReadOnlyWhenItIsThisUsersPrivateFileNamingLoopback() throws {
    let scratch = try Scratch()
    let path = scratch.path + "/sandbox-1.json"
    try record().write(to: path)
    #expect(LocalSandboxRecord.read(path) == record())
    // Readable by others: planted, or not deck's.
    chmod(path, 0o644)
    #expect(LocalSandboxRecord.read(path) == nil)
    chmod(path, 0o600)
    // A symbolic link is not followed.
    symlink(path, scratch.path + "/link.json")
    #expect(LocalSandboxRecord.read(scratch.path + "/link.json") == nil)
    // Another user's file.
    if geteuid() == 0 {
      chown(path, 65534, 65534)
      #expect(LocalSandboxRecord.read(path) == nil)
      chown(path, 0, 0)
    }
    // A URL that is not a loopback literal.
    try record(url: "http://evil.test:80").write(to: path)
    #expect(LocalSandboxRecord.read(path) == nil)
  }

  @Test func aPidTakenByAnotherProcessIsNotTheServer() throws {
    #expect(record().serverRuns)
    // The same pid with another start: the server ended and something else took its pid.
    #expect(!record(start: (ProcessStart.current ?? 0) &+ 1).serverRuns)
    // An older record without a start is never signalled.
    #expect(!record(start: nil).serverRuns)
    // terminate leaves a process alone whose start is not the record's (this very test process).
    #expect(!LocalProcess.terminate(getpid(), start: (ProcessStart.current ?? 0) &+ 1, grace: .zero))
    #expect(!LocalProcess.terminate(getpid(), start: nil, grace: .zero))
  }

  @Test func aRuntimeDirectoryOfAnotherUserIsNeverUsed() throws {
    guard geteuid() == 0 else {
      Issue.record("skipped: needs root to make a directory that belongs to another user")
      return
    }
    let scratch = try Scratch()
    chmod(scratch.path, 0o1777)
    let environment = ["TMPDIR": scratch.path, "HOME": scratch.path + "/home"]
    let preferred = SandboxRuntime.preferredDirectory(environment: environment)
    #expect(preferred == scratch.path + "/deck-\(geteuid())")
    mkdir(preferred, 0o777)
    chown(preferred, 65534, 65534)
    var notes: [String] = []
    let used = try SandboxRuntime.directory(environment: environment) { notes.append($0) }
    #expect(used == scratch.path + "/home/.local/state/deck/run")
    #expect(notes.count == 1)
    #expect(notes.first?.contains("belongs to user id 65534") == true)
    // Said once: the fallback exists now.
    _ = try SandboxRuntime.directory(environment: environment) { notes.append($0) }
    #expect(notes.count == 1)
    var info = stat()
    #expect(stat(used, &info) == 0 && info.st_mode & 0o777 == 0o700)
    // A symbolic link planted as the preferred directory is not followed either.
    rmdir(preferred)
    symlink(scratch.path + "/home", preferred)
    #expect(try SandboxRuntime.directory(environment: environment) == used)
  }

  @Test func ourOwnDirectoryIsMadePrivate() throws {
    let scratch = try Scratch()
    let environment = ["XDG_RUNTIME_DIR": scratch.path, "HOME": scratch.path]
    mkdir(scratch.path + "/deck", 0o755)
    chmod(scratch.path + "/deck", 0o755)
    #expect(try SandboxRuntime.directory(environment: environment) == scratch.path + "/deck")
    var info = stat()
    #expect(stat(scratch.path + "/deck", &info) == 0 && info.st_mode & 0o777 == 0o700)
  }
}

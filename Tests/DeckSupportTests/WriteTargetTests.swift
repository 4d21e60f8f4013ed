import DeckSupport
import Foundation
import TestFixtures
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 44, finding 14: what is already at a path decides how it is written.
@Suite("Atomic writes and what is at the path")
struct WriteTargetTests {
  func type(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
  }

  @Test func aFIFOIsWrittenInPlace() throws {
    let directory = try TemporaryDirectory()
    let fifo = directory.path + "/fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    // The test holds both ends, so the write neither waits for a reader nor loses its bytes.
    let reader = open(fifo, O_RDWR | O_NONBLOCK)
    #expect(reader >= 0)
    defer { close(reader) }
    try AtomicFile.write(Data("through the pipe\n".utf8), to: fifo, mode: 0o600)
    #expect(type(fifo) == S_IFIFO, "the FIFO is still there")
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = read(reader, &buffer, buffer.count)
    #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "through the pipe\n")
  }

  @Test func aCharacterDeviceIsWrittenInPlace() throws {
    guard geteuid() == 0 else {
      print("skipped: making a device node needs root")
      return
    }
    let directory = try TemporaryDirectory()
    // Copies of /dev/null (1, 3) and /dev/full (1, 7) (the old way: major << 8 | minor).
    let null = directory.path + "/null"
    let full = directory.path + "/full"
    #expect(mknod(null, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0)
    #expect(mknod(full, S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0)
    try AtomicFile.write(Data("gone".utf8), to: null)
    #expect(type(null) == S_IFCHR)
    #expect(throws: DeckError.self) { try AtomicFile.write(Data("no room".utf8), to: full) }
    #expect(type(full) == S_IFCHR)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["full", "null"])
  }

  @Test func aSymbolicLinkIsFollowedToItsFile() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.path + "/real", withIntermediateDirectories: true)
    let target = directory.path + "/real/file"
    try Data("old".utf8).write(to: URL(fileURLWithPath: target))
    let link = directory.path + "/link"
    #expect(symlink("real/file", link) == 0)
    try AtomicFile.write(Data("new".utf8), to: link, mode: 0o600)
    #expect(type(link) == S_IFLNK, "the link stays a link")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
  }

  @Test func aLinkToNothingAndADirectoryAreRefused() throws {
    let directory = try TemporaryDirectory()
    let dangling = directory.path + "/dangling"
    #expect(symlink(directory.path + "/missing", dangling) == 0)
    #expect(throws: DeckError.self) { try AtomicFile.write(Data("x".utf8), to: dangling) }
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/missing"), "nothing created through the link")
    let folder = directory.path + "/folder"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    #expect(throws: DeckError.self) { try AtomicFile.write(Data("x".utf8), to: folder) }
    #expect(type(folder) == S_IFDIR)
  }

  @Test func aRegularFileOrANewNameIsReplacedAtomically() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/file"
    try AtomicFile.write(Data("one".utf8), to: path, mode: 0o600)
    try AtomicFile.write(Data("two".utf8), to: path, mode: 0o600)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
    #expect(try WriteTarget.classify(path) == .replace(path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["file"])
  }

  @Test func atomicWritesLeaveTheNewContentAndSyncTheDirectory() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/file"
    try AtomicFile.write(Data("one".utf8), to: path)
    try AtomicFile.write(Data("two".utf8), to: path, mode: 0o600)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
    try AtomicFile.syncDirectory(directory.path)
    #expect(throws: DeckError.self) { try AtomicFile.syncDirectory(directory.path + "/missing") }
  }
}

import DeckCore
import Foundation
import SandboxLaunch
import TestFixtures
import Testing

/// How a command in the default environment finds deck-sandbox and tells its build: deck's own
/// file (symbolic links resolved), an executable check, and the program's identity, which
/// decides whether a running local sandbox is reused or replaced.
@Suite("Finding the server program and its build")
struct ProgramLookupTests {
  @Test func ownExecutableIsThisProgramsFileWithLinksResolved() throws {
    let own = try #require(LocalProcess.ownExecutable())
    #expect(own.hasPrefix("/"))
    #expect(own == URL(fileURLWithPath: own).resolvingSymlinksInPath().path)
    #expect(LocalProcess.isExecutableFile(own))
    let expected = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    #expect(own == expected)
  }

  @Test func onlyExecutableRegularFilesCount() throws {
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let program = directory + "/deck-sandbox"
    try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: program))
    #expect(!LocalProcess.isExecutableFile(program), "not executable yet")
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
    #expect(LocalProcess.isExecutableFile(program))
    #expect(!LocalProcess.isExecutableFile(directory), "a directory is searchable, not a program")
    #expect(!LocalProcess.isExecutableFile(directory + "/missing"))
  }

  @Test func aProgramsIdentityChangesWithItsFileNotWithItsName() throws {
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let program = directory + "/deck-sandbox"
    try Data("build one".utf8).write(to: URL(fileURLWithPath: program))
    let first = try #require(ProgramIdentity.of(program))
    #expect(ProgramIdentity.of(program) == first, "stable while the file is unchanged")
    // A hard link is the same file (how bench/ gives two deck builds one server program).
    try FileManager.default.linkItem(atPath: program, toPath: directory + "/linked")
    #expect(ProgramIdentity.of(directory + "/linked") == first)
    // A copy, or a new build installed over it, is another build.
    try FileManager.default.copyItem(atPath: program, toPath: directory + "/copy")
    #expect(ProgramIdentity.of(directory + "/copy") != first)
    try Data("build two, longer".utf8).write(to: URL(fileURLWithPath: directory + "/next"))
    #expect(rename(directory + "/next", program) == 0)
    #expect(ProgramIdentity.of(program) != first)
    #expect(ProgramIdentity.of(directory + "/missing") == nil)
  }

  private static func scratchDirectory() throws -> String {
    let directory = NSTemporaryDirectory() + "deck-lookup-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory
  }
}

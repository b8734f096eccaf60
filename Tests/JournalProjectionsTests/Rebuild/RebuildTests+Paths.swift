import Testing

@testable import JournalProjections

// MARK: - Paths

extension RebuildTests {
  @Test(arguments: [
    "Splits/01J0000000000000000000001.json",
    "Workouts/2026/01/01J0000000000000000000001.json",
    "Stubs/Workouts/2026/01/01J0000000000000000000001.json",
    "Stubs/Splits/a_b-c.json",
    "a/b/c/d/e/f/g/h",
    String(repeating: "a", count: 255),
  ])
  func safePaths(_ path: String) {
    #expect(RelativePath.isSafe(path))
  }

  @Test(arguments: [
    "", "/etc/passwd", "Splits/../../x.json", "Splits/./x.json", "Splits//x.json", "Splits/x.json/",
    "Splits/.hidden.json", "Splits/x\u{0}.json", "Splits/x y.json", "Splits/x\\y.json",
    "Splits/é.json", "..", "a/b/c/d/e/f/g/h/i", String(repeating: "a", count: 256), "/", "a/",
  ])
  func unsafePaths(_ path: String) {
    #expect(!RelativePath.isSafe(path))
  }

  @Test func pathsNameTheirFolderAndShard() {
    #expect(RelativePath.folder(of: "Workouts/2026/01/W1.json") == "Workouts/2026/01")
    #expect(RelativePath.folder(of: "W1.json") == "")
    #expect(RelativePath.folder(of: "é/ß.json") == "é")
    #expect(ProjectionManifest.shard(of: "Workouts/2026/01/W1.json") == "Workouts+2026+01")
    #expect(ProjectionManifest.shard(of: "Stubs/Splits/S1.json") == "Stubs+Splits")
    #expect(ProjectionManifest.shard(of: "Splits/S1.json") == "Splits")
    #expect(ProjectionManifest.shard(of: "top.json") == "+")
    #expect(ProjectionManifest.shard(of: "/top.json") == "+")
  }

  @Test func pathsNameTheirStream() {
    #expect(RelativePath.stream(of: "Splits/S1.json") == "split:S1")
    #expect(RelativePath.stream(of: "Stubs/Splits/S1.json") == "split:S1")
    #expect(RelativePath.stream(of: "Workouts/2026/01/W1.json") == "workout:W1")
    #expect(RelativePath.stream(of: "Stubs/Workouts/2026/01/W1.json") == "workout:W1")
    #expect(RelativePath.stream(of: "Workouts/W1.json") == nil)
    #expect(RelativePath.stream(of: "Notes.txt") == nil)
    #expect(RelativePath.stream(of: "Splits/.json") == nil)
    #expect(RelativePath.stream(of: "Splits/S1.txt") == nil)
    #expect(RelativePath.stream(of: "Workouts/2026/01/02/W1.json") == nil)
    #expect(RelativePath.stream(of: "Stubs/Stubs/Splits/S1.json") == nil)
    #expect(RelativePath.stream(of: "Other/2026/01/W1.json") == nil)
    #expect(RelativePath.stream(of: "Splits/é1.json") == "split:é1")
    #expect(RelativePath.stream(of: "Stubs/Workouts/2026/01/x.json.json") == "workout:x.json")
  }
}

import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RebuildTests {
  /// The machine's zone never reaches the documents: a workout's month folder
  /// and every date come from the events.
  @Suite(.serialized) struct MachineTimeZone {
    @Test func rebuildsUnderTwoZonesGiveTheSameTree() throws {
      var session = try RandomSession(seed: 5)
      for _ in 0..<150 { session.step() }
      let saved = ProcessInfo.processInfo.environment["TZ"]
      defer {
        if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
        tzset()
        NSTimeZone.resetSystemTimeZone()
      }
      var trees: [[String: Data]] = []
      for zone in ["Pacific/Kiritimati", "America/Adak"] {
        setenv("TZ", zone, 1)
        tzset()
        NSTimeZone.resetSystemTimeZone()
        #expect(TimeZone.current.identifier == zone)
        let out = try makeTemporaryDirectory("rebuild-tz")
        try Rebuild.run(journal: session.journal, output: out)
        trees.append(try documentFiles(in: out))
      }
      #expect(trees[0] == trees[1])
      #expect(trees[0].keys.contains { $0.hasPrefix("Workouts/") })
    }
  }
}

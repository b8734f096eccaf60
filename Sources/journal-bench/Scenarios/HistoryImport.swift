import Foundation
import JournalCore
import JournalProjections

// B14: importing ten years of another tracker's history (2,000 workouts, 60,000 sets in
// Strong's CSV) into an empty journal, against `journal export` writing the same history as
// CSV. Both are runs of the release `journal` binary, so each pays one process start and one
// read of its journal; the import also parses, plans and appends every event durably in one
// batch.

extension Bench {
  func historyImportScenario() throws {
    let binary = executableDirectory.appendingPathComponent("journal")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      report.log("B14: skipped: no '\(binary.path)'; build the 'journal' product too")
      return
    }
    let folder = try freshFolder("history-import")
    defer { try? FileManager.default.removeItem(at: folder) }
    let workouts = options.quick ? 200 : 2000
    let csv = Self.strongHistory(workouts: workouts, seed: options.seed)
    let file = folder.appendingPathComponent("strong.csv")
    try Data(csv.utf8).write(to: file)
    let sets = csv.split(separator: "\r\n").count - 1

    // The journal the export reads: the same history, imported once.
    let source = folder.appendingPathComponent("source")
    try Self.runProcess(binary, ["init", "--journal", source.path])
    try Self.runProcess(
      binary,
      ["import", file.path, "--journal", source.path, "--time-zone", "UTC"]
    )
    let exported = try Self.runProcess(binary, ["export", "--journal", source.path])
    let identical = exported == csv

    var run = 0
    let importing = {
      run += 1
      let journal = folder.appendingPathComponent("journal-\(run)")
      try Self.runProcess(binary, ["init", "--journal", journal.path])
      defer { try? FileManager.default.removeItem(at: journal) }
      return try time {
        try Self.runProcess(
          binary,
          ["import", file.path, "--journal", journal.path, "--time-zone", "UTC"]
        )
      }
    }
    let exporting = {
      try time { try Self.runProcess(binary, ["export", "--journal", source.path]) }
    }
    let samples = try measure(size: nil, [importing, exporting])
    report.add(
      Result(
        scenario: "B14",
        name: "import.strongHistory",
        subject: "journal import FILE.csv (\(workouts) workouts)",
        baseline: "journal export of the same history",
        ratios: ratios(samples[0], samples[1]),
        subjectSeconds: samples[0],
        baselineSeconds: samples[1],
        budget: .none,
        notes: [
          "\(sets) sets, \(csv.utf8.count / 1000) kB",
          "import \(formatSeconds(samples[0].median)), "
            + "\(formatCount(Double(sets) / samples[0].median)) sets/s",
          identical
            ? "export of the import = the file, byte for byte" : "export DIFFERS from the file",
        ]
      )
    )
  }

  /// Ten years of Strong's CSV export, as `journal export` writes it: `workouts` workouts of
  /// six exercises of five sets, every other day or so from 2016, the weights progressing.
  static func strongHistory(workouts: Int, seed: UInt64) -> String {
    var random = SplitMix64(seed: seed)
    let splits: [(String, [String])] = [
      ("Push", ["Bench Press", "Overhead Press", "Incline Press", "Dips", "Pushdown", "Raise"]),
      ("Pull", ["Deadlift", "Pull-up", "Barbell Row", "Face Pull", "Curl", "Shrug"]),
      ("Legs", ["Squat", "Romanian Deadlift", "Leg Press", "Lunge", "Leg Curl", "Calf Raise"]),
    ]
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.timeZone = TimeZone(secondsFromGMT: 0)
    format.dateFormat = "yyyy-MM-dd HH:mm:ss"
    var lines = [
      "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,"
        + "Workout Notes,RPE"
    ]
    var day = Date(timeIntervalSince1970: 1_451_638_800)  // 2016-01-01 09:00 UTC
    for index in 0..<workouts {
      day += 86_400 * Double(1 + random.next() % 3)
      let start = day + Double(random.next() % 36_000)
      let (name, exercises) = splits[index % splits.count]
      let minutes = 45 + Int(random.next() % 40)
      let duration = minutes >= 60 ? "\(minutes / 60)h \(minutes % 60)m" : "\(minutes)m"
      let date = format.string(from: start)
      for (number, exercise) in exercises.enumerated() {
        let base = 20 + 10 * Double(number) + Double(index / 20) * 2.5
        for set in 1...5 {
          let reps = 5 + Int(random.next() % 6)
          let weight = WeightUnit.number(base + 2.5 * Double(random.next() % 3))
          lines.append(
            "\(date),\(name),\(duration),\(exercise),\(set),\(weight),\(reps),0,0,,,"
          )
        }
      }
    }
    return lines.joined(separator: "\r\n") + "\r\n"
  }
}

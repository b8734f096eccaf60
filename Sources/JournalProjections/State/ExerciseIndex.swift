import Foundation
import JournalCore

/// What `records` and `chart` read from the saved state: for each exercise, the records and
/// the chart's point of every live workout that has it, summed up by year and over all years
/// (docs/OnDiskFormat.md, "The saved state").
///
/// The saved state keeps it in step with each workout's stream: a workout whose stream
/// changed is folded alone, its audit rows give its part of each exercise
/// (``ExerciseRecords/init(exercise:rows:)`` and ``Progression/init(exercise:rows:finished:)``
/// over that workout's rows), and the summaries of the years and exercises it touches are
/// merged again (``ExerciseRecords/merging(_:)``). An exercise is its key, the library name
/// else the display name (``AuditRow/exerciseKey``), with the display names its logs carry.
///
/// Files, under `exercises/` (`<key>` is the key's XXH64 in hex; every file ends with its
/// checksum):
/// - `<key>-<year>`: one line per live workout started that year (UTC) with a log of the
///   exercise: `<workout id><TAB><Entry as JSON>`;
/// - `<key>-<year>.points`: the chart's points of those workouts, oldest first, one a line:
///   `<date><TAB><workout id><TAB><top-set weight><TAB><best e1RM><TAB><1 when all
///   actual, else 0><TAB><time zone>`, each number the hex digits of its 64 bits (the date
///   in seconds since 2001, as Foundation counts);
/// - `<key>`: one line per year: `<year><TAB><Summary as JSON>`;
/// - `all`: one line per exercise: `<key><TAB><Summary as JSON>` over every year;
/// - `of/<bucket>`: for each workout, the `<key>-<year>` files that list it.
struct ExerciseIndex {
  /// One workout's part of one exercise.
  struct Entry: Codable, Equatable {
    /// The exercise's key.
    var exercise: String
    /// The display names of the workout's logs of the exercise.
    var names: [String]
    /// How many of its sets are not reverted: whether a chart has anything to draw.
    var rows: Int
    /// The records its recorded sets set, nil without any.
    var records: ExerciseRecords?
    /// Its point on the exercise's chart, nil when no log of it is finished.
    var point: Progression.Point?
  }

  /// Several workouts' parts of one exercise.
  struct Summary: Codable, Equatable {
    var exercise: String
    /// The display names of its logs, sorted.
    var names: [String]
    var rows: Int
    var records: ExerciseRecords?

    /// The summary of `parts` of `exercise`.
    init(exercise: String, parts: [Entry]) {
      self.exercise = exercise
      names = Array(Set(parts.flatMap(\.names))).sorted()
      rows = parts.reduce(0) { $0 + $1.rows }
      records = ExerciseRecords.merging(parts.compactMap(\.records))
    }

    /// The summary of several summaries of `exercise`.
    init(exercise: String, summaries: [Summary]) {
      self.exercise = exercise
      names = Array(Set(summaries.flatMap(\.names))).sorted()
      rows = summaries.reduce(0) { $0 + $1.rows }
      records = ExerciseRecords.merging(summaries.compactMap(\.records))
    }

    /// Whether every set of this exercise matches `name` (display or library name, ignoring
    /// case), and whether any does.
    func match(_ name: String) -> (any: Bool, every: Bool) {
      let same = { (other: String) in other.caseInsensitiveCompare(name) == .orderedSame }
      if same(exercise) { return (true, true) }
      let matching = names.filter(same).count
      return (matching > 0, matching == names.count)
    }
  }

  /// A workout's part of each exercise it has, by exercise key, from `state` (the fold of
  /// that workout's stream) and `history` (the events folded).
  static func entries(in state: JournalState, history: [FoldEvent]) -> [String: Entry] {
    var entries: [String: Entry] = [:]
    for workout in state.liveWorkouts {
      for log in workout.document.logs {
        let key = log.libraryName ?? log.exerciseName
        var entry = entries[key] ?? Entry(exercise: key, names: [], rows: 0)
        if !entry.names.contains(log.exerciseName) { entry.names.append(log.exerciseName) }
        entries[key] = entry
      }
    }
    guard !entries.isEmpty else { return entries }
    for key in entries.keys { entries[key]?.names.sort() }
    let audit = Audit(state: state, history: history, filter: AuditFilter(includeReverted: false))
    let finished = Audit.finishedLogs(in: state)
    let rowsByKey = Dictionary(grouping: audit.rows, by: \.exerciseKey)
    for (key, rows) in rowsByKey {
      var entry = entries[key] ?? Entry(exercise: key, names: [], rows: 0)
      entry.rows = rows.count
      entry.records = ExerciseRecords.all(from: rows).first
      entry.point = Progression(exercise: key, rows: rows, finished: finished).points.first
      entries[key] = entry
    }
    return entries
  }

  /// The file name of an exercise key.
  static func file(of key: String) -> String {
    XXH64.hex(Array(key.utf8))
  }

  // MARK: - Keeping it

  /// Writes the parts of the workouts in `changed` (by workout id: its entries by exercise
  /// key, none for a workout no longer live) started in the years `years` names, and merges
  /// the summaries they touch again.
  static func update(
    _ changed: [String: [String: Entry]],
    years: [String: Int],
    files: any StateFiles
  ) throws {
    guard !changed.isEmpty else { return }
    var placed = SavedState.BucketedMap(files: files, folder: "exercises/of")
    // Each bucket's lines by workout: the bytes, and the entry when it was just made.
    var buckets: [String: [String: (bytes: [UInt8], entry: Entry?)]] = [:]
    var changedBuckets: Set<String> = []
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    func load(_ name: String) throws {
      guard buckets[name] == nil else { return }
      var held: [String: (bytes: [UInt8], entry: Entry?)] = [:]
      for (workout, bytes) in try lines(of: "exercises/" + name, files: files) {
        if let bytes { held[workout] = (bytes, nil) }
      }
      buckets[name] = held
    }
    for (workout, entries) in changed.sorted(by: { $0.key < $1.key }) {
      let old = try placed.values(of: workout)
      var new: [String] = []
      for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
        guard let year = years[workout] else { continue }
        let name = "\(file(of: key))-\(year)"
        new.append(name)
        try load(name)
        let bytes = Array(try encoder.encode(entry))
        if buckets[name]?[workout]?.bytes != bytes {
          buckets[name]?[workout] = (bytes, entry)
          changedBuckets.insert(name)
        }
      }
      for name in old where !new.contains(name) {
        try load(name)
        buckets[name]?[workout] = nil
        changedBuckets.insert(name)
      }
      if old != new { try placed.set(workout, new) }
    }
    try placed.save()
    guard !changedBuckets.isEmpty else { return }

    let decoder = JSONDecoder()
    // Each changed year: its file, and its line in the exercise's file.
    var years: [String: [String: [UInt8]?]] = [:]
    for name in changedBuckets.sorted() {
      let held = buckets[name] ?? [:]
      var body: [UInt8] = []
      var parts: [Entry] = []
      for workout in held.keys.sorted() {
        guard let (bytes, entry) = held[workout] else { continue }
        body += Array(workout.utf8) + [UInt8(ascii: "\t")] + bytes + [UInt8(ascii: "\n")]
        parts.append(try entry ?? decode(Entry.self, bytes, decoder, "exercises/\(name)"))
      }
      let dash = name.lastIndex(of: "-") ?? name.endIndex
      let keyFile = String(name[..<dash])
      let year = String(name[name.index(after: dash)...])
      if parts.isEmpty {
        try files.remove("exercises/" + name)
        try files.remove("exercises/\(name).points")
        years[keyFile, default: [:]][year] = .some(nil)
        continue
      }
      try SavedState.write(files, "exercises/" + name, body)
      let points = parts.compactMap(\.point).sorted {
        ($0.date, $0.workoutID) < ($1.date, $1.workoutID)
      }
      try SavedState.write(files, "exercises/\(name).points", encoded(points))
      let summary = Summary(exercise: parts[0].exercise, parts: parts)
      years[keyFile, default: [:]][year] = .some(Array(try encoder.encode(summary)))
    }

    // Each touched exercise: its years, and its line in `all`.
    var all = try lines(of: "exercises/all", files: files)
    for (keyFile, changedYears) in years.sorted(by: { $0.key < $1.key }) {
      var held = try lines(of: "exercises/" + keyFile, files: files)
      for (year, bytes) in changedYears { held[year] = .some(bytes) }
      held = held.filter { $0.value != nil }
      guard !held.isEmpty else {
        try files.remove("exercises/" + keyFile)
        all[keyFile] = nil
        continue
      }
      try SavedState.write(files, "exercises/" + keyFile, joined(held))
      let summaries = try held.values.compactMap { $0 }.map {
        try decode(Summary.self, $0, decoder, "exercises/\(keyFile)")
      }
      all[keyFile] = Array(
        try encoder.encode(Summary(exercise: summaries[0].exercise, summaries: summaries))
      )
    }
    try SavedState.write(files, "exercises/all", joined(all.filter { $0.value != nil }))
  }

  // MARK: - Reading it

  /// The summary of every exercise over every year, by key, sorted by key.
  static func exercises(files: any StateFiles) throws -> [Summary] {
    let decoder = JSONDecoder()
    return try lines(of: "exercises/all", files: files).values.compactMap { $0 }
      .map { try decode(Summary.self, $0, decoder, "exercises/all") }
      .sorted { $0.exercise < $1.exercise }
  }

  /// The index as the reads of records and charts use it.
  struct Reader {
    let files: any StateFiles
    /// The saved state, whose live splits' exercises are known by name too.
    let state: SavedState

    /// The exercise name `reference` resolves to, by the one naming rule, and the exercises
    /// with a set that matches it.
    func resolve(_ reference: String) throws -> (name: String, exercises: [Summary]) {
      let all = try ExerciseIndex.exercises(files: files)
      var lifted: Set<String> = []
      for summary in all {
        lifted.insert(summary.exercise)
        lifted.formUnion(summary.names)
      }
      let splits = try state.liveSplits()
      let name = try JournalState.exerciseName(reference, splits: splits, lifted: lifted)
      return (name, all.filter { $0.match(name).any })
    }

    /// Every exercise, or those `reference` names.
    ///
    /// - Throws: ``ScopeTooNarrow`` when the name matches some sets of an exercise and not
    ///   others (its logs have several display names): the summaries cannot tell them apart.
    func exercises(named reference: String?) throws -> [Summary] {
      guard let reference else { return try ExerciseIndex.exercises(files: files) }
      let (name, matched) = try resolve(reference)
      guard matched.allSatisfy({ $0.match(name).every }) else { throw ScopeTooNarrow() }
      return matched
    }

    /// The chart's points of the exercise `key`, oldest first; only the newest `newest`
    /// when it is given, read from the newest year back.
    func points(of key: String, newest: Int? = nil) throws -> [Progression.Point] {
      let name = "exercises/" + file(of: key)
      var years: [[Progression.Point]] = []
      var count = 0
      for year in try lines(of: name, files: files).keys.compactMap(Int.init).sorted().reversed() {
        if let newest, count >= newest { break }
        let points = try ExerciseIndex.points("\(name)-\(year).points", files: files)
        count += points.count
        years.append(points)
      }
      let points = Array(years.reversed().joined())
      return newest.map { Array(points.suffix($0)) } ?? points
    }
  }

  // MARK: - Files

  /// The lines of a `.points` file: each number as the hex digits of its bits, which read
  /// back exactly and fast.
  static func encoded(_ points: [Progression.Point]) -> [UInt8] {
    func bits(_ value: Double) -> String { String(value.bitPattern, radix: 16) }
    var text = ""
    for p in points {
      text += "\(bits(p.date.timeIntervalSinceReferenceDate))\t\(p.workoutID)\t"
      text += "\(bits(p.topSetWeight))\t\(bits(p.bestEstimatedOneRepMax))\t"
      text += "\(p.isAllActual ? 1 : 0)\t\(p.timeZone)\n"
    }
    return Array(text.utf8)
  }

  /// The number whose bits `digits` spell in hex (``encoded(_:)``); nil when they do not.
  static func number(_ digits: ArraySlice<UInt8>) -> Double? {
    guard !digits.isEmpty, digits.count <= 16 else { return nil }
    var bits: UInt64 = 0
    for byte in digits {
      let value: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
      default: return nil
      }
      bits = bits << 4 | UInt64(value)
    }
    return Double(bitPattern: bits)
  }

  /// The points of a `.points` file (``encoded(_:)``), read field by field: a chart reads
  /// thousands of them.
  static func points(_ relative: String, files: any StateFiles) throws -> [Progression.Point] {
    guard let bytes = try files.read(relative) else { return [] }
    guard let body = SavedState.checked(bytes) else {
      throw SavedState.Untrusted(reason: "'\(relative)' does not match its checksum")
    }
    let unreadable = SavedState.Untrusted(reason: "'\(relative)' holds an unreadable line")
    var points: [Progression.Point] = []
    var fields: [ArraySlice<UInt8>] = []
    var start = body.startIndex
    for index in body.indices {
      let byte = body[index]
      guard byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") else { continue }
      fields.append(body[start..<index])
      start = index + 1
      guard byte == UInt8(ascii: "\n") else { continue }
      guard fields.count == 6, let seconds = number(fields[0]), let top = number(fields[2]),
        let e1rm = number(fields[3])
      else { throw unreadable }
      points.append(
        Progression.Point(
          date: Date(timeIntervalSinceReferenceDate: seconds),
          timeZone: String(decoding: fields[5], as: UTF8.self),
          workoutID: String(decoding: fields[1], as: UTF8.self),
          topSetWeight: top,
          bestEstimatedOneRepMax: e1rm,
          isAllActual: fields[4].elementsEqual([UInt8(ascii: "1")])
        )
      )
      fields.removeAll(keepingCapacity: true)
    }
    guard fields.isEmpty, start == body.endIndex else { throw unreadable }
    return points
  }

  private static func decode<T: Decodable>(
    _ type: T.Type,
    _ bytes: [UInt8],
    _ decoder: JSONDecoder,
    _ file: String
  ) throws -> T {
    do {
      return try decoder.decode(type, from: Data(bytes))
    } catch {
      throw SavedState.Untrusted(reason: "'\(file)' holds an unreadable line")
    }
  }

  /// The lines of a file of the index, without its checksum line; none when it is missing.
  private static func readLines(
    _ relative: String,
    files: any StateFiles
  ) throws
    -> [ArraySlice<UInt8>]
  {
    guard let bytes = try files.read(relative) else { return [] }
    guard let body = SavedState.checked(bytes) else {
      throw SavedState.Untrusted(reason: "'\(relative)' does not match its checksum")
    }
    return body.split(separator: UInt8(ascii: "\n"))
  }

  /// A file of `<name><TAB><JSON>` lines, by name.
  private static func lines(
    of relative: String,
    files: any StateFiles
  ) throws
    -> [String: [UInt8]?]
  {
    var held: [String: [UInt8]?] = [:]
    for line in try readLines(relative, files: files) {
      guard let tab = line.firstIndex(of: UInt8(ascii: "\t")) else {
        throw SavedState.Untrusted(reason: "'\(relative)' holds an unreadable line")
      }
      held[String(decoding: line[..<tab], as: UTF8.self)] = Array(line[(tab + 1)...])
    }
    return held
  }

  private static func joined(_ lines: [String: [UInt8]?]) -> [UInt8] {
    var body: [UInt8] = []
    for (name, bytes) in lines.sorted(by: { $0.key < $1.key }) {
      guard let bytes else { continue }
      body += Array(name.utf8) + [UInt8(ascii: "\t")] + bytes + [UInt8(ascii: "\n")]
    }
    return body
  }
}

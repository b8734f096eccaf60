/// "Did you mean …?" for a mistyped command or option, as git suggests one.
///
/// The distance is the optimal string alignment distance (insertions,
/// deletions, substitutions and transpositions of two neighbours each cost 1),
/// compared without case. A candidate is suggested when it is within a third of
/// the typed word's length (at least 1, at most 3), or when the typed word is a
/// prefix of it; every candidate at the smallest distance is offered.
enum Suggestions {
  /// The candidates nearest to `typed`, best first, or none when nothing is near.
  static func nearest(to typed: String, among candidates: [String]) -> [String] {
    let word = Array(typed.lowercased())
    guard !word.isEmpty else { return [] }
    let limit = min(3, max(1, word.count / 3))
    var best: [String] = []
    var bestDistance = Int.max
    for candidate in Set(candidates).sorted() {
      let lower = Array(candidate.lowercased())
      var distance = Self.distance(word, lower)
      if distance > limit {
        guard lower.starts(with: word) else { continue }
        distance = limit
      }
      if distance < bestDistance {
        best = [candidate]
        bestDistance = distance
      } else if distance == bestDistance {
        best.append(candidate)
      }
    }
    return best
  }

  /// A `hint:` text naming the suggestions, or nil when there are none.
  static func hint(for typed: String, among candidates: [String]) -> String? {
    let found = nearest(to: typed, among: candidates)
    guard !found.isEmpty else { return nil }
    let names = found.map { "'\($0)'" }
    if names.count == 1 { return "did you mean \(names[0])?" }
    return "did you mean one of \(names.joined(separator: ", "))?"
  }

  /// The optimal string alignment distance between `a` and `b`.
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    let width = b.count + 1
    var rows = [Int](repeating: 0, count: (a.count + 1) * width)
    for i in 0...a.count { rows[i * width] = i }
    for j in 0...b.count { rows[j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(
          rows[(i - 1) * width + j] + 1,
          rows[i * width + j - 1] + 1,
          rows[(i - 1) * width + j - 1] + cost
        )
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, rows[(i - 2) * width + j - 2] + 1)
        }
        rows[i * width + j] = value
      }
    }
    return rows[a.count * width + b.count]
  }
}

/// The answers a question about a record's type and version gave for the last eight pairs
/// asked, so that a pass over records asks once per run of a type rather than per record: a
/// journal has a few types, which take turns (a log started, its sets, the log completed).
///
/// Pairs are looked for by identity first (`String.isIdentical(to:)`: the types of a run's
/// records share their storage, or are inline), then by text. A ninth pair pushes out the
/// oldest.
struct RecentTypeAnswers {
  private var answers = RecentRing<(type: String, version: Int, answer: Bool)>(capacity: 8)

  /// The answer for `type` at `version`: remembered, else `ask`'s, remembered from then on.
  ///
  /// Inlined where it is called: called, it cost every record a call through a closure
  /// (1.3 M more instructions in a replay of 10k events).
  @inline(__always)
  mutating func answer(
    _ type: String,
    _ version: Int,
    ask: (String, Int) -> Bool
  ) -> Bool {
    if let known =
      answers.elements.first(where: { $0.version == version && $0.type.isIdentical(to: type) })
      ?? answers.elements.first(where: { $0.version == version && $0.type == type })
    {
      return known.answer
    }
    let answer = ask(type, version)
    answers.keep((type, version, answer))
    return answer
  }
}

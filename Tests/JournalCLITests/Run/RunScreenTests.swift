import Foundation
import JournalTestSupport
import Testing

@testable import JournalCLI
@testable import JournalProjections

/// The screen of `journal run` and its loop: every page fits 80×24, shows its keys, and
/// carries no escape sequence without colour; the loop runs a workout from scripted keys on
/// a virtual clock.
@Suite struct RunScreenTests {
  /// Runs the loop over `script` (seconds to wait, then a key), drawing each frame at 80×24.
  static func runLoop(
    _ f: inout RunFlowTests.Fixture,
    _ script: [(TimeInterval, RunKey)],
    color: Bool = false
  ) throws -> [[String]] {
    var script = script
    var frames: [[String]] = []
    var clock = f.now
    let runner = f.runner
    try RunLoop.run(
      &f.flow,
      journal: runner,
      clock: { clock },
      draw: { flow, time in
        frames.append(RunScreen.lines(flow, at: time, width: 80, height: 24, color: color))
        _ = flow.takeBells()
      },
      nextKey: { timeout in
        guard let (delay, key) = script.first else { return .closed }
        if delay <= timeout {
          clock += delay
          script.removeFirst()
          return .key(key)
        }
        script[0].0 = delay - timeout
        clock += timeout
        return nil
      }
    )
    f.now = clock
    return frames
  }

  /// A whole workout: Bench's two sets, Done, Plank's timed set, Done, then leave.
  static let wholeWorkout: [(TimeInterval, RunKey)] = [
    (1, .enter), (1, .enter), (5, .character("+")), (25, .enter), (70, .enter),
    (2, .character("d")), (1, .enter), (1, .enter), (32, .enter), (2, .enter), (1, .enter),
  ]

  @Test func theLoopRunsAWholeWorkoutFromScriptedKeys() throws {
    var f = try RunFlowTests.Fixture()
    let frames = try Self.runLoop(&f, Self.wholeWorkout)
    #expect(f.flow.page == .left)
    #expect(f.document.status == .completed)
    #expect(f.document.logs.map { $0.setEntries?.count ?? 0 } == [2, 1])
    #expect(f.document.logs[0].setEntries?.first?.reps == 6)
    // Each set is recorded with the start of its work.
    let starts = f.flow.workout.provenance.values.flatMap { $0 }.map(\.startedAt)
    #expect(starts.count == 3 && starts.allSatisfy { $0 != nil })
    #expect(frames.contains { $0.contains { $0.hasPrefix("REST") } })
    #expect(frames.contains { $0.contains { $0.hasPrefix("FINISH") } })
  }

  @Test func everyFrameFits80By24AndShowsItsKeys() throws {
    var f = try RunFlowTests.Fixture()
    let frames = try Self.runLoop(&f, Self.wholeWorkout)
    #expect(!frames.isEmpty)
    for frame in frames {
      #expect(frame.count == 24)
      #expect(frame.allSatisfy { $0.count <= 80 }, "\(frame)")
      #expect(frame.allSatisfy { !$0.contains("\u{1B}") })
      let text = frame.joined(separator: "\n")
      for key in ["u undo", "q leave"] { #expect(text.contains(key), "\(frame)") }
    }
    let work = try #require(frames.first { $0.contains { $0.hasPrefix("WORK") } })
    let keys = work.suffix(3).joined(separator: " ")
    for key in ["Enter confirm", "m One More", "d Done", "s skip", "r reset", "e end"] {
      #expect(keys.contains(key), "\(keys)")
    }
  }

  @Test func colourIsOnlyEscapeSequencesAroundTheSameText() throws {
    var plain = try RunFlowTests.Fixture()
    var coloured = try RunFlowTests.Fixture()
    let a = try Self.runLoop(&plain, Self.wholeWorkout)
    let b = try Self.runLoop(&coloured, Self.wholeWorkout, color: true)
    #expect(b.joined().contains { $0.contains("\u{1B}[") })
    let stripped = b.map { $0.map(Self.strip) }
    // The rest's last seconds flash in reverse video with colour, with stars without.
    #expect(stripped.count == a.count)
    for (x, y) in zip(a, stripped) {
      let unflashed = x.map {
        $0.replacingOccurrences(of: "*** ", with: "").replacingOccurrences(of: " ***", with: "")
      }
      #expect(unflashed == y)
    }
  }

  @Test func aNarrowShortWindowStillFits() throws {
    var f = try RunFlowTests.Fixture()
    try f.press(.enter)
    try f.press(.enter)
    let lines = RunScreen.lines(f.flow, at: f.now, width: 40, height: 10, color: false)
    #expect(lines.count == 10 && lines.allSatisfy { $0.count <= 40 })
  }

  /// `text` without its `ESC [ … m` sequences.
  static func strip(_ text: String) -> String {
    var result = ""
    var inEscape = false
    for character in text {
      if character == "\u{1B}" { inEscape = true }
      if !inEscape { result.append(character) }
      if inEscape, character == "m" { inEscape = false }
    }
    return result
  }
}

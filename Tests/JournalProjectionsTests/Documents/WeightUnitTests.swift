import JournalProjections
import Testing

@Suite struct WeightUnitTests {
  @Test(arguments: [
    (WeightUnit.lb, 45.0, "45 lb"),
    (.kg, 42.5, "42.5 kg"),
    (.lb, 0, "0 lb"),
    (.kg, -0.0, "0 kg"),
    (.lb, 2.25, "2.25 lb"),
    (.kg, 0.1, "0.1 kg"),
    (.lb, -2.5, "-2.5 lb"),
    (.lb, 1_000_000, "1000000 lb"),
    (.kg, 999_999_999_999_999, "999999999999999 kg"),
    (.kg, 1e15, "1000000000000000 kg"),
    (.lb, 9_007_199_254_740_992, "9007199254740992 lb"),
    (.lb, 1e16, "1e+16 lb"),
    (.kg, 1e-5, "1e-05 kg"),
    (.lb, 1234.5678, "1234.5678 lb"),
  ])
  func format(unit: WeightUnit, value: Double, expected: String) {
    #expect(unit.format(value) == expected)
  }

  @Test func rawValuesAreTheAbbreviations() {
    #expect(WeightUnit.allCases.map(\.rawValue) == ["lb", "kg"])
  }
}

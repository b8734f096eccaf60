// swift-tools-version:6.2
import PackageDescription

// The one module allowed the x86-64 SSE 4.2 and SHA instructions (CRC-32C and SHA-256 in
// hardware). It asks the processor at run time before using them, and gives way to the portable
// code elsewhere; on other architectures it is built without them. See docs/Performance.md.
#if arch(x86_64)
let processorHashingSettings: [SwiftSetting] = [
  .define("X86_HASHING_INSTRUCTIONS"),
  .unsafeFlags(["-Xcc", "-msse4.2", "-Xcc", "-msha"]),
]
#else
let processorHashingSettings: [SwiftSetting] = []
#endif

let package = Package(
  name: "workout-journal",
  products: [
    .library(name: "JournalCore", targets: ["JournalCore"]),
    .library(name: "JournalProjections", targets: ["JournalProjections"]),
    .executable(name: "journal", targets: ["journal"]),
  ],
  targets: [
    // Libraries
    // SHA-256 and CRC-32C by the processor's instructions, where it has them.
    .target(name: "ProcessorHashing", swiftSettings: processorHashingSettings),
    // Storage: JSON values, records, clocks, hashing, the append-only log.
    .target(name: "JournalCore", dependencies: ["ProcessorHashing"]),
    // Documents, events, the fold, validation, rebuild.
    .target(name: "JournalProjections", dependencies: ["JournalCore"]),
    // The deterministic sample journal (`journal sample`): not part of the library products.
    .target(name: "JournalSample", dependencies: ["JournalCore", "JournalProjections"]),
    // The command line's commands and output, so they can be tested in-process.
    .target(
      name: "JournalCLI",
      dependencies: ["JournalCore", "JournalProjections", "JournalSample"]
    ),

    // Executables
    .executableTarget(name: "journal", dependencies: ["JournalCLI"]),
    // Benchmarks against the machine's limits and Foundation (docs/Performance.md).
    .executableTarget(
      name: "journal-bench",
      dependencies: ["JournalCore", "JournalProjections", "JournalSample"]
    ),

    // Test support (not a product)
    .target(
      name: "JournalTestSupport",
      dependencies: ["JournalCore", "JournalProjections"],
      path: "Tests/JournalTestSupport"
    ),

    // Tests: one target per library target (the sample generator's tests are among the
    // projections', which they exercise)
    .testTarget(
      name: "JournalCoreTests",
      // ProcessorHashing's paths are tested beside the portable ones they stand in for.
      dependencies: ["JournalCore", "ProcessorHashing", "JournalTestSupport"],
      exclude: ["Vectors"]
    ),
    .testTarget(
      name: "JournalProjectionsTests",
      dependencies: ["JournalProjections", "JournalSample", "JournalTestSupport"],
      exclude: ["Golden"]
    ),
    .testTarget(
      name: "JournalCLITests",
      // "journal" so the binary is built for the end-to-end tests.
      dependencies: ["JournalCLI", "JournalSample", "journal", "JournalTestSupport"],
      exclude: ["Golden"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}

#if X86_HASHING_INSTRUCTIONS
internal import _Builtin_intrinsics.intel
internal import _Builtin_intrinsics.intel.cpuid
#endif

/// SHA-256 and CRC-32C by the processor's own instructions, where it has them.
///
/// The journal hashes every line it writes (SHA-256, the chain) and checks the CRC-32C of
/// every line it reads. x86-64 processors have instructions for both: `crc32` (SSE 4.2) and
/// the SHA extensions (`sha256rnds2`, `sha256msg1`, `sha256msg2`). This module is the only
/// one compiled with permission to use them (the package passes `-msse4.2 -msha` to it, and
/// defines `X86_HASHING_INSTRUCTIONS`, on x86-64 hosts); it asks the processor with `cpuid`
/// once whether it has them, and each function does nothing but return `false` (or nil) where
/// it does not, or where the build has no such instructions (other architectures). Callers keep
/// their portable implementation for those cases: `SHA256` and `CRC32C` in JournalCore.
///
/// Both paths give the same bits; the tests compare them on every length up to a few blocks.
public enum ProcessorHashing {
  /// Whether ``sha256Compress(_:blocks:count:)`` uses the processor's SHA-256 instructions.
  public static var hasSHA256: Bool { features.sha256 }

  /// Whether ``crc32c(_:_:)`` uses the processor's CRC-32C instruction.
  public static var hasCRC32C: Bool { features.crc32c }

  /// What this processor has, asked once.
  private static let features = Features.current

  private struct Features {
    var sha256 = false
    var crc32c = false

    static var current: Features {
      #if X86_HASHING_INSTRUCTIONS
      var features = Features()
      var eax: UInt32 = 0
      var ebx: UInt32 = 0
      var ecx: UInt32 = 0
      var edx: UInt32 = 0
      guard __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 else { return features }
      // Leaf 1, ECX: bit 9 SSSE3, bit 19 SSE 4.1, bit 20 SSE 4.2 (the module may use all three).
      let sse = ecx & (1 << 9) != 0 && ecx & (1 << 19) != 0 && ecx & (1 << 20) != 0
      features.crc32c = sse
      // Leaf 7, sub-leaf 0, EBX bit 29: the SHA extensions.
      if sse, __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0 {
        features.sha256 = ebx & (1 << 29) != 0
      }
      return features
      #else
      return Features()
      #endif
    }
  }
}

#if canImport(Glibc)
import Glibc
#endif

/// True when the long tests are asked for (`REFRESHLAB_LONG_TESTS=1`: `make test-all` and CI). They are the end-to-end
/// runs of the debug executable with every frame written, the captures through ffmpeg, the signals sent to a run and
/// the exhaustive random sweeps; without them `make test` stays a few minutes from a fresh clone, and they are
/// reported as skipped, never passed.
public let longTestsEnabled: Bool = getenv("REFRESHLAB_LONG_TESTS").map { String(cString: $0) == "1" } ?? false


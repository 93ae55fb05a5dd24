#if canImport(Glibc)
import Glibc
#endif

/// True when the tests run under AddressSanitizer (`swift test --sanitize=address`): its runtime is in the process.
public let runsUnderAddressSanitizer = dlsym(nil, "__asan_init") != nil

/// How many times longer the time limits of tests are: AddressSanitizer runs code two to five times slower, and a
/// limit is there to catch a hang or a quadratic cost, not to time a sanitized build.
public let timeLimitScale = runsUnderAddressSanitizer ? 4.0 : 1.0

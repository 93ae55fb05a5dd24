// The entry point of each test executable in the CMake build; SwiftPM provides its own, so Package.swift leaves this
// file out. Arguments are Swift Testing's (for example `--filter`); the exit code is the suite's.
import Testing

@main
struct CMakeTestRunner {
    static func main() async {
        await Testing.__swiftPMEntryPoint() as Never
    }
}

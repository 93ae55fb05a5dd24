#if canImport(Glibc)
import Glibc
#endif
import RasterKernels
import RasterKernelsAVX2
import RasterKernelsAVX512

/// The instruction sets a fill can run with: the same code compiled for each (see `FillPipeline`), the widest
/// that the CPU has chosen once, at start-up. Every path gives the same pixels; the tests run each one.
public enum FillPath: String, CaseIterable, Sendable, Comparable {
    /// The base x86-64 level, SSE2: runs on any CPU.
    case portable
    /// Haswell and later: AVX2, FMA, BMI1/2, F16C, MOVBE, LZCNT, POPCNT.
    case avx2
    /// Skylake-X and later: AVX-512 F, CD, BW, DQ and VL on top of AVX2.
    case avx512

    /// The CPU flags (as Linux names them in /proc/cpuinfo) that a path needs.
    var requiredFlags: [String] {
        let haswell = ["avx", "avx2", "fma", "bmi1", "bmi2", "f16c", "movbe", "abm", "popcnt"]
        switch self {
        case .portable: return []
        case .avx2: return haswell
        case .avx512: return haswell + ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]
        }
    }

    /// The paths this CPU can run, narrowest first; always holds `portable`.
    static let available: [FillPath] = {
        let flags = cpuFlags()
        return allCases.filter { $0.requiredFlags.allSatisfy(flags.contains) }
    }()

    /// The path fills take: the widest available, or the one `REFRESHLAB_FILL_PATH` names (`portable`, `avx2`,
    /// `avx512`) when the CPU can run it, to compare paths on one machine.
    public static let best: FillPath = {
        if let name = getenv("REFRESHLAB_FILL_PATH").map({ String(cString: $0) }), let asked = FillPath(rawValue: name),
           available.contains(asked) {
            return asked
        }
        return available.last ?? .portable
    }()

    /// This path if the CPU can run it, else the widest narrower one that it can.
    var runnable: FillPath {
        FillPath.available.last { $0 <= self } ?? .portable
    }

    var pipeline: any FillPipeline.Type {
        #if arch(x86_64)
        switch self {
        case .portable: return PortableFill.self
        case .avx2: return AVX2Fill.self
        case .avx512: return AVX512Fill.self
        }
        #else
        return PortableFill.self
        #endif
    }

    public static func < (a: FillPath, b: FillPath) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The words of the first `flags` line of /proc/cpuinfo; empty where there is none (another system, or an
    /// architecture other than x86-64), which leaves only the portable path.
    static func cpuFlags() -> Set<String> {
        #if arch(x86_64) && canImport(Glibc)
        guard let file = fopen("/proc/cpuinfo", "r") else { return [] }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            guard text.hasPrefix("flags") else { continue }
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == ":" })
            return Set(words.dropFirst().map(String.init))
        }
        #endif
        return []
    }
}

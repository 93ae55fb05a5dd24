#if canImport(Glibc)
import Glibc
#endif

/// Where a test target keeps its golden PNGs, and whether this run writes them instead of comparing: one switch,
/// `REFRESHLAB_UPDATE_GOLDENS=1` (any value but empty or "0"), for every target's goldens.
public enum GoldenFiles {
    /// The `Goldens` folder beside the source file `filePath` (pass `#filePath`).
    public static func directory(besides filePath: String) -> String {
        String(filePath[..<filePath.lastIndex(of: "/")!]) + "/Goldens"
    }

    /// True when the run writes the goldens instead of comparing.
    public static var isUpdating: Bool {
        guard let value = getenv("REFRESHLAB_UPDATE_GOLDENS") else { return false }
        let text = String(cString: value)
        return !text.isEmpty && text != "0"
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import Refresh
import UserFiles

/// Reads the image-sequence header's pictures from `--animation FILE|DIR`.
///
/// - A `.gif` file: its frames, each with its own delay, for every state.
/// - A folder of PNG files (`frame-001.png`, `frame-2.png`, …): sorted by the last number in their names, then by
///   name; 0.1 s each; for every state.
/// - A folder with `idle`, `pulling` and `refreshing` entries, each a folder of PNGs or a GIF (`idle.gif`): a
///   sequence per state, as MJRefreshGifHeader's `setImages:forState:`; a state left out shows idle's.
///
/// Every failure is a `LabError` naming the file at fault.
public enum AnimationFiles {
    /// The most frames an animation may have, over all its states and files: more is surely not a header
    /// animation. The same as a GIF's own cap.
    static let maxFrames = GIF.maxFrames
    /// The most pixels an animation may decode to, over all its states and files (256 MB): one PNG's limit.
    static let maxPixels = PNG.maxPixels

    /// What an animation's files may still decode to, taken from as each is read.
    struct Budget {
        var pixels = AnimationFiles.maxPixels
        var frames = AnimationFiles.maxFrames

        /// Whether earlier files spent some of it, for messages.
        var isSpent: Bool { pixels < AnimationFiles.maxPixels || frames < AnimationFiles.maxFrames }

        mutating func spend(_ images: ImageSequence) {
            frames -= images.images.count
            pixels -= images.images.reduce(0) { $0 + $1.width * $1.height }
        }
    }
    /// The default animation under `Resources/`, made by RefreshLab's own rasterizer.
    public static let defaultResource = "animations/refresh"

    /// The pictures at `path`.
    public static func load(_ path: String) throws -> GifHeaderImages {
        var budget = Budget()
        if isDirectory(path) {
            var given: [GifHeaderState: ImageSequence] = [:]
            for state in GifHeaderState.allCases {
                let folder = path + "/" + state.rawValue
                if isDirectory(folder) {
                    given[state] = try pngFolder(folder, budget: &budget)
                } else if exists(folder + ".gif") {
                    given[state] = try gif(folder + ".gif", budget: &budget)
                }
            }
            if given.isEmpty { return GifHeaderImages(try pngFolder(path, budget: &budget)) }
            // Each given sequence has at least one image, so there is a fallback.
            return GifHeaderImages(given)!
        }
        guard exists(path) else { throw LabError("cannot read the animation '\(path)': no such file or folder") }
        return GifHeaderImages(try gif(path, budget: &budget))
    }

    static func gif(_ path: String, budget: inout Budget) throws -> ImageSequence {
        do {
            let animation = try GIF.read(from: path, maxPixels: budget.pixels, maxFrames: budget.frames)
            let images = ImageSequence(images: animation.frames, delays: animation.delays)
            budget.spend(images)
            return images
        } catch let error as GIFError {
            throw LabError(error.description + (budget.isSpent ? sharedBudget : ""))
        }
    }

    /// Said of a file over a limit that the files before it shared.
    static let sharedBudget = " (the animation's states count together towards the \(maxFrames) frames and "
        + "\(maxPixels) pixels allowed)"

    /// The PNG files directly in `folder`, in numeric order, decoded; the pixels of all of them together are
    /// bounded as one PNG's.
    static func pngFolder(_ folder: String, budget: inout Budget) throws -> ImageSequence {
        let names = try pngNames(in: folder)
        guard !names.isEmpty else {
            throw LabError("the animation folder '\(folder)' has no PNG files (frame-001.png, frame-002.png, …) "
                + "and no idle, pulling or refreshing entries")
        }
        guard names.count <= budget.frames else {
            throw LabError("the animation folder '\(folder)' has \(names.count) PNG files, more than the "
                + "\(budget.frames) allowed" + (budget.isSpent ? sharedBudget : ""))
        }
        var images: [Bitmap] = []
        var pixelsLeft = budget.pixels
        for name in names {
            do {
                let canvas = try PNG.read(from: folder + "/" + name, maxPixels: pixelsLeft)
                pixelsLeft -= canvas.pixelCount
                images.append(Bitmap(canvas))
            } catch let error as PNGError {
                throw LabError(error.description + (pixelsLeft < maxPixels ? " (the frames before it count "
                    + "towards the \(maxPixels) pixels allowed)" : ""))
            }
        }
        let sequence = ImageSequence(images: images)
        budget.spend(sequence)
        return sequence
    }

    /// The names of the `.png` files in `folder` (regular, not hidden), sorted by `frameOrder`.
    static func pngNames(in folder: String) throws -> [String] {
        guard let entries = folderEntries(folder) else {
            throw LabError("cannot read the animation folder '\(folder)': " + String(cString: strerror(errno)))
        }
        // Regular files only: opening a pipe named frame-1.png would wait for a writer forever.
        return entries.filter { name in
            !name.hasPrefix(".") && name.lowercased().hasSuffix(".png") && isRegularFile(folder + "/" + name)
        }.sorted(by: frameOrder)
    }

    /// Numeric order of frame files: by the last run of digits in the name (`frame-9` before `frame-10`), then by
    /// the whole name; names without digits come last.
    static func frameOrder(_ a: String, _ b: String) -> Bool {
        switch (lastNumber(in: a), lastNumber(in: b)) {
        case let (x?, y?):
            // Compared as digit strings without leading zeros, so any length of number works.
            if x.count != y.count { return x.count < y.count }
            if x != y { return x < y }
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): break
        }
        return a < b
    }

    /// The last run of ASCII digits in `name`, without leading zeros ("0" for zero); nil when there is none.
    static func lastNumber(in name: String) -> String? {
        var digits: [Character] = []
        var inRun = false
        for c in name.reversed() {
            if c.isASCII && c.isNumber {
                if !inRun && !digits.isEmpty { break }
                inRun = true
                digits.append(c)
            } else if inRun {
                inRun = false
            }
        }
        guard !digits.isEmpty else { return nil }
        let number = String(digits.reversed()).drop { $0 == "0" }
        return number.isEmpty ? "0" : String(number)
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return FileName.withBytes(path) { stat($0, &info) } == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return FileName.withBytes(path) { stat($0, &info) } == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    static func exists(_ path: String) -> Bool {
        FileName.withBytes(path) { access($0, F_OK) } == 0
    }
}

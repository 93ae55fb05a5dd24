import Refresh

/// The image-sequence header's animation: the one `--animation` named, else the default one from `Resources/`.
extension Simulation {
    /// Loads the animation at `path` (a GIF, a folder of PNGs, or a folder with a sequence per state) for the gif
    /// header, and shows it at once when that header is on; the animation shown before stays on failure.
    ///
    /// - Throws: `LabError` naming the file at fault.
    public func loadAnimation(path: String) throws {
        let images = try AnimationFiles.load(path)
        animationSource = .file(path: path, images: images)
        (refreshControl.effect as? GifEffect)?.images = images
    }

    /// Reads the animation file again (after it changed on disk) and shows it; a message for the toast saying
    /// what happened, the error's when the file is now unreadable (the old pictures stay).
    ///
    /// The window is to call this when a watcher of the file sees it change; until one is there, it is the seam
    /// a watcher plugs into.
    @discardableResult
    public func reloadAnimation() -> String {
        guard case .file(let path, _) = animationSource else { return "No animation file to reload" }
        do {
            try loadAnimation(path: path)
            return "Reloaded \(path)"
        } catch {
            return "\(error)"
        }
    }

    /// The file `loadAnimation` read, if any.
    public var animationPath: String? {
        if case .file(let path, _) = animationSource { return path }
        return nil
    }

    /// The pictures a new gif header gets: the loaded animation, else the default one, read once; none when the
    /// default cannot be read (the header then shows its lines only).
    func gifImages() -> GifHeaderImages? {
        switch animationSource {
        case .file(_, let images), .builtIn(let images?):
            return images
        case .builtIn(nil):
            return nil
        case nil:
            let images = try? AnimationFiles.loadDefault()
            animationSource = .builtIn(images)
            return images
        }
    }
}

/// Where the gif header's pictures come from.
enum AnimationSource {
    case file(path: String, images: GifHeaderImages)
    /// The default animation, or nil when it could not be read.
    case builtIn(GifHeaderImages?)
}

import Lottie
import Refresh
import UserFiles

/// A header that plays a designer's file (`--animation FILE`): the gif header's pictures, the lottie header's
/// Bodymovin animation. The lab reads the file, reads it again when it changes on disk, and hands the header what
/// it read; a header of this kind chosen without a file plays its default animation from `Resources/`.
///
/// An effect becomes one by conforming; nothing else in the lab names it. The conformances are in this file, which
/// `SimulatedPhone` always uses: a static link keeps only the object files something refers to, and a conformance
/// found only by a dynamic cast would otherwise be dropped with its file.
public protocol AnimationFileEffect: RefreshEffect {
    associatedtype Animation
    /// What the header plays; nil plays nothing. A new one shows from the next frame.
    var animation: Animation? { get set }
    /// Reads `path`: the animation, and a warning about what it holds that is not drawn.
    ///
    /// - Throws: `LabError` naming the file and what is wrong with it.
    static func readAnimation(at path: String) throws -> (animation: Animation, warning: String?)
    /// The animation under `Resources/` played when no file is given.
    static var defaultAnimationResource: String { get }
}

/// An animation read for a header: from the file its phone's description names, or the default one.
struct HeaderAnimation {
    /// What was read (an `AnimationFileEffect.Animation`); nil when the default could not be read.
    var animation: Any?
}

extension Simulation {
    /// The names of the effects that play an animation file, in the keyboard's order.
    public static var animationEffectNames: [String] {
        RefreshEffects.entries.filter { $0.make() is any AnimationFileEffect }.map(\.name)
    }
}

extension SimulatedPhone {
    /// Reads `path` for the header named `effect` and shows it at once when that header is on; the animation
    /// shown before stays on failure. Returns the file's warning about what is not drawn, if any.
    ///
    /// - Throws: `LabError` naming the file at fault, or saying that `effect` plays no animation file.
    @discardableResult
    func loadAnimation(path: String?, for effect: String) throws -> String? {
        guard let kind = RefreshEffects.make(effect) as? any AnimationFileEffect else {
            throw LabError("the \(effect) header plays no animation file; --animation goes with "
                + Simulation.animationEffectNames.joined(separator: " or "))
        }
        let (animation, warning) = try SimulatedPhone.read(path, as: kind)
        headerAnimations[effect] = HeaderAnimation(animation: animation)
        description.animationFiles[effect] = path
        if effectName == effect { giveAnimation(to: refreshControl.effect, named: effect) }
        return warning
    }

    /// Reads every animation file again (after one changed on disk), the floor's too, and shows it: per file, the
    /// error when it is now unreadable (its old animation stays).
    @discardableResult
    func reloadAnimations() -> [(path: String, error: String?)] {
        let files = description.animationFiles.map { (name: $0.key, path: $0.value) }
        var results: [(path: String, error: String?)] = files.sorted { $0.name < $1.name }.map { file in
            do {
                try loadAnimation(path: file.path, for: file.name)
                return (file.path, nil)
            } catch {
                return (file.path, "\(error)")
            }
        }
        if case .file(let path) = description.floor {
            do {
                try setFloor(.file(path), reading: true)
                results.append((path, nil))
            } catch {
                results.append((path, "\(error)"))
            }
        }
        return results
    }

    /// The files `loadAnimation` and `setFloor` read, to be watched.
    var animationPaths: [String] {
        var paths = description.animationFiles.values.sorted()
        if case .file(let path) = description.floor { paths.append(path) }
        return paths
    }

    /// Gives a header that plays animation files the one read for `name`, else the default one (read once).
    func giveAnimation(to effect: any RefreshEffect, named name: String) {
        guard let animated = effect as? any AnimationFileEffect else { return }
        func give<E: AnimationFileEffect>(_ effect: E) {
            if headerAnimations[name] == nil {
                let animation = try? SimulatedPhone.read(nil, as: effect).animation
                headerAnimations[name] = HeaderAnimation(animation: animation)
            }
            effect.animation = headerAnimations[name]?.animation as? E.Animation
        }
        give(animated)
    }

    /// `path`, or the default animation when nil, read by `E`.
    private static func read<E: AnimationFileEffect>(_ path: String?, as effect: E) throws
        -> (animation: E.Animation, warning: String?) {
        guard let file = path ?? ResourceLocator.path(E.defaultAnimationResource) else {
            throw LabError("the default animation \(E.defaultAnimationResource) is not in the resources folder; "
                + "give one with --animation")
        }
        return try E.readAnimation(at: file)
    }
}

extension GifEffect: AnimationFileEffect {
    /// The pictures, as `images`.
    public var animation: GifHeaderImages? {
        get { images }
        set { images = newValue }
    }

    public static func readAnimation(at path: String) throws -> (animation: GifHeaderImages, warning: String?) {
        (try AnimationFiles.load(path), nil)
    }

    public static var defaultAnimationResource: String { AnimationFiles.defaultResource }
}

extension LottieEffect: AnimationFileEffect {
    public static func readAnimation(at path: String) throws -> (animation: LottieAnimation, warning: String?) {
        let animation: LottieAnimation
        do {
            animation = try LottieFile.load(path: path)
        } catch {
            throw LabError(error.description)
        }
        return (animation, animation.warning.map { "\(path): \($0)" })
    }

    public static var defaultAnimationResource: String { LottieFile.defaultAnimation }
}

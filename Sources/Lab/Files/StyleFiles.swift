import Raster
import Refresh
import Scrolling
import Styles
#if canImport(Glibc)
import Glibc
#endif
import UserFiles

/// The user's style files: where they are, reading them, and the sections they may hold.
public enum StyleFiles {
    /// The section of a style file for the scroll physics.
    static let physicsSection = "physics"
    /// The section of a style file for the second floor (`SecondFloor.Style`).
    static let floorSection = "floor"

    /// Every section a style file may have: the physics, the second floor, then each effect with a style, in the
    /// keyboard's order.
    public static var catalog: StyleCatalog {
        var sections: [(name: String, type: any StyleValue.Type)] = [(physicsSection, PhysicsStyle.self),
                                                                     (floorSection, SecondFloor.Style.self)]
        for name in RefreshEffects.names {
            if let effect = RefreshEffects.make(name) as? any StyledEffect { sections.append((name, styleType(of: effect))) }
        }
        return StyleCatalog(sections)
    }

    private static func styleType<E: StyledEffect>(of effect: E) -> any StyleValue.Type { E.Style.self }

    /// The folder of the user's own styles: `$XDG_CONFIG_HOME/refreshlab`, else `$HOME/.config/refreshlab`; nil when
    /// neither variable is set. `environment` reads a variable (the process's by default; tests give their own).
    public static func userFolder(environment: (String) -> String? = processEnvironment) -> String? {
        if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") { return config + "/refreshlab" }
        if let home = environment("HOME"), !home.isEmpty { return home + "/.config/refreshlab" }
        return nil
    }

    public static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { FileName.decode($0) }
    }

    /// The files to read, in order: every `*.json` of the user's folder by name, then `extra` (`--style`) as given.
    public static func paths(folder: String?, extra: [String]) -> [String] {
        guard let folder, let entries = folderEntries(folder) else { return extra }
        let names = entries.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
        // Name order by bytes, the same in every locale.
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map { folder + "/" + $0 } + extra
    }

    /// The schema of a section: every parameter's default, kind, unit, range and meaning, as JSON.
    public static func schemaDocument(for section: StyleCatalog.Section) -> String {
        func document<S: StyleValue>(_ type: S.Type) -> String {
            let what = section.name == physicsSection ? "The scroll physics"
                : section.name == floorSection ? "The second floor" : "The \(section.name) effect"
            return S.schemaDocument(name: section.name, about: what + "'s parameters with their defaults; a style "
                + "file overrides any of them under \"\(section.name)\" (see `refreshlab styles --help`).")
        }
        return document(section.type)
    }

    /// Where a section's schema lives under Resources: `physics.json`, `floor.json`, or `effects/NAME.json` for an
    /// effect.
    static func schemaResource(for name: String) -> String {
        name == physicsSection || name == floorSection ? "\(name).json" : "effects/\(name).json"
    }

    /// Reads and checks `paths` in order into one book; the first fault names its file, line and column.
    public static func load(_ paths: [String], catalog: StyleCatalog = catalog) throws(StyleError) -> StyleBook {
        var book = StyleBook(catalog: catalog)
        for path in paths { try book.add(path, bytes: try read(path)) }
        return book
    }

    /// The largest style file read: every parameter of every effect takes a few kilobytes.
    static let maxFileSize = 1 << 20

    static func read(_ path: String) throws(StyleError) -> [UInt8] {
        try UserFile.read(path, kind: "style file", limit: maxFileSize)
    }
}

extension SimulatedPhone {
    /// Gives the physics and the current effect the styles' values; a pull or refresh under way goes on.
    func applyStyles() {
        scrollView.physics = styles.style(PhysicsStyle.self, for: StyleFiles.physicsSection)
        applyStyle(to: refreshControl.effect, named: effectName)
        refreshControl.effectStyleDidChange()
        applyFloorStyle()
    }

    /// Gives the header the floor section's settings when the phone has a second floor, or takes its floor away.
    func applyFloorStyle() {
        let style = description.floor == nil ? nil : styles.style(SecondFloor.Style.self, for: StyleFiles.floorSection)
        if refreshControl.secondFloor != style { refreshControl.secondFloor = style }
    }

    /// Sets the style of `name` from the styles on `effect`, when it has one.
    func applyStyle(to effect: any RefreshEffect, named name: String) {
        func apply<E: StyledEffect>(_ styled: E) {
            let style = styles.style(E.Style.self, for: name, appearance: appearance)
            if style != styled.style { styled.style = style }
        }
        if let styled = effect as? any StyledEffect { apply(styled) }
    }
}

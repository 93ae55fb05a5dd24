import ArgumentParser
import Lab
import Styles
import UserFiles

/// `--style FILE`, and the user's folder of styles read before those files.
struct StyleOptions: ParsableArguments {
    @Option(name: .customLong("style"),
            help: ArgumentHelp("A style file overriding effect or physics parameters (repeatable; read after the "
                               + "*.json files of $XDG_CONFIG_HOME/refreshlab, later files winning).", valueName: "file"))
    var files: [String] = []

    /// The files to read, the user's folder first.
    var paths: [String] { StyleFiles.paths(folder: StyleFiles.userFolder(), extra: files) }

    /// Adds the style files read to `files`: those given, and the user folder's.
    func declare(in files: inout CommandFiles) {
        for path in paths { files.reads(path, as: self.files.contains(path) ? "--style" : "the style file") }
    }

    /// Every style file read and checked; a fault names its file, line and column.
    func load() throws -> StyleBook {
        do {
            return try StyleFiles.load(paths)
        } catch {
            throw LabError(error.description)
        }
    }
}

/// `refreshlab styles [NAME]`: the effective style of an effect or of the physics, with where each value came from.
struct StylesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "styles",
        abstract: "Print the effective style of an effect or of the physics as JSON, with each value's source.",
        discussion: """
            Prints the parameters of NAME (an effect, or 'physics'; all of them without NAME): the defaults \
            merged with the *.json files of $XDG_CONFIG_HOME/refreshlab (else ~/.config/refreshlab) in name \
            order and the --style files. Under "sources" it says where each value came from: "default" or \
            FILE:LINE. The output saved to a file is a style file: edit it and pass it with --style, or put it in \
            the folder. With --schema it prints the parameters' kinds, units, ranges and meanings instead.
            """
    )

    @Argument(help: ArgumentHelp("An effect's name, or 'physics'.", valueName: "name"))
    var name: String?

    @OptionGroup var style: StyleOptions

    @Flag(help: "Print the parameters' defaults, kinds, units, ranges and meanings (Resources/effects/NAME.json).")
    var schema = false

    func run() throws {
        let book = try style.load()
        if let name, book.catalog.section(named: name) == nil {
            throw ValidationError("no effect or section named '\(name)'; choose one of "
                + book.catalog.sections.map(\.name).joined(separator: ", "))
        }
        if schema {
            let names = name.map { [$0] } ?? book.catalog.sections.map(\.name)
            for section in names.compactMap({ book.catalog.section(named: $0) }) {
                print(StyleFiles.schemaDocument(for: section), terminator: "")
            }
            return
        }
        print(book.listing(name.map { [$0] } ?? []), terminator: "")
    }
}

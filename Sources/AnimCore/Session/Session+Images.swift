// Session+Images: the PNG files of image shapes, read when a script is checked — by `anim
// check` as by `anim run` and every render — so a missing, unreadable, non-PNG, corrupt or
// too-large image is a located error (at the file's string) before anything runs. Each file
// is read once per process (StageImages), so the renderers draw what was checked.

extension Session {
    /// The directory a script's image files are relative to: the directory of its path
    /// (empty for a bare name, `<stdin>` or the REPL: the current directory).
    static func imageDirectory(of name: String) -> String {
        guard !name.hasPrefix("<"), let slash = name.lastIndex(of: "/") else { return "" }
        return slash == name.startIndex ? "/" : String(name[..<slash])
    }

    /// Reads every image file the checked statements declare; reports each that cannot be
    /// drawn. False if any could not.
    func checkImages(_ statements: [CheckedStmt], source name: String) -> Bool {
        let bag = imageProblems(statements, source: name)
        report(bag)
        return !bag.hasErrors
    }

    /// `checkImages`' work without the report: each image the statements' shapes draw loaded
    /// (and remembered in `imageFiles`), and the files that cannot be, as errors.
    func imageProblems(_ statements: [CheckedStmt], source name: String) -> DiagnosticBag {
        var bag = DiagnosticBag()
        let directory = Session.imageDirectory(of: name)
        for case .shapes(let c) in statements where c.kind == .image {
            imageDirectory = directory
            for (p, v) in c.properties where p == BuiltinProperty.file.id {
                guard case .constant(.string(let file)) = v.node else { continue }
                let path = file.hasPrefix("/") || directory.isEmpty ? file : directory + "/" + file
                if !imageFiles.contains(path) { imageFiles.append(path) }
                if case .failure(let e) = StageImages.load(path) {
                    bag.report(.error(e.message(file: file), at: v.span, help: e.imageHelp))
                }
            }
        }
        return bag
    }
}

extension VectorError {
    /// The message of an image error, naming the file as the script wrote it.
    func message(file: String) -> String {
        switch self {
        case .imageUnreadable(_, let reason): "cannot read image '\(file)': \(reason)"
        case .imageNotPNG: "'\(file)' is not a PNG image"
        case .imageCorrupt(_, let reason): "cannot decode PNG image '\(file)': \(reason)"
        case .imageTooLarge(_, let w, let h):
            "image '\(file)' is \(w) x \(h) pixels; at most \(ImageFile.maxSide) on a side and \(ImageFile.maxPixels) pixels in all"
        case .imageFileTooLarge(_, let bytes, let limit): "image file '\(file)' is \(bytes) bytes; at most \(limit) are read"
        default: message
        }
    }

    /// The help line of an image error.
    var imageHelp: String {
        switch self {
        case .imageUnreadable: "an image's file is a path relative to the script's directory"
        case .imageNotPNG, .imageCorrupt: "anim draws PNG images; convert it, as in 'convert icon.jpg icon.png'"
        default: "scale the picture down before using it (Grammar.md §11 gives the limits)"
        }
    }
}

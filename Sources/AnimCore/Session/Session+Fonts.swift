// Session+Fonts: the `font-family` names a script writes, looked up in fontconfig when it is
// checked — by `anim check` as by `anim run` and every render — so a family that is not
// installed is a warning at its string, once per family in a session, before anything runs.
// It is not an error: the text falls back to the stage's font (StageText.face(family:weight:)),
// as a browser falls back along the font-family list the web outputs write.

extension Session {
    /// Warns at the first use of each family fontconfig does not have (and has not been
    /// warned about in this session).
    func checkFonts(_ uses: [(family: String, span: Span)]) {
        guard !uses.isEmpty else { return }
        var bag = DiagnosticBag()
        for use in uses where !warnedFamilies.contains(use.family) {
            warnedFamilies.insert(use.family)
            guard !StageText.isInstalled(use.family) else { continue }
            let used = StageText.face(family: "", weight: 400)?.family ?? "the default font"
            bag.warning("font family '\(use.family)' is not installed; the text is drawn in \(used)", at: use.span,
                        label: "not installed", help: "'fc-list : family' lists the installed families; leave 'font-family' out for the stage's font")
        }
        report(bag)
    }
}

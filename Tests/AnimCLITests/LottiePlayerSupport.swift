// LottiePlayerSupport: the Lottie players the export is checked with, besides the `lottie`
// reader — lottie-web (the player web apps use), loaded into headless Chromium from the copy
// that wagtail-lottie ships in the test virtual environment, and rlottie (Telegram's player,
// Debian's librlottie-dev), driven by a small C program built with `cc` — and how to find,
// build and run them. Scripts/install-picture-tools installs both.
import AnimTestSupport
import Foundation
import Testing

extension Consumers {
    /// lottie-web's `lottie.min.js` (5.7.4), as wagtail-lottie ships it in the test virtual
    /// environment (`static/wagtail_lottie/lottie-player.js`; install-picture-tools checks it
    /// byte for byte against lottie-web's release build).
    static let lottieWeb: String? = {
        let lib = TestPaths.packageRoot.appendingPathComponent(".build/test-tools/venv/lib")
        guard let pythons = try? FileManager.default.contentsOfDirectory(atPath: lib.path) else { return nil }
        for python in pythons.sorted() where python.hasPrefix("python3") {
            let js = lib.appendingPathComponent("\(python)/site-packages/wagtail_lottie/static/wagtail_lottie/lottie-player.js").path
            if FileManager.default.isReadableFile(atPath: js) { return js }
        }
        return nil
    }()

    /// A C compiler, for the rlottie driver.
    static let cc: String? = find("cc") ?? find("gcc") ?? find("clang")

    /// Whether rlottie can be driven: its C API header is installed and there is a compiler.
    static let rlottie: Bool = cc != nil && FileManager.default.fileExists(atPath: "/usr/include/rlottie_capi.h")

    /// Python 3 (the accuracy harness needs the standard library only).
    static let python3: String? = find("python3")
}

/// A page that plays one Lottie document with lottie-web, stopped wherever `show(frame)` says.
enum LottieWebPage {
    /// The page: the stage-sized container at the top left, lottie-web loaded from its file, the
    /// document inline (no fetch, so file:// needs no flags). `window.lottieReady` turns true
    /// once the player has built the document; `show(f)` stops at frame `f` and returns the
    /// frame it shows.
    static func html(document: String, lottieWeb: String, renderer: String, width: Int, height: Int) -> String {
        """
        <!DOCTYPE html><html><head><meta charset="utf-8">
        <style>html,body{margin:0;background:#fff}#stage{width:\(width)px;height:\(height)px}</style>
        <script src="file://\(lottieWeb)"></script></head><body><div id="stage"></div>
        <script>
        window.lottieReady = false;
        var anim = lottie.loadAnimation({container: document.getElementById('stage'), renderer: '\(renderer)',
                                         loop: false, autoplay: false, animationData: \(document)});
        function ready() { window.lottieReady = true; }
        if (anim.isLoaded) ready(); else anim.addEventListener('DOMLoaded', ready);
        function show(f) { anim.goToAndStop(f, true); return anim.currentFrame; }
        </script></body></html>
        """
    }

    /// Renders frames of a document in lottie-web and writes each as `lottie-web-RENDERER-F.png`
    /// in `dir`; returns lottie-web's version.
    static func render(document json: String, frames: [Int], renderer: String, width: Int, height: Int,
                       in dir: ScratchDirectory) throws -> String {
        let page = dir.path("lottie-web-\(renderer).html")
        let document = try String(contentsOfFile: json, encoding: .utf8)
        try html(document: document, lottieWeb: Consumers.lottieWeb!, renderer: renderer, width: width, height: height)
            .write(toFile: page, atomically: true, encoding: .utf8)
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try browser.open("file://\(page)")
        try #require(try browser.wait(until: "window.lottieReady === true"),
                     "lottie-web did not load the document: \(browser.console.joined(separator: "\n"))")
        let version = try browser.string("lottie.version")
        for f in frames {
            let shown = try browser.evaluate("show(\(f))") as? Double
            #expect(shown == Double(f), "lottie-web shows frame \(String(describing: shown)), not \(f)")
            try browser.screenshot(width: width, height: height)
                .write(to: URL(fileURLWithPath: dir.path("lottie-web-\(renderer)-\(f).png")))
        }
        #expect(browser.console.isEmpty, "lottie-web's page reported: \(browser.console.joined(separator: "\n"))")
        return version
    }
}

/// rlottie through Tests/Pictures/rlottie_render.c.
enum RLottie {
    /// Builds the driver into `dir`; its path.
    static func build(in dir: ScratchDirectory) throws -> String {
        let source = PictureFixtures.directory.appendingPathComponent("rlottie_render.c").path
        let exe = dir.path("rlottie_render")
        let r = try Consumers.run(Consumers.cc!, ["-O2", "-Wall", source, "-o", exe, "-lrlottie", "-lpng16"])
        try #require(r.exitCode == 0, "cc could not build the rlottie driver:\n\(r.stderr)")
        return exe
    }

    /// Renders frames of a document; writes `rlottie-F.png` in `dir`. What the driver printed
    /// about the document (size, frame rate, frame count).
    static func render(document json: String, frames: [Int], in dir: ScratchDirectory) throws -> String {
        let exe = try build(in: dir)
        let r = try Consumers.run(exe, [json, dir.url.path] + frames.map(String.init))
        try #require(r.exitCode == 0, "rlottie rejected the export:\n\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

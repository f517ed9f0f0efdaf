// Help: the `--help` text of every command, laid out like swift-argument-parser's.

enum Help {
    static let main = """
    OVERVIEW: anim — an interpreter for a small animation scripting language.
    Scripts describe shapes and choreograph tweens, waits and actions; anim plays them on an
    exact virtual clock, as fast as the machine allows.

    USAGE: anim [<command>] [<arguments>]

    COMMANDS:
      run <file>              Run a script to its end and print what happens.
      repl                    Start the interactive REPL (also: 'anim' on a terminal).
      test <path>...          Run golden script tests ('#>' output and 'expect' lines).
      check <file>            Parse and check a script without running it; print its duration.
      render <file> -o <out>  Draw a run: HTML player, animated SVG, PNG frames or contact sheet, GIF, MP4.
      export <file> -o <json> Export a run as a Lottie (Bodymovin) document.
      graph <file>            Print the sequencer graphs in Graphviz DOT.
      timeline <file>         Draw a Gantt chart of a run in the terminal (or as SVG).
      bench <file>            Time a script pass by pass and sample it at every frame.
      serve <file>            Serve the player for a script at http://127.0.0.1:7878/, live on every save.
      watch <file>            Run (or check, or test) a script again on every save.
      lsp                     Start the language server (LSP over standard input and output).
      fmt <file>...           Format scripts in the one canonical layout (print, --check or -w).
      help [<command>]        Show help for a command.

    With no command, anim starts the REPL on a terminal, and runs a script read from standard
    input otherwise (like 'anim run -').

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    See 'anim help <command>' for a command's options.
    """

    static let help = """
    OVERVIEW: Show help for anim, or for one of its commands.

    USAGE: anim help [<command>]

    ARGUMENTS:
      <command>               One of run, repl, test, check, render, export, graph, timeline, bench
                              or help. Without it, the list of commands.

    OPTIONS:
      -h, --help              Show help information.

    'anim <command> --help' shows the same text as 'anim help <command>'.
    """

    static let run = """
    OVERVIEW: Run a script to its end on the virtual clock.
    Every 'print' is shown with its time ('[1.300] message'); failed expectations and errors go to
    standard error as 'file:line:col: error: ...'. A graph that never ends needs --until.

    USAGE: anim run <file> [--until <time>] [--seed <n>] [--fps <n>] [--trace <props>] [--no-time] [--json]

    ARGUMENTS:
      <file>                  The script, or '-' to read it from standard input.

    OPTIONS:
      --until <time>          Stop the run at this time: seconds (5), or with a unit (2.5s, 300ms).
      --seed <n>              Seed the random generator (a whole number); 'seed' statements mix it in.
      --fps <n>               Frames per second for --trace (default 60, at most 10000).
      --trace <props>         Print the values of these comma-separated properties every frame,
                              e.g. --trace square.center,square.alpha.
      --no-time               Print messages without the '[t.ttt] ' prefix.
      --json                  Print one JSON object per event, with exact times ("time" in seconds,
                              "ns" in nanoseconds).
      -h, --help              Show help information.

    EXIT STATUS:
      0 success, 1 a script error or a failed expectation, 2 a usage error (bad flag, unreadable file).
    """

    static let repl = """
    OVERVIEW: Start the interactive REPL.
    Type statements as in a script. After each entry the clock runs until every graph has finished
    (a never-ending graph runs 10 s per entry) and prints what happened. An entry continues on the
    next line ('...> ') where a file would go on: an open block or bracket, a line ending in
    'then', a 'define ... =' before its body. Lines pasted together run as their file would. A
    bare expression prints its value. After ':seek' back, the next entry plays the clock on like
    any entry (':auto off' keeps it still).
    History is kept in ~/.anim_history (or $ANIM_HISTORY); Tab completes keywords, names,
    'name.' properties and ':' commands. Errors never end the session.

    USAGE: anim repl [--seed <n>]

    COMMANDS (inside the REPL):
      :help  :quit  :load FILE  :reset  :time  :step D  :until T  :seek T
      :inspect NAME  :timeline  :auto on|off

    With standard input not a terminal, the input is run as a script (like 'anim run -').

    OPTIONS:
      --seed <n>              Seed the random generator.
      -h, --help              Show help information.
    """

    static let test = """
    OVERVIEW: Run golden script tests.
    Runs every .anim file at or below the paths. A file passes when its output equals its '#> '
    lines (when it has any), its diagnostics equal its '#! ' lines (when it has any; otherwise it
    must run without errors), and every 'expect' holds. '#: ' lines give extra run flags.
    Prints a report with a diff for each failing file, then 'N passed, N failed'.

    USAGE: anim test <path>... [--verbose]

    ARGUMENTS:
      <path>                  Script files or directories to search for .anim files.

    OPTIONS:
      --verbose               Also list the files that pass.
      -h, --help              Show help information.

    EXIT STATUS:
      0 if every test passed, 1 if any failed, 2 for a usage error.
    """

    static let check = """
    OVERVIEW: Parse and check a script without running it.
    Reports errors and warnings, then the script's total duration (timed by a silent run: no
    output, no expectations), or that it never ends.

    USAGE: anim check <file> [--until <time>] [--dump tokens|ast|graph]

    ARGUMENTS:
      <file>                  The script, or '-' for standard input.

    OPTIONS:
      --until <time>          Time a never-ending script up to this time.
      --dump <pass>           Print the output of one pass instead: 'tokens' (the lexer), 'ast'
                              (the parser) or 'graph' (the sequencer graph of every chain).
      -h, --help              Show help information.
    """

    static let bench = """
    OVERVIEW: Time a script: its cost profile as a renderer would see it.
    Parses, checks and builds the script (setup), plays it in event mode while recording every
    property's history, makes the sampler every renderer draws through from that history (no
    compile pass: the 'compile' field is the sampler's setup), then samples every animated
    property at every frame from the first (1/fps s) to the end. Prints one line of key=value
    fields: samples (frames × the components of every animated property: 2 for a point, 4 for
    a color), run (events + compile + sample), setup (parse + check + build), ns/sample (the
    sampling loop ÷ samples), peak (maximum resident memory), checksum (the sum of every
    component of every animated property after the last frame; times count in seconds), then
    each pass. Prints and expectations are not shown.

    With --render it measures drawing instead: it runs the script, then draws every frame
    'anim render -o DIR/' would (sampled, rasterised and PNG-encoded, not written) on one
    thread and then on -j threads, and prints frames, size, run (the script's run), j1 and
    fps-j1 (seconds and frames per second on one thread), jN, fps-jN and speedup (on N), png
    (the bytes of one pass) and peak.

    USAGE: anim bench <file> [--fps <n>] [--repeat <n>] [--until <time>] [--seed <n>] [--events]
           anim bench <file> --render [-j <n>] [--scale <s>] [--fps <n>] [--until <time>] [--seed <n>]

    ARGUMENTS:
      <file>                  The script, or '-' for standard input.

    OPTIONS:
      --fps <n>               Frames per second to sample at (default 60).
      --repeat <n>            Run the sampling loop n times from the first frame and report the
                              fastest (steadier on a busy machine; default 1).
      --until <time>          Stop the run at this time.
      --seed <n>              Seed the random generator.
      --events                Event mode only, as 'anim run' plays: time setup and the run, no sampling.
      --render                Time drawing the frames (default 30 fps), on 1 thread and on -j.
      -j, --jobs <n>          Threads for --render (default: every processor this process may use).
      --scale <s>             Pixels per stage unit for --render (default 1).
      -h, --help              Show help information.
    """

    static func text(for command: String) -> String? {
        switch command {
        case "run": run
        case "repl": repl
        case "test": test
        case "check": check
        case "render": render
        case "export": export
        case "graph": graph
        case "timeline": timeline
        case "bench": bench
        case "help": help
        case "serve": serve
        case "watch": watch
        case "lsp": lsp
        case "fmt": fmt
        default: nil
        }
    }

    static let lsp = """
    OVERVIEW: Start the language server.
    Speaks the Language Server Protocol 3.17 (JSON-RPC with Content-Length framing) on standard
    input and output, for editors: VS Code (Editors/vscode), Neovim, Helix, Zed. Diagnostics are
    those of 'anim check', published when a document opens and on every change (changes that
    arrive together are analysed once, at the newest version); hover, completion, signature
    help, definitions, references, rename, document symbols, folding, semantic tokens (the
    expression inside a string's {...} gets its own), quick fixes, formatting of the document
    or of a range (the whole top-level statements it touches, as 'anim fmt' lays them out), and
    inlay hints with each step's time span in the run. Log lines go to standard error. An
    editor starts it; it is not meant to be typed at.
    A change that only retypes the number of a 'let' whose value is only ever written to a
    property ('center', 'offset', 'rotation', 'scale') and never read back, timed or counted
    reuses the last analysis's diagnostics, which it provably leaves unchanged, and publishes
    them without analysing again; hints, hovers and the other requests analyse that version
    when they first need it. Any other change is analysed in full.

    USAGE: anim lsp [--stdio] [--full-analysis]

    OPTIONS:
      --stdio                 Accepted for clients that pass it: standard input and output are
                              the only transport.
      --full-analysis         Analyse every change in full (no reuse of the last analysis).
      -h, --help              Show help information.

    EXIT STATUS:
      0 after the client's 'shutdown' and 'exit', 1 when the input ends or 'exit' comes without
      'shutdown', 2 a usage error.
    """

    static let fmt = """
    OVERVIEW: Format scripts in anim's one canonical layout.
    Indentation of four spaces inside blocks and brackets, one space around '=', '<', '>' and
    operators, none inside '( )' and '[ ]', 'then' at the start of a line (a line wider than 100
    characters is broken before each 'then' of its chain). Line breaks are kept (blank lines
    collapse to one) and so is every comment; a comment after code keeps its column. The result
    prints the same and builds the same graphs, and formatting it again changes nothing. A
    script with syntax errors is not formatted: its errors are shown as 'anim check' shows them.

    USAGE: anim fmt <file>... [--check | -w]

    ARGUMENTS:
      <file>                  The scripts, or '-' to read one from standard input.

    OPTIONS:
      -w, --write             Rewrite each file that changes, in place (atomically: a temporary
                              file beside it, with its permissions, renamed over it).
      --check                 Change nothing: list the files that would change.
      -h, --help              Show help information.

    Without -w or --check the formatted scripts are printed on standard output.

    EXIT STATUS:
      0 success (with --check: every file is formatted), 1 a file has syntax errors or (with
      --check) would change, 2 a usage error or a file that cannot be read or written.
    """

    // MARK: - Pictures and interchange

    static let render = """
    OVERVIEW: Draw a run of a script.
    Runs the script to its end on the virtual clock, keeping every property's history, and draws
    it. The output's extension picks the format (or --format, for a device such as /dev/stdout):
      .html    a self-contained page (no network, no other files) that plays the run: the stage as
               SVG, play/pause (space), a scrubber with the time, frame stepping (← →), speed,
               loop, and a timeline strip with one lane per graph branch (tweens as bars labelled
               with their properties, actions as ticks, printed messages at their instants). The
               values shown are the interpreter's own, sampled at --fps. Open it at a time with
               '#t=1.5' after the file's URL.
      .svg     an animated SVG that plays and loops by itself in a browser (SMIL), sampled at
               --fps; text keeps its string of time 0.
      .png     with --sheet N, a contact sheet: N frames from start to end in a grid, each with its
               time; with --at T, the single frame at time T.
      DIR/     a directory (ending in '/', or an existing directory): every frame at --fps as
               DIR/frame-0000.png, frame-0001.png, ... The last frame is at or after the end.
      .gif     an animated GIF, and
      .mp4     an H.264 video, both assembled from the PNG frames by ffmpeg, which must be installed.
    PNG frames, sheets, GIFs and MP4s draw rects (with rounded corners), lines, ellipses,
    polygons, polylines, paths, images (PNG, bilinear), circles and text, antialiased, with strokes (dashes, caps,
    joins, trims) through the FreeType vector layer, rotation and scale about the anchor,
    offset, alpha, colour, drop shadows and z-order; text is in the stage's
    font as the HTML player shows it (Helvetica, Arial, else the system's sans-serif), or in
    its font-family and weight as fontconfig finds them, aligned by its align. Files
    appear whole or not at all: each is written to a temporary file and renamed into place.
    Frames, GIFs and MP4s are drawn on every processor (-j), identically whatever -j. They can
    also be part of a run, to split a render across processes or machines: --frames picks frames
    by number, --shard one of N equal parts. Frames keep their numbers in the whole run
    (frame-0042.png is frame 42 in every shard), so the shards' directories copy into one, which
    is exactly what one render writes; MP4 shards join without re-encoding (README, "Rendering
    on many machines").

    USAGE: anim render <file> -o <output> [--format <format>] [--fps <n>]
                       [--sheet <n> [--columns <n>] | --at <time>] [--scale <s>] [-j <n>]
                       [--frames <a-b>] [--shard <i/n>|auto/<n>] [--until <time>] [--seed <n>]

    ARGUMENTS:
      <file>                  The script, or '-' to read it from standard input.

    OPTIONS:
      -o, --output <output>   Where to write: a .html, .svg, .png, .gif or .mp4 file, or a directory/.
                              A device or pipe (/dev/stdout) is written directly.
      --format <format>       html, svg, png, gif or mp4: the format, for an output whose name does
                              not say it (a device, a name without an extension). With an extension,
                              the two must agree.
      --fps <n>               Frames per second, 1 to 240: the frames written, the samples in the
                              HTML and SVG (default 30 for frames, GIF and MP4; 60 otherwise). It
                              also sets the rate of 'on change' observers, as in 'anim run --fps'.
      --sheet <n>             A contact sheet of n frames (1 to 400), evenly spaced from 0 to the end.
      --columns <n>           Frames per row of the sheet (default: about square).
      --at <time>             The single frame at this time (seconds, or 1.5s, 300ms) for a .png.
      --scale <s>             Pixels per stage unit for PNG frames, GIF and MP4 (default 1; for a
                              sheet, each frame at most 240 pixels wide).
      -j, --jobs <n>          Threads drawing frames, 1 to 1024 (default: the processors this
                              process may use, after taskset, cpusets and a cgroup CPU quota).
      --frames <a-b>          Only frames a to b (numbered from 0 at --fps; 'a-' runs to the last
                              frame, 'a' is one frame) of the frames, a GIF or an MP4. Frames the
                              run does not have are left out.
      --shard <i/n>           Only part i of n (counted from 0: 0/4 ... 3/4) of those frames: n
                              equal runs of consecutive frames, together each frame once.
                              'auto/n' takes i from JOB_COMPLETION_INDEX (Kubernetes Indexed
                              Jobs) or else AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array jobs);
                              an explicit i/n ignores them, and without --shard they are not
                              read. An empty shard writes nothing and says so (exit 0).
      --until <time>          Stop the run at this time (needed for a graph that repeats forever).
      --seed <n>              Seed the random generator.
      -h, --help              Show help information.

    EXIT STATUS:
      0 success, 1 a script error, 2 a usage error (bad option, unknown output extension, an
      output path that cannot be written, ffmpeg missing for .gif/.mp4).
    """

    static let export = """
    OVERVIEW: Export a run as a Lottie (Bodymovin) animation.
    Lines, ellipses, polygons, polylines, paths and strokes are not exported yet (a warning
    names the shapes left out). Images are image assets (data URIs) on image layers, where no
    shape's z changes; otherwise a warning names them.
    Writes a Lottie JSON document (version 5.7) with one shape layer per rect, circle and text,
    their fills, and keyframes for position (center + offset), scale, rotation, opacity, size, corner
    radius and colour. A tween whose easing is a cubic Bézier (linear, ease, ease-in, ease-out,
    ease-in-out, cubic-bezier(...)) played once forwards is exported as two keyframes with the
    same Bézier handles; anything else (springs, steps, bounce, elastic and the other Penner
    curves, repeats, keyframe lists, paths) is baked as linear keyframes at --fps. Changes of
    z-order become layer copies shown in turn (hold keyframes). Text shapes are glyph outlines
    (shape paths in the font PNGs use), so every player draws the same letters.

    USAGE: anim export <file> -o <output.json> --lottie [--fps <n>] [--until <time>] [--seed <n>]

    ARGUMENTS:
      <file>                  The script, or '-' to read it from standard input.

    OPTIONS:
      -o, --output <json>     The Lottie file to write (.json), or a device or pipe (/dev/stdout).
      --lottie                The format: a Lottie JSON document. Required, as it is the only
                              export format; an output with an extension other than .json is an
                              error.
      --fps <n>               The document's frame rate and the baking rate, 1 to 240 (default 60).
      --until <time>          Stop the run at this time.
      --seed <n>              Seed the random generator.
      -h, --help              Show help information.

    EXIT STATUS:
      0 success, 1 a script error, 2 a usage error.
    """

    static let graph = """
    OVERVIEW: Print the sequencer graphs of a run in Graphviz DOT.
    Runs the script, then prints one cluster per top-level graph. Each node is labelled with its
    kind and target, its duration, and when it ran. Sequence ('then') edges are solid blue and
    chain the children in order; block (parallel) edges are dashed red and fan out from the block;
    repeat, stagger, after/with and named-instance edges are dotted.
    Draw it with Graphviz: anim graph demo.anim | dot -Tsvg -o graph.svg

    USAGE: anim graph <file> [-o <output.dot>] [--until <time>] [--seed <n>]

    OPTIONS:
      -o, --output <file>     Write the DOT to a file instead of standard output.
      --until <time>          Stop the run at this time.
      --seed <n>              Seed the random generator.
      -h, --help              Show help information.
    """

    static let timeline = """
    OVERVIEW: Draw a Gantt chart of a run.
    One row per tween, spring, wait and action, grouped in lanes (one per branch of each graph):
    tweens and springs are Unicode bars labelled with their properties, waits are shaded, actions
    are ◆ ticks at their instants, with each step's times on the right. Colour is used on a
    terminal (not when piped, or with NO_COLOR set). The REPL's ':timeline' draws the same chart.

    USAGE: anim timeline <file> [--width <n>] [--color | --no-color] [-o <output.svg|.txt>]
                         [--format txt|svg] [--until <time>] [--seed <n>]

    OPTIONS:
      --width <n>             Width in columns, 40 to 1000 (default: the terminal's, or 80).
      --color, --no-color     Force colour on or off.
      -o, --output <file>     Write the chart to a .txt file, or draw it as an .svg picture (the
                              HTML player's timeline strip). A device or pipe is written directly.
      --format <format>       txt or svg: the format, for standard output or an output whose name
                              does not say it (/dev/stdout). With an extension, the two must agree.
      --until <time>          Stop the run at this time.
      --seed <n>              Seed the random generator.
      -h, --help              Show help information.
    """

    // MARK: - Live studio

    static let serve = """
    OVERVIEW: Serve the HTML player for a script, live: every save shows on the page.
    Serves the player that 'anim render x.html' writes at http://127.0.0.1:7878/ and watches the
    script (and every file its run reads) by watching their directories, so an editor's save by
    rename is seen. A save that changes the bytes is run again on a worker thread; the page then
    swaps the new scene in without reloading, keeping the playhead (the same time, or the same
    place in its named step), playing or paused, the loop range, speed and zoom. A script with
    errors keeps the last good scene on the page and shows the diagnostics over it, as
    'anim check' prints them. Ctrl-C stops the server and frees the port.

    Routes: /  the page;  /scene.json  the run's data the player embeds;  /events  Server-Sent
    Events ('scene' after each good build, 'diagnostics' after each failed one; a client that
    connects or reconnects gets the current state at once). Nothing else: no file is served.

    USAGE: anim serve <file> [--port <n>] [--host <address>] [--open] [--poll] [--debounce <ms>]
                      [--fps <n>] [--until <time>] [--seed <n>]

    ARGUMENTS:
      <file>                  The script.

    OPTIONS:
      --port <n>              The port (default 7878; 0 lets the system pick a free one).
      --host <address>        The address to listen on (default 127.0.0.1, this machine only). Any
                              other address lets other machines in, and anim says so loudly.
      --open                  Open the page in the system's browser (xdg-open, or open on macOS).
      --poll                  Watch by comparing the files' stat fields every 100 ms instead of
                              inotify (Linux) or kqueue (macOS): for network file systems.
      --debounce <ms>         Wait this long after the last change before running (default 50).
      --fps <n>               Samples per second in the player, 1 to 240 (default 60).
      --until <time>          Stop each run at this time (needed for a graph that repeats forever).
      --seed <n>              Seed the random generator.
      -h, --help              Show help information.

    LIMITS:
      At most 64 connections (the rest get 503), request headers up to 8 KiB (431), bodies up to
      64 KiB (413), 10 s for a request to arrive (408). While listening on 127.0.0.1, a request
      whose Host is not localhost or 127.0.0.1 gets 403 (protection against DNS rebinding).

    EXIT STATUS:
      0 after Ctrl-C or SIGTERM, 2 a usage error (bad option, unreadable file, the port in use).
    """

    static let watch = """
    OVERVIEW: Run a script again on every save, like 'cargo watch'.
    Runs the script, then watches it (and every file its run reads) and runs it again whenever a
    save changes its bytes: on a terminal the screen is cleared first, and every run ends with a
    status line giving the time of day, the outcome and how long the run took. With --test, runs
    'anim test' on the paths whenever any .anim file below them changes, appears or goes. Errors
    never end the watch; Ctrl-C does.

    USAGE: anim watch <file> [--run | --check] [run flags] [--poll] [--debounce <ms>]
           anim watch --test <path>... [--verbose] [--poll] [--debounce <ms>]

    ARGUMENTS:
      <file>                  The script.
      <path>                  With --test: script files or directories of them.

    OPTIONS:
      --run                   Run the script as 'anim run' does (the default), with its flags:
                              --until, --seed, --fps, --trace, --no-time, --json.
      --check                 Check it as 'anim check' does (with --until).
      --test                  Run 'anim test <path>...' (with --verbose).
      --poll                  Watch by polling stat fields every 100 ms instead of inotify/kqueue.
      --debounce <ms>         Wait this long after the last change before running (default 50).
      -h, --help              Show help information.

    EXIT STATUS:
      0 after Ctrl-C or SIGTERM, 2 a usage error.
    """
}

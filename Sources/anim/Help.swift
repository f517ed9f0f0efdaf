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
      bench <file>            Time a script pass by pass and sample it at every frame.
      help [<command>]        Show help for a command.

    With no command, anim starts the REPL on a terminal, and runs a script read from standard
    input otherwise (like 'anim run -').

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    See 'anim help <command>' for a command's options.
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
    (a never-ending graph runs 10 s per entry) and prints what happened. A block or a line ending
    in 'then' continues on the next line ('...> '). A bare expression prints its value.
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
    property's history, compiles that history to flat sample tables, then samples every animated
    property at every frame from the first (1/fps s) to the end. Prints one line of key=value
    fields: samples (frames × the components of every animated property: 2 for a point, 4 for
    a color), run (events + compile + sample), setup (parse + check + build), ns/sample (the
    sampling loop ÷ samples), peak (maximum resident memory), checksum (the sum of every
    component of every animated property after the last frame; times count in seconds), then
    each pass. Prints and expectations are not shown.

    USAGE: anim bench <file> [--fps <n>] [--repeat <n>] [--until <time>] [--seed <n>] [--events]

    ARGUMENTS:
      <file>                  The script, or '-' for standard input.

    OPTIONS:
      --fps <n>               Frames per second to sample at (default 60).
      --repeat <n>            Run the sampling loop n times from the first frame and report the
                              fastest (steadier on a busy machine; default 1).
      --until <time>          Stop the run at this time.
      --seed <n>              Seed the random generator.
      --events                Event mode only, as 'anim run' plays: time setup and the run, no sampling.
      -h, --help              Show help information.
    """

    static func text(for command: String) -> String? {
        switch command {
        case "run": run
        case "repl": repl
        case "test": test
        case "check": check
        case "bench": bench
        default: nil
        }
    }
}

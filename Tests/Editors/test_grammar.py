"""The VS Code TextMate grammar (Editors/vscode/syntaxes/anim.tmLanguage.json) checked with
Oniguruma, the engine VS Code runs it on:

- every regex compiles;
- over every golden script and example, its scopes agree with anim's own lexer, whose tokens
  `anim check --dump tokens` lists: keywords, numbers and their units, strings, hex colors and
  comments are scoped exactly where the lexer finds them;
- the names the core knows (keywords, easings, functions, CSS colors, spring parameters) are
  all scoped, so the grammar cannot fall behind the language. The Swift test that runs this
  file passes them in ANIM_NAMES; run alone, that test is skipped.

Run: ANIM_BINARY=.build/debug/anim python -m pytest Tests/Editors/test_grammar.py
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

import onigurumacffi
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import textmate  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR_PATH = ROOT / "Editors/vscode/syntaxes/anim.tmLanguage.json"
CONFIG_PATH = ROOT / "Editors/vscode/language-configuration.json"
ANIM = os.environ.get("ANIM_BINARY", str(ROOT / ".build/debug/anim"))
GRAMMAR = textmate.Grammar(GRAMMAR_PATH)

SCRIPTS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "Tests/Scripts").rglob("*.anim")) + \
    sorted(str(p.relative_to(ROOT)) for p in (ROOT / "Examples").rglob("*.anim"))

# Corners of the lexer's rules, checked the same way.
CORNERS = """\
# a comment, then colors and not-colors
print #f80 #f80a #ff8800 #ff8800aa
print 1 #12345 is a comment
print 1 #3366ffz is a comment too
print #3366ff# a color right before a comment
#bad at the start of a line is a color
#fade-out too
print "# not a comment {1 + 2} \\"q\\" \\{x\\}" # but this is
print 1.5s 300ms 90deg 1.57rad 0.25turn .5 2e-3 1e5s 400x700 400x
stage 400 x 700
text title text "Hello" font 24
print title.text; print a.then
animate 1 ease ease-in-out < sq.center = (300,120) >
animate 1 ease steps(4, jump-start) < sq.z = 1 >
spring damping-ratio 0.7 response 0.4 < sq.center = (1, 2) >
print "unterminated
print a-b
rect card shadow-blur 4 anchor (0.5, 1)
print card.shadow-blur; set card.shadow-color = #00000055
"""


def character_to_index(line, column):
    """The code point index of a 1-based column counted in Characters (grapheme clusters, as
    Swift counts them; combining marks, variation selectors, emoji modifiers and ZWJ
    sequences join the character before them)."""
    count = 1
    i = 0
    while i < len(line) and count < column:
        i += 1
        while i < len(line) and (unicodedata.combining(line[i]) or unicodedata.category(line[i]) in ("Mn", "Me", "Mc")
                                 or 0xFE00 <= ord(line[i]) <= 0xFE0F or 0x1F3FB <= ord(line[i]) <= 0x1F3FF
                                 or line[i] == "\u200d" or line[i - 1] == "\u200d"):
            i += 1
        count += 1
    return i


TOKEN_LINE = re.compile(r"^(\d+):(\d+) (\w+)(?: (.*))?$")


def lexer_tokens(path):
    """anim's tokens of a script: (line index, start, end, kind, unit length) in code points."""
    out = subprocess.run([ANIM, "check", "--dump", "tokens", path], capture_output=True, text=True,
                         encoding="utf-8", errors="replace")
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    tokens = []
    for row in out.stdout.split("\n"):
        m = TOKEN_LINE.match(row)
        if not m:
            continue
        line, column, kind, text = int(m.group(1)) - 1, int(m.group(2)), m.group(3), m.group(4) or ""
        if kind in ("newline", "eof"):
            continue
        unit = 0
        u = re.search(r" \(unit (\S+)\)$", text)
        if kind == "number" and u:
            text = text[: u.start()]
            unit = len(u.group(1))
        source = lines[line].rstrip("\r")
        start = character_to_index(source, column)
        tokens.append((line, start, start + len(text), kind, unit))
    return lines, tokens


def has(scopes, *prefixes):
    return scopes is not None and any(s.startswith(p) for s in scopes for p in prefixes)


# Scopes a keyword may have where the lexer's keyword is an ordinary word: a property after '.',
# a word of an easing name or a step position, a spring parameter.
CONTEXTUAL = ("support.function.easing", "variable.other.property", "variable.parameter.spring",
              "support.constant.step-position")
KEYWORDISH = ("keyword.", "storage.type", "constant.language")


def check_against_lexer(path):
    lines, tokens = lexer_tokens(path)
    scoped = GRAMMAR.tokenize("\n".join(lines))
    problems = []
    covered = {}
    for line, start, end, kind, unit in tokens:
        text = lines[line][start:end]
        where = f"{path}:{line + 1}:{start + 1} {kind} {text!r}"
        scopes = [textmate.scopes_at(scoped[line], i) for i in range(start, end)]
        first = start
        if kind == "error" and text[:1].isalpha():
            # An unknown unit: the lexer drops the number before it with the error.
            while first > 0 and (lines[line][first - 1].isdigit() or lines[line][first - 1] in ".eE+-"):
                first -= 1
            if not all(has(s, "invalid.illegal.unit") for s in scopes):
                problems.append(f"{where}: an unknown unit scoped {scopes[0]}")
        for i in range(first, end):
            covered.setdefault(line, set()).add(i)
        if any(has(s, "comment.") for s in scopes):
            problems.append(f"{where}: a token scoped as a comment: {scopes[0]}")
            continue
        if kind == "keyword":
            if not all(has(s, *KEYWORDISH, *CONTEXTUAL) for s in scopes):
                problems.append(f"{where}: a keyword scoped {scopes[0]}")
        elif kind == "number":
            digits = scopes[: len(scopes) - unit]
            if not all(has(s, "constant.numeric") for s in digits):
                problems.append(f"{where}: a number scoped {digits[0]}")
            if unit and not all(has(s, "keyword.other.unit") for s in scopes[len(scopes) - unit:]):
                problems.append(f"{where}: a unit scoped {scopes[-1]}")
        elif kind == "string":
            if not all(has(s, "string.quoted.double") for s in scopes):
                problems.append(f"{where}: a string scoped {[s for s in scopes if not has(s, 'string.quoted')][0]}")
        elif kind == "color":
            if not all(has(s, "constant.other.color") for s in scopes):
                problems.append(f"{where}: a color scoped {scopes[0]}")
        elif kind == "identifier":
            bad = [s for s in scopes if has(s, "storage.", "string.", "constant.numeric", "constant.language", "keyword.control",
                                             "keyword.other.option", "constant.other.color")]
            if bad:
                problems.append(f"{where}: a name scoped {bad[0]}")
    # What no token covers (spaces aside) is a comment, and comments are nothing else.
    for line, text in enumerate(lines):
        text = text.rstrip("\r")
        for i, ch in enumerate(text):
            if i in covered.get(line, set()) or ch in " \t\f\r":
                continue
            s = textmate.scopes_at(scoped[line], i)
            if not has(s, "comment."):
                problems.append(f"{path}:{line + 1}:{i + 1}: {ch!r} is outside every token but scoped {s}")
                break
    return problems


def test_every_regex_compiles():
    count = 0
    for where, source in textmate.regexes(GRAMMAR.json):
        try:
            onigurumacffi.compile(source)
        except onigurumacffi.OnigError as e:
            pytest.fail(f"{where}: {source!r} does not compile: {e}")
        count += 1
    assert count >= 30
    config = json.loads(CONFIG_PATH.read_text(encoding="utf-8"))
    for where, source in [("folding.markers.start", config["folding"]["markers"]["start"]),
                          ("folding.markers.end", config["folding"]["markers"]["end"]),
                          ("indentationRules.increaseIndentPattern", config["indentationRules"]["increaseIndentPattern"]),
                          ("indentationRules.decreaseIndentPattern", config["indentationRules"]["decreaseIndentPattern"])]:
        onigurumacffi.compile(source)
    # Every include resolves.
    GRAMMAR.flatten(GRAMMAR.json["patterns"])
    for entry in GRAMMAR.repository.values():
        GRAMMAR.flatten(entry.get("patterns", []))


def test_scripts_are_found():
    assert len(SCRIPTS) > 100


@pytest.mark.parametrize("path", SCRIPTS)
def test_golden_script_scopes_agree_with_the_lexer(path):
    assert check_against_lexer(str(ROOT / path)) == []


def test_lexer_corners():
    with tempfile.NamedTemporaryFile("w", suffix=".anim", delete=False, encoding="utf-8") as f:
        f.write(CORNERS)
    try:
        assert check_against_lexer(f.name) == []
    finally:
        os.unlink(f.name)


def scope_of(line, word, occurrence=0):
    tokens = GRAMMAR.tokenize(line)[0]
    index = -1
    for _ in range(occurrence + 1):
        index = line.index(word, index + 1)
    return textmate.scopes_at(tokens, index)


def test_golden_lines_and_what_they_hold():
    assert "comment.line.golden.output.anim" in scope_of("#> [0.000] done", "done")
    assert "string.unquoted.golden.output.anim" in scope_of("#> [0.000] done", "done")
    assert "keyword.other.golden.output.anim" in scope_of("#> x", "#>")
    assert "comment.line.golden.diagnostic.anim" in scope_of("#! x.anim:1:1: error: no", "error")
    assert "comment.line.golden.flags.anim" in scope_of("#: --until 5", "--until")
    assert "comment.line.golden.output.anim" in scope_of("   #> indented", "indented")
    # Not at the start of a line: an ordinary comment.
    assert "comment.line.number-sign.anim" in scope_of("print 1 #> x", "x")


def test_strings_interpolation_and_escapes():
    line = 'print "a\\"b {n + 1} \\{n\\} {"inner {n}"}"'
    assert "constant.character.escape.anim" in scope_of(line, '\\"')
    assert "meta.interpolation.anim" in scope_of(line, "n + 1")
    assert "constant.numeric.anim" in scope_of(line, "1}")
    assert "constant.character.escape.anim" in scope_of(line, "\\{")
    assert "meta.interpolation.anim" in scope_of(line, "inner")
    assert "string.quoted.double.anim" in scope_of(line, "inner")
    assert "invalid.illegal.escape.anim" in scope_of('print "\\q"', "\\q")


def test_units_and_invalid_units():
    assert "keyword.other.unit.anim" in scope_of("wait 300ms", "ms")
    assert "invalid.illegal.unit.anim" in scope_of("wait 5px", "px")
    assert "keyword.operator.by.anim" in scope_of("stage 400x700", "x")


def test_core_names_are_all_scoped():
    names_path = os.environ.get("ANIM_NAMES")
    if not names_path:
        pytest.skip("ANIM_NAMES is not set: the Swift test EditorClientTests passes the core's names")
    names = json.loads(Path(names_path).read_text(encoding="utf-8"))
    for k in names["keywords"]:
        assert has(scope_of(f"{k} ", k), *KEYWORDISH), k
    for e in names["easings"]:
        line = f"animate 1 ease {e} < a.z = 1 >"
        assert "support.function.easing.anim" in scope_of(line, e, 1 if e == "ease" else 0), e
    for f in names["functions"]:
        assert "support.function.builtin.anim" in scope_of(f"print {f}(1)", f), f
    for c in names["colors"]:
        assert "support.constant.color.anim" in scope_of(f"print {c} ", c), c
    for p in names["springParameters"]:
        assert "variable.parameter.spring.anim" in scope_of(f"spring {p} 1 < a.z = 1 >", p), p

"""A small TextMate grammar tokenizer over Oniguruma (onigurumacffi, the regex engine VS Code
uses), enough for anim's grammar: match, begin/end, captures, beginCaptures/endCaptures, name,
contentName, patterns, and includes of the repository, $self and $base.

It follows vscode-textmate's rules: a line is tokenized with a trailing "\\n"; at each position
the earliest match among the current rule's patterns and the enclosing region's end wins,
the end pattern first and then the patterns in order when several match at the same place;
a zero-width match that would not move the scanner forward is skipped one character.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import onigurumacffi


class GrammarError(Exception):
    pass


@dataclass
class Rule:
    match: object = None          # compiled pattern
    begin: object = None
    end: object = None
    name: str | None = None
    content_name: str | None = None
    captures: dict = field(default_factory=dict)
    begin_captures: dict = field(default_factory=dict)
    end_captures: dict = field(default_factory=dict)
    patterns: list = field(default_factory=list)   # raw pattern dicts, resolved lazily
    end_source: str | None = None


def regexes(node, path="$"):
    """Every regex in a grammar, with where it is: (path, source)."""
    if isinstance(node, dict):
        for key in ("match", "begin", "end", "while"):
            if isinstance(node.get(key), str):
                yield f"{path}.{key}", node[key]
        for k, v in node.items():
            yield from regexes(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from regexes(v, f"{path}[{i}]")


class Grammar:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.json = json.load(f)
        self.repository = self.json.get("repository", {})
        self.scope = self.json["scopeName"]
        self._compiled = {}
        self._rules = {}

    def compile(self, source):
        if source not in self._compiled:
            self._compiled[source] = onigurumacffi.compile(source)
        return self._compiled[source]

    def rule(self, raw):
        key = id(raw)
        if key not in self._rules:
            r = Rule(name=raw.get("name"), content_name=raw.get("contentName"),
                     captures=raw.get("captures", {}), patterns=raw.get("patterns", []))
            if "match" in raw:
                r.match = self.compile(raw["match"])
            if "begin" in raw:
                r.begin = self.compile(raw["begin"])
                r.end_source = raw["end"]
                r.end = self.compile(raw["end"])
                r.begin_captures = raw.get("beginCaptures", raw.get("captures", {}))
                r.end_captures = raw.get("endCaptures", raw.get("captures", {}))
            self._rules[key] = r
        return self._rules[key]

    def flatten(self, patterns, seen=None):
        """The match and begin rules of a pattern list, includes expanded in order."""
        seen = set() if seen is None else seen
        out = []
        for p in patterns:
            inc = p.get("include")
            if inc is None:
                if "match" in p or "begin" in p:
                    out.append(self.rule(p))
                elif "patterns" in p:
                    out.extend(self.flatten(p["patterns"], seen))
                continue
            if inc in ("$self", "$base"):
                target = {"patterns": self.json["patterns"]}
                tag = "$self"
            elif inc.startswith("#"):
                if inc[1:] not in self.repository:
                    raise GrammarError(f"include of a missing repository entry {inc}")
                target = self.repository[inc[1:]]
                tag = inc
            else:
                raise GrammarError(f"include of another grammar {inc} is not supported")
            if tag in seen:
                continue
            if "match" in target or "begin" in target:
                out.append(self.rule(target))
            else:
                out.extend(self.flatten(target.get("patterns", []), seen | {tag}))
        return out

    def tokenize(self, text):
        """Tokens of a whole text: one list per line of (start, end, scopes) in code points of
        the line (without its line break)."""
        stack = [(None, [self.scope])]   # (region rule, scopes inside it)
        result = []
        for line in text.split("\n"):
            tokens, stack = self.tokenize_line(line, stack)
            result.append(tokens)
        return result

    def tokenize_line(self, line, stack):
        s = line + "\n"
        pos = 0
        tokens = []

        def emit(start, end, scopes):
            end = min(end, len(line))
            if end > start:
                tokens.append((start, end, list(scopes)))

        def emit_captures(m, captures, base):
            # Whole match first, then each capture over the part it covers (nested scopes).
            spans = []
            for k, c in sorted(captures.items(), key=lambda kv: int(kv[0])):
                i = int(k)
                try:
                    a, b = m.span(i)
                except (IndexError, ValueError):
                    continue
                if a < 0 or b <= a:
                    continue
                spans.append((a, b, c.get("name")))
            start, end = m.span(0)
            cuts = sorted({start, end} | {a for a, _, _ in spans} | {b for _, b, _ in spans})
            for a, b in zip(cuts, cuts[1:]):
                if a < start or b > end:
                    continue
                scopes = list(base)
                for sa, sb, name in spans:
                    if sa <= a and b <= sb and name:
                        scopes.extend(name.split())
                emit(a, b, scopes)

        while pos <= len(line):
            region, scopes = stack[-1]
            candidates = self.flatten(region.patterns if region else self.json["patterns"])
            best = None  # (start, order, kind, rule, match)
            if region is not None:
                m = region.end.search(s, pos)
                if m is not None:
                    best = (m.start(0), -1, "end", region, m)
            for order, r in enumerate(candidates):
                pat = r.match if r.match is not None else r.begin
                m = pat.search(s, pos)
                if m is None:
                    continue
                if best is None or m.start(0) < best[0]:
                    best = (m.start(0), order, "match" if r.match is not None else "begin", r, m)
            if best is None:
                emit(pos, len(line), scopes)
                break
            start, _, kind, r, m = best
            end = m.end(0)
            emit(pos, start, scopes)
            if kind == "end":
                outer = stack[-2][1] if len(stack) > 1 else [self.scope]
                inner = outer + ([region.name] if region.name else [])
                emit_captures(m, region.end_captures, inner)
                stack = stack[:-1]
            elif kind == "match":
                base = scopes + (r.name.split() if r.name else [])
                emit_captures(m, r.captures, base)
            else:
                base = scopes + (r.name.split() if r.name else [])
                emit_captures(m, r.begin_captures, base)
                inner = base + (r.content_name.split() if r.content_name else [])
                stack = stack + [(r, inner)]
            if end == pos and kind == "match":
                # A zero-width match: step over one character so the scanner moves on.
                if pos < len(line):
                    emit(pos, pos + 1, scopes)
                pos += 1
            else:
                pos = end
            if pos >= len(s):
                break
        return tokens, stack


def scopes_at(line_tokens, index):
    """The scopes of the character at `index` of a line."""
    for a, b, scopes in line_tokens:
        if a <= index < b:
            return scopes
    return None

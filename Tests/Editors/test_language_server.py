"""`anim lsp` driven over stdio by a real LSP client: pytest-lsp (pygls), with the client
capabilities of VS Code and Neovim that pytest-lsp ships. The diagnostics it receives for
every golden error script are checked against what `anim check` prints for the same file.

Run: ANIM_BINARY=.build/release/anim python -m pytest -c Tests/Editors/pytest.ini Tests/Editors/test_language_server.py
"""

import os
import re
import subprocess
import unicodedata
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

ROOT = Path(__file__).resolve().parents[2]
ANIM = os.environ.get("ANIM_BINARY", str(ROOT / ".build/debug/anim"))
ERROR_SCRIPTS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "Tests/Scripts/errors").glob("*.anim"))


def publish_diagnostics(client: LanguageClient, params: types.PublishDiagnosticsParams):
    """pytest-lsp's handler keeps the diagnostics; keep the whole notification (its version too)."""
    client.diagnostics[params.uri] = params.diagnostics
    client.published[params.uri] = params


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.published = {}
    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish_diagnostics})
    return client


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=[ANIM, "lsp"], client_factory=make_client),
                    params=["visual-studio-code", "neovim"])
async def client(request, lsp_client: LanguageClient):
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities(request.param)))
    lsp_client.result = result
    yield
    await lsp_client.shutdown_session()
    # shutdown, then exit: the server ends with 0.
    assert lsp_client._server.returncode == 0


async def diagnostics_for(client, uri, version=None, tries=200):
    """Waits for diagnostics of `uri` (at `version`) and returns them."""
    for _ in range(tries):
        params = client.published.get(uri)
        if params is not None and (version is None or params.version == version):
            return params.diagnostics
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    raise AssertionError(f"no diagnostics for {uri}")


def characters(text):
    """The number of Characters (grapheme clusters, as anim counts columns) in a string."""
    n = 0
    for i, c in enumerate(text):
        if i > 0 and (unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Mc")
                      or 0xFE00 <= ord(c) <= 0xFE0F or c == "\u200d" or text[i - 1] == "\u200d"):
            continue
        n += 1
    return n


def prefix(line, units, encoding):
    """The part of a line before a column counted in the negotiated encoding."""
    out, n = "", 0
    for c in line:
        w = len(c.encode("utf-8")) if encoding == "utf-8" else 2 if ord(c) > 0xFFFF else 1
        if n + w > units:
            break
        out += c
        n += w
    return out


SEVERITY = {1: "error", 2: "warning", 3: "note", 4: "note"}
HEADER = re.compile(r"^(.*?):(\d+):(\d+): (error|warning|note): (.*)$")


def check_headers(path):
    """anim check's diagnostics for a file: (line, column, severity, message, notes, help)."""
    out = subprocess.run([ANIM, "check", path], capture_output=True, text=True, encoding="utf-8")
    found = []
    for row in out.stderr.split("\n"):
        m = HEADER.match(row)
        if m and m.group(1) == path:
            found.append([int(m.group(2)), int(m.group(3)), m.group(4), m.group(5), [], None])
        elif found and row.startswith("  = note: "):
            found[-1][4].append(row[len("  = note: "):])
        elif found and row.startswith("  help: "):
            found[-1][5] = row[len("  help: "):]
    return [tuple(f[:4]) + (tuple(f[4]), f[5]) for f in found]


def as_headers(diagnostics, lines, encoding):
    out = []
    for d in diagnostics:
        message = d.message
        help_ = None
        if "\nhelp: " in message:
            message, help_ = message.split("\nhelp: ", 1)
        notes = tuple(message.split("\nnote: ")[1:])
        message = message.split("\nnote: ")[0]
        line = d.range.start.line
        column = characters(prefix(lines[line].rstrip("\r"), d.range.start.character, encoding)) + 1
        out.append((line + 1, column, SEVERITY[d.severity], message, notes, help_))
    return out


def encoding(client):
    """The position encoding agreed at initialize."""
    return str(getattr(client.result.capabilities.position_encoding, "value", client.result.capabilities.position_encoding))


async def test_initialize_answers_the_capabilities(client: LanguageClient):
    caps = client.result.capabilities
    general = client.capabilities.general
    offered = [str(getattr(e, "value", e)) for e in (general.position_encodings or [])] if general else []
    # UTF-8 when the client offers it (Neovim does), else UTF-16 (VS Code).
    assert encoding(client) == ("utf-8" if "utf-8" in offered else "utf-16")
    assert caps.text_document_sync.open_close
    assert caps.text_document_sync.change == types.TextDocumentSyncKind.Incremental
    assert client.result.server_info.name == "anim"


@pytest.mark.parametrize("path", ERROR_SCRIPTS)
async def test_error_scripts_match_anim_check(client: LanguageClient, path):
    full = str(ROOT / path)
    text = Path(full).read_text(encoding="utf-8")
    uri = Path(full).as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="anim", version=1, text=text)))
    received = await diagnostics_for(client, uri, 1)
    expected = check_headers(full)
    assert as_headers(received, text.split("\n"), encoding(client)) == expected
    assert all(d.source == "anim" for d in received)


async def test_changes_and_close(client: LanguageClient):
    uri = "file:///tmp/anim-pytest-changes.anim"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="anim", version=1, text="rect a\nprint a.centre\n")))
    first = await diagnostics_for(client, uri, 1)
    assert len(first) == 1 and "did you mean 'center'" in first[0].message
    # Incremental: `centre` → `center`.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=1, character=12), end=types.Position(line=1, character=14)), text="er")]))
    assert len(await diagnostics_for(client, uri, 2)) == 0
    # A whole text, with an emoji before the error: the range counts units of the encoding.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text='print "😀" + nope\n')]))
    third = await diagnostics_for(client, uri, 3)
    assert len(third) == 1
    assert third[0].range.start == types.Position(line=0, character=13 if encoding(client) == "utf-16" else 15)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    for _ in range(100):
        if len(client.published[uri].diagnostics) == 0 and client.published[uri].version is None:
            break
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert len(client.published[uri].diagnostics) == 0


async def test_unknown_method_is_an_error(client: LanguageClient):
    with pytest.raises(Exception) as info:
        await client.protocol.send_request_async("anim/noSuchMethod", {})
    assert "-32601" in str(info.value) or "noSuchMethod" in str(info.value)


# Language features against the real server, through the client's own request types.
FEATURES = """rect box size (40, 40)
define pop(s) = animate 0.5 < s.scale = 1.5 >
animate 1.25s ease ease-out < box.center = (100, 0) > as slide
after slide < play pop(box) >
wait slide
"""


async def open_features(client, name):
    uri = f"file:///tmp/anim-pytest-{name}.anim"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="anim", version=1, text=FEATURES)))
    assert len(await diagnostics_for(client, uri, 1)) == 0
    return uri


def doc(uri):
    return types.TextDocumentIdentifier(uri=uri)


async def test_hover_shows_kind_and_values_at_the_step(client: LanguageClient):
    uri = await open_features(client, "hover")
    # `center` of `box.center` on line 3: its kind and its values at the step's start and end.
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc(uri), position=types.Position(line=2, character=35)))
    text = hover.contents.value
    assert "`box.center`: point" in text
    assert "at the step's start (0.000s): `(0, 0)`" in text and "at its end (1.250s): `(100, 0)`" in text
    # The easing.
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc(uri), position=types.Position(line=2, character=21)))
    assert "cubic-bezier(0, 0, 0.58, 1)" in hover.contents.value


async def test_completion_after_a_dot_and_after_play(client: LanguageClient):
    uri = await open_features(client, "completion")
    items = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc(uri), position=types.Position(line=2, character=34)))
    labels = [i.label for i in (items.items if hasattr(items, "items") else items)]
    assert "center" in labels and "alpha" in labels
    items = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc(uri), position=types.Position(line=3, character=19)))
    found = {i.label: i for i in (items.items if hasattr(items, "items") else items)}
    assert found["pop"].insert_text == "pop(${1:s})" and "fadeIn" in found


async def test_definition_and_rename(client: LanguageClient):
    uri = await open_features(client, "rename")
    # `slide` in `after slide` goes to its `as slide`.
    where = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc(uri), position=types.Position(line=3, character=8)))
    where = where[0] if isinstance(where, list) else where
    assert where.range.start == types.Position(line=2, character=57)
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=doc(uri), position=types.Position(line=4, character=6), new_name="glide"))
    ranges = sorted((e.range.start.line, e.range.start.character) for e in edit.changes[uri])
    assert ranges == [(2, 57), (3, 6), (4, 5)]
    # A clash is refused with a message.
    with pytest.raises(Exception) as info:
        await client.text_document_rename_async(types.RenameParams(
            text_document=doc(uri), position=types.Position(line=4, character=6), new_name="box"))
    assert "already declares 'box'" in str(info.value)


async def test_inlay_hints_show_the_run(client: LanguageClient):
    uri = await open_features(client, "hints")
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=doc(uri), range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=5, character=0))))
    labels = [(h.position.line, h.label) for h in hints]
    assert (2, "⟨0.000s → 1.250s⟩") in labels
    assert (3, "⟨1.250s → 1.750s⟩") in labels
    assert (4, "⟨now 1.250s⟩") in labels


async def test_range_formatting_formats_the_statements_in_the_range(client: LanguageClient):
    assert client.result.capabilities.document_range_formatting_provider
    uri = "file:///tmp/anim-pytest-range.anim"
    text = "rect  a center(1,2)\nat 1 <\nprint   1\n>\nprint  9\n"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="anim", version=1, text=text)))
    await diagnostics_for(client, uri, 1)
    # A cursor inside the `at` block: the `at` statement is formatted, the lines around it are not.
    edits = await client.text_document_range_formatting_async(types.DocumentRangeFormattingParams(
        text_document=doc(uri), range=types.Range(start=types.Position(line=2, character=3), end=types.Position(line=2, character=3)),
        options=types.FormattingOptions(tab_size=4, insert_spaces=True)))
    assert len(edits) == 1
    lines = text.split("\n")
    e = edits[0]
    assert (e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character) == (1, 0, 4, 0)
    edited = "\n".join(lines[:1]) + "\n" + e.new_text + "\n".join(lines[4:])
    assert edited == "rect  a center(1,2)\nat 1 <\n    print 1\n>\nprint  9\n"


async def test_semantic_tokens_delta_and_range(client: LanguageClient):
    provider = client.result.capabilities.semantic_tokens_provider
    assert provider.full.delta and provider.range
    uri = await open_features(client, "tokens")
    full = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc(uri)))
    assert full.result_id and len(full.data) % 5 == 0 and full.data
    # The first two lines as a range: the full result's tokens that start in them.
    ranged = await client.text_document_semantic_tokens_range_async(types.SemanticTokensRangeParams(
        text_document=doc(uri), range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=2, character=0))))
    kept, line = [], 0
    for k in range(0, len(full.data), 5):
        line += full.data[k]
        if line < 2:
            kept += list(full.data[k:k + 5])
    assert list(ranged.data) == kept
    # A comment line typed above the first: a delta, which applied gives the new full result.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)), text="# a comment\n")]))
    delta = await client.text_document_semantic_tokens_full_delta_async(types.SemanticTokensDeltaParams(
        text_document=doc(uri), previous_result_id=full.result_id))
    assert delta.result_id and delta.result_id != full.result_id and delta.edits
    data = list(full.data)
    for e in sorted(delta.edits, key=lambda e: -e.start):
        data[e.start:e.start + e.delete_count] = list(e.data or [])
    again = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc(uri)))
    assert data == list(again.data)
    assert data[:5] == [0, 0, len("# a comment"), 3, 0]  # the comment, first

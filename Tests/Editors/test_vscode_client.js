// The VS Code extension's client (Editors/vscode/extension.js) run under Node against the real
// `anim lsp`, with a stand-in for the `vscode` module that records what the extension does:
// it starts the server, sends the open documents and their changes, turns the published
// diagnostics into VS Code diagnostics, and stops the server with shutdown and exit.
//
//   ANIM_BINARY=.build/debug/anim node Tests/Editors/test_vscode_client.js
'use strict';

const assert = require('assert');
const Module = require('module');
const path = require('path');

const anim = process.env.ANIM_BINARY || path.join(__dirname, '../../.build/debug/anim');

// --- A stand-in for the parts of the vscode API the extension uses.
class Emitter {
  constructor() { this.listeners = []; }
  register() { return (f) => { this.listeners.push(f); return { dispose() {} }; }; }
  fire(x) { for (const f of this.listeners) f(x); }
}
class Position { constructor(line, character) { this.line = line; this.character = character; } }
class Range {
  constructor(a, b, c, d) { this.start = new Position(a, b); this.end = new Position(c, d); }
}
class Uri {
  constructor(s) { this.s = s; }
  static parse(s) { return new Uri(s); }
  toString() { return this.s; }
}
const collections = [];
class DiagnosticCollection {
  constructor() { this.entries = new Map(); collections.push(this); }
  set(uri, diagnostics) { this.entries.set(uri.toString(), diagnostics); }
  delete(uri) { this.entries.delete(uri.toString()); }
  clear() { this.entries.clear(); }
  dispose() {}
}
const openEvents = new Emitter(), changeEvents = new Emitter(), closeEvents = new Emitter();
const log = [];
const warnings = [];
const vscode = {
  Position, Range, Uri,
  Location: class { constructor(uri, range) { this.uri = uri; this.range = range; } },
  Diagnostic: class { constructor(range, message, severity) { this.range = range; this.message = message; this.severity = severity; } },
  DiagnosticRelatedInformation: class { constructor(location, message) { this.location = location; this.message = message; } },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  workspace: {
    textDocuments: [],
    getConfiguration: () => ({ get: (k) => (k === 'path' ? anim : undefined) }),
    onDidOpenTextDocument: openEvents.register(),
    onDidChangeTextDocument: changeEvents.register(),
    onDidCloseTextDocument: closeEvents.register(),
  },
  languages: { createDiagnosticCollection: () => new DiagnosticCollection() },
  window: {
    createOutputChannel: () => ({ append: (s) => log.push(s), appendLine: (s) => log.push(s + '\n'), dispose() {} }),
    showWarningMessage: (s) => warnings.push(s),
  },
  commands: { registerCommand: () => ({ dispose() {} }) },
};
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? vscode : load.call(this, request, ...rest);
};

function document(uri, text, version = 1) {
  return { uri: Uri.parse(uri), languageId: 'anim', version, getText: () => text };
}

async function until(predicate, what) {
  for (let i = 0; i < 3000; i++) {
    if (predicate()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}; log:\n${log.join('')}`);
}

async function main() {
  const extension = require('../../Editors/vscode/extension.js');
  const open = document('file:///tmp/open-before.anim', 'rect a\nrect a\n');
  vscode.workspace.textDocuments.push(open, { uri: Uri.parse('file:///tmp/x.txt'), languageId: 'plaintext', version: 1, getText: () => 'x' });
  await extension.activate({ subscriptions: [] });
  const diagnostics = collections[0];
  // A document open before activation is sent; one in another language is not.
  await until(() => diagnostics.entries.has('file:///tmp/open-before.anim'), 'diagnostics of the open document');
  const first = diagnostics.entries.get('file:///tmp/open-before.anim');
  assert.strictEqual(first.length, 1);
  assert.strictEqual(first[0].message, "'a' is already declared as a rect");
  assert.strictEqual(first[0].severity, vscode.DiagnosticSeverity.Error);
  assert.deepStrictEqual([first[0].range.start.line, first[0].range.start.character, first[0].range.end.character], [1, 5, 6]);
  assert.strictEqual(first[0].relatedInformation[0].message, 'declared here');
  assert.strictEqual(first[0].relatedInformation[0].location.range.start.line, 0);
  assert.ok(!diagnostics.entries.has('file:///tmp/x.txt'));

  // Opened later, then an incremental change after an emoji (UTF-16 columns), then closed.
  const later = document('file:///tmp/later.anim', 'print "😀" + nope\n');
  openEvents.fire(later);
  await until(() => diagnostics.entries.has('file:///tmp/later.anim'), 'diagnostics of a document opened later');
  const second = diagnostics.entries.get('file:///tmp/later.anim');
  assert.strictEqual(second.length, 1);
  assert.deepStrictEqual([second[0].range.start.character, second[0].range.end.character], [13, 17]);
  assert.ok(second[0].message.startsWith("unknown name 'nope'"), second[0].message);
  later.version = 2;
  changeEvents.fire({ document: later, contentChanges: [{ range: new Range(0, 13, 0, 17), text: '1' }] });
  await until(() => diagnostics.entries.get('file:///tmp/later.anim').length === 0, 'the change to clear the diagnostics');
  closeEvents.fire(later);
  assert.ok(!diagnostics.entries.has('file:///tmp/later.anim'));

  // shutdown, then exit: the server ends with 0.
  const code = await extension.deactivate();
  assert.strictEqual(code, 0);
  assert.deepStrictEqual(warnings, []);
  console.log('vscode client: 1 passed, 0 failed');
}

main().catch((error) => {
  console.error(error.stack || String(error));
  console.log('vscode client: 0 passed, 1 failed');
  process.exit(1);
});

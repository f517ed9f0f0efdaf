// The anim extension's client: starts `anim lsp` and shows its diagnostics. It speaks the
// Language Server Protocol itself (Content-Length frames of JSON-RPC over the server's stdio),
// in a few lines and with no dependencies, so the folder works as it is copied or packed,
// with no `npm install`. What the server publishes becomes VS Code diagnostics; the documents
// VS Code has open are sent to it as they change (incremental sync).
'use strict';

const vscode = require('vscode');
const { spawn } = require('child_process');

/** A connection to one `anim lsp` process. */
class LanguageClient {
  constructor(command, output, onNotification) {
    this.command = command;
    this.output = output;
    this.onNotification = onNotification;
    this.nextId = 1;
    this.pending = new Map();
    this.buffer = Buffer.alloc(0);
    this.exited = new Promise((resolve) => { this.resolveExit = resolve; });
  }

  start() {
    this.process = spawn(this.command, ['lsp'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.process.stdout.on('data', (chunk) => this.receive(chunk));
    this.process.stderr.on('data', (chunk) => this.output.append(chunk.toString('utf8')));
    this.process.on('error', (error) => {
      this.output.appendLine(`anim lsp could not start (${this.command}): ${error.message}`);
      this.failAll(error);
      this.resolveExit(null);
    });
    this.process.on('exit', (code) => {
      this.exitCode = code;
      this.failAll(new Error(`anim lsp exited with ${code}`));
      this.resolveExit(code);
    });
    this.process.stdin.on('error', () => {});
  }

  failAll(error) {
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }

  send(message) {
    if (!this.process || this.exitCode !== undefined) return;
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.process.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Splits the server's output into frames. */
  receive(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const match = /content-length:\s*(\d+)/i.exec(header);
      if (!match) {
        this.output.appendLine(`anim lsp sent a frame without Content-Length: ${header}`);
        this.buffer = this.buffer.subarray(headerEnd + 4);
        continue;
      }
      const length = Number(match[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const body = this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      let message;
      try {
        message = JSON.parse(body);
      } catch (error) {
        this.output.appendLine(`anim lsp sent invalid JSON: ${error.message}`);
        continue;
      }
      this.dispatch(message);
    }
  }

  dispatch(message) {
    if (message.method === undefined && message.id !== undefined) {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(new Error(`${message.error.message} (${message.error.code})`));
      else waiting.resolve(message.result);
    } else if (message.id !== undefined) {
      // A request from the server: this client offers none.
      this.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `unsupported: ${message.method}` } });
    } else {
      this.onNotification(message.method, message.params);
    }
  }

  /** shutdown, then exit; resolves with the process's exit code. */
  async stop(timeoutMs = 2000) {
    if (!this.process || this.exitCode !== undefined) return this.exitCode;
    const timer = setTimeout(() => this.process.kill(), timeoutMs);
    try {
      await Promise.race([this.request('shutdown'), this.exited]);
      this.notify('exit');
      this.process.stdin.end();
    } catch (error) {
      this.process.kill();
    }
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

const SEVERITY = { 1: 'Error', 2: 'Warning', 3: 'Information', 4: 'Hint' };

function toRange(r) {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

function toDiagnostic(d) {
  const diagnostic = new vscode.Diagnostic(toRange(d.range), d.message,
    vscode.DiagnosticSeverity[SEVERITY[d.severity] || 'Error']);
  diagnostic.source = d.source || 'anim';
  if (d.relatedInformation) {
    diagnostic.relatedInformation = d.relatedInformation.map((r) => new vscode.DiagnosticRelatedInformation(
      new vscode.Location(vscode.Uri.parse(r.location.uri), toRange(r.location.range)), r.message));
  }
  return diagnostic;
}

let state;

/** Starts the server and sends it the anim documents VS Code has open. */
async function start(context) {
  const output = state.output;
  const command = vscode.workspace.getConfiguration('anim').get('path') || 'anim';
  const client = new LanguageClient(command, output, (method, params) => {
    if (method === 'textDocument/publishDiagnostics') {
      state.diagnostics.set(vscode.Uri.parse(params.uri), params.diagnostics.map(toDiagnostic));
    }
  });
  state.client = client;
  client.start();
  client.exited.then((code) => {
    if (state && state.client === client && !state.stopping) {
      output.appendLine(`anim lsp stopped (exit code ${code}); run "anim: Restart Language Server" to start it again`);
      vscode.window.showWarningMessage(`anim lsp stopped (exit code ${code}).`);
    }
  });
  try {
    await client.request('initialize', {
      processId: process.pid,
      clientInfo: { name: 'anim-vscode', version: '0.1.0' },
      rootUri: null,
      capabilities: {
        // VS Code counts columns in UTF-16 units.
        general: { positionEncodings: ['utf-16'] },
        textDocument: {
          synchronization: { dynamicRegistration: false },
          publishDiagnostics: { relatedInformation: true, versionSupport: true },
        },
      },
    });
  } catch (error) {
    output.appendLine(`anim lsp did not initialize: ${error.message}. Is '${command}' anim's path? Set anim.path.`);
    return;
  }
  client.notify('initialized', {});
  // Documents are sent only now: the server drops notifications that come before initialize.
  client.ready = true;
  for (const document of vscode.workspace.textDocuments) opened(document);
}

function isAnim(document) {
  return document.languageId === 'anim';
}

function opened(document) {
  if (!isAnim(document) || !state.client || !state.client.ready) return;
  state.client.notify('textDocument/didOpen', {
    textDocument: { uri: document.uri.toString(), languageId: 'anim', version: document.version, text: document.getText() },
  });
}

function changed(event) {
  if (!isAnim(event.document) || !state.client || !state.client.ready || event.contentChanges.length === 0) return;
  state.client.notify('textDocument/didChange', {
    textDocument: { uri: event.document.uri.toString(), version: event.document.version },
    contentChanges: event.contentChanges.map((c) => ({
      range: {
        start: { line: c.range.start.line, character: c.range.start.character },
        end: { line: c.range.end.line, character: c.range.end.character },
      },
      text: c.text,
    })),
  });
}

function closed(document) {
  if (!isAnim(document) || !state.client || !state.client.ready) return;
  state.client.notify('textDocument/didClose', { textDocument: { uri: document.uri.toString() } });
  state.diagnostics.delete(document.uri);
}

async function activate(context) {
  state = {
    output: vscode.window.createOutputChannel('anim'),
    diagnostics: vscode.languages.createDiagnosticCollection('anim'),
    client: undefined,
    stopping: false,
  };
  context.subscriptions.push(
    state.output,
    state.diagnostics,
    vscode.workspace.onDidOpenTextDocument(opened),
    vscode.workspace.onDidChangeTextDocument(changed),
    vscode.workspace.onDidCloseTextDocument(closed),
    vscode.commands.registerCommand('anim.restartLanguageServer', async () => {
      state.stopping = true;
      if (state.client) await state.client.stop();
      state.stopping = false;
      state.diagnostics.clear();
      await start(context);
    }),
  );
  await start(context);
}

/** Stops the server; resolves with its exit code (0 after shutdown and exit). */
async function deactivate() {
  if (!state || !state.client) return undefined;
  state.stopping = true;
  const code = await state.client.stop();
  state = undefined;
  return code;
}

module.exports = { activate, deactivate };

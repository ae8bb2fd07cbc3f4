// Starts `typedtensor lsp` (mypy with the typedtensor plugin) for Python files.
// It runs beside Pylance/Pyright, which keep completion and navigation.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function expand(value) {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  return value.replace('${workspaceFolder}', folder);
}

async function activate(context) {
  const config = vscode.workspace.getConfiguration('typedtensor');
  const [command, ...args] = config.get('server.command').map(expand);
  client = new LanguageClient(
    'typedtensor',
    'typedtensor shapes',
    { command, args, options: { cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath } },
    {
      documentSelector: [{ scheme: 'file', language: 'python' }],
      initializationOptions: { inlayHints: config.get('inlayHints') },
      synchronize: { configurationSection: 'typedtensor' },
    },
  );
  context.subscriptions.push(client);
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

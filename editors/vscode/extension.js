// Starts `unodsl lsp` for .uno files. The server does the work: diagnostics, hover, completion,
// go to definition, references, outline, formatting and quick fixes.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("unodsl").get("server.command");
  const server = { command, args };
  client = new LanguageClient(
    "unodsl",
    "unodsl",
    { run: server, debug: server },
    { documentSelector: [{ language: "uno" }] }
  );
  context.subscriptions.push(client);
  return client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `unodsl: could not start \`${[command, ...args].join(" ")}\` (${err.message}). ` +
        "Install it with pip install 'unodsl[lsp]', or set unodsl.server.command."
    );
  });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

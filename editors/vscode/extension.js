// Starts `mancala lsp` for .mancala files. The binary is `mancala` on the PATH, or the setting
// `mancala.server.path`.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("mancala").get("server.path") || "mancala";
  client = new LanguageClient(
    "mancala",
    "Mancala",
    { command, args: ["lsp"] },
    { documentSelector: [{ language: "mancala" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

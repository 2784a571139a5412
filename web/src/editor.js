// The playground's editor: CodeMirror 6 with a mode for the rule language and lint squiggles from the
// server's checker (the records of `mancala check --format json`). Bundled by build.sh into
// assets/editor.js, which sets `window.MancalaEditor`.
import { EditorState } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection,
} from "@codemirror/view";
import {
  StreamLanguage, syntaxHighlighting, HighlightStyle, indentOnInput, bracketMatching,
} from "@codemirror/language";
import { linter, lintGutter, forceLinting } from "@codemirror/lint";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { closeBrackets } from "@codemirror/autocomplete";
import { tags } from "@lezer/highlight";

// The language's tokens: `///` sentences, `#` comments, strings, numbers, keywords (the grammar's words,
// sent by the server), names and operators.
function mancalaLanguage(keywords) {
  const words = new Set(keywords);
  return StreamLanguage.define({
    name: "mancala",
    token(stream) {
      if (stream.eatSpace()) return null;
      if (stream.match("///")) { stream.skipToEnd(); return "docComment"; }
      if (stream.peek() === "#") { stream.skipToEnd(); return "comment"; }
      if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return "string";
      if (stream.match(/^\d+/)) return "number";
      if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
        return words.has(stream.current()) ? "keyword" : "variableName";
      }
      if (stream.match(/^(>=|<=|!=|\.\.|[=<>+\-*\/])/)) return "operator";
      stream.next();
      return null;
    },
    languageData: { commentTokens: { line: "#" } },
  });
}

const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: "var(--kw, #7a3e9d)", fontWeight: "600" },
  { tag: tags.docComment, color: "var(--doc, #2e7d32)", fontStyle: "italic" },
  { tag: tags.comment, color: "var(--comment, #7b7b7b)", fontStyle: "italic" },
  { tag: tags.string, color: "var(--str, #b35c00)" },
  { tag: tags.number, color: "var(--num, #1565c0)" },
  { tag: tags.operator, color: "var(--op, #555)" },
]);

// A byte offset of the UTF-8 text (as the checker counts) as an index into the JavaScript string.
function byteToIndex(text, byte) {
  let bytes = 0;
  let i = 0;
  while (i < text.length && bytes < byte) {
    const code = text.codePointAt(i);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    i += code >= 0x10000 ? 2 : 1;
  }
  return i;
}

function messageNode(d) {
  const box = document.createElement("div");
  box.className = "cm-diag";
  const head = document.createElement("div");
  head.className = "cm-diag-message";
  head.textContent = d.message;
  box.appendChild(head);
  if (d.label && d.label !== d.message) {
    const label = document.createElement("div");
    label.className = "cm-diag-label";
    label.textContent = d.label;
    box.appendChild(label);
  }
  if (d.help) {
    const help = document.createElement("div");
    help.className = "cm-diag-help";
    help.textContent = "help: " + d.help;
    box.appendChild(help);
  }
  return box;
}

// Makes an editor in `parent`. Options: doc, keywords, check(text) -> Promise of records,
// onChange(text), onDiagnostics(records, text).
function create(parent, options) {
  const check = options.check;
  const lint = linter(async (view) => {
    const text = view.state.doc.toString();
    let records = [];
    try {
      records = await check(text);
    } catch (e) {
      return [];
    }
    if (view.state.doc.toString() !== text) return [];
    if (options.onDiagnostics) options.onDiagnostics(records, text);
    const length = view.state.doc.length;
    return records.map((d) => {
      const from = Math.min(byteToIndex(text, d.start), length);
      let to = Math.min(byteToIndex(text, d.end), length);
      return {
        from,
        to: Math.max(to, from),
        severity: d.severity === "error" ? "error" : "warning",
        message: d.message + (d.help ? "\nhelp: " + d.help : ""),
        renderMessage: () => messageNode(d),
        source: d.code,
      };
    });
  }, { delay: 300 });
  const listener = EditorView.updateListener.of((update) => {
    if (update.docChanged && options.onChange) options.onChange(update.state.doc.toString());
  });
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc || "",
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(), history(),
        indentOnInput(), bracketMatching(), closeBrackets(),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        mancalaLanguage(options.keywords || []), syntaxHighlighting(highlight),
        lint, lintGutter(), listener,
        EditorView.contentAttributes.of({ "aria-label": "rule file", spellcheck: "false" }),
      ],
    }),
  });
  return {
    view,
    getText: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    // Moves the cursor to a 1-based line and column and shows it.
    goTo(line, column) {
      const doc = view.state.doc;
      const l = doc.line(Math.max(1, Math.min(line, doc.lines)));
      const pos = Math.min(l.from + Math.max(0, column - 1), l.to);
      view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
      view.focus();
    },
    lintNow: () => forceLinting(view),
    focus: () => view.focus(),
  };
}

window.MancalaEditor = { create };

// The playground's editor: CodeMirror 6 with a mode for the rule language, lint squiggles from the
// server's checker (the records of `mancala check --format json`, with their "did you mean" as a fix),
// and completion and hovers from the server (`/api/complete`, `/api/hover`: the language server's answers).
// Bundled by build.sh into assets/editor.js, which sets `window.MancalaEditor`.
import { EditorState } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection, hoverTooltip,
} from "@codemirror/view";
import {
  StreamLanguage, syntaxHighlighting, HighlightStyle, indentOnInput, bracketMatching,
} from "@codemirror/language";
import { linter, lintGutter, forceLinting } from "@codemirror/lint";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { closeBrackets, autocompletion, completionKeymap } from "@codemirror/autocomplete";
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

// The index into the JavaScript string as a byte offset of its UTF-8.
function indexToByte(text, index) {
  let bytes = 0;
  for (let i = 0; i < index && i < text.length; i++) {
    const code = text.codePointAt(i);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (code >= 0x10000) i++;
  }
  return bytes;
}

// The little Markdown the server writes (paragraphs, ```mancala blocks, `code`, **bold**) as DOM nodes,
// built from text nodes only.
function markdownNode(markdown) {
  const box = document.createElement("div");
  box.className = "cm-doc";
  const blocks = markdown.split("\n\n");
  for (const block of blocks) {
    if (block.startsWith("```")) {
      const pre = document.createElement("pre");
      pre.textContent = block.replace(/^```\w*\n?/, "").replace(/\n?```$/, "");
      box.appendChild(pre);
      continue;
    }
    const p = document.createElement("p");
    for (const part of block.split(/(`[^`]*`|\*\*[^*]*\*\*)/)) {
      if (!part) continue;
      let node;
      if (part.startsWith("`")) {
        node = document.createElement("code");
        node.textContent = part.slice(1, -1);
      } else if (part.startsWith("**")) {
        node = document.createElement("strong");
        node.textContent = part.slice(2, -2);
        if (node.textContent.startsWith("`")) {
          const code = document.createElement("code");
          code.textContent = node.textContent.slice(1, -1);
          node.textContent = "";
          node.appendChild(code);
        }
      } else {
        node = document.createTextNode(part);
      }
      p.appendChild(node);
    }
    box.appendChild(p);
  }
  return box;
}

// Completion from the server: what the grammar reads at the cursor, and the file's names.
function completionSource(complete) {
  return async (context) => {
    const word = context.matchBefore(/[A-Za-z0-9_-]*/);
    if (!context.explicit && word.from === word.to && !/[\s(,]$/.test(context.state.sliceDoc(0, context.pos))) {
      return null;
    }
    const text = context.state.doc.toString();
    let answer;
    try {
      answer = await complete(text, indexToByte(text, context.pos));
    } catch (e) {
      return null;
    }
    if (!answer || context.aborted || !answer.items.length) return null;
    return {
      from: byteToIndex(text, answer.start),
      options: answer.items.map((item) => ({
        label: item.label,
        type: item.kind === "keyword" ? "keyword" : item.kind === "pit" ? "constant" : "variable",
        detail: item.detail,
        info: item.documentation ? () => markdownNode(item.documentation) : undefined,
      })),
      validFor: /^[A-Za-z0-9_-]*$/,
    };
  };
}

// Hovers from the server: a keyword's meaning and example, a name's declaration.
function hoverSource(hover) {
  return hoverTooltip(async (view, pos) => {
    const text = view.state.doc.toString();
    let answer;
    try {
      answer = await hover(text, indexToByte(text, pos));
    } catch (e) {
      return null;
    }
    if (!answer || view.state.doc.toString() !== text) return null;
    return {
      pos: byteToIndex(text, answer.start),
      end: byteToIndex(text, answer.end),
      above: true,
      create: () => ({ dom: markdownNode(answer.markdown) }),
    };
  }, { hoverTime: 350 });
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
// complete(text, byteOffset) -> Promise of {start, end, items}, hover(text, byteOffset) -> Promise of
// {start, end, markdown} or null, onChange(text), onDiagnostics(records, text).
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
        actions: d.suggestion ? [{
          name: "Replace with " + d.suggestion.replacement,
          apply(view) {
            const now = view.state.doc.toString();
            if (now !== text) return;
            view.dispatch({
              changes: {
                from: byteToIndex(text, d.suggestion.start),
                to: byteToIndex(text, d.suggestion.end),
                insert: d.suggestion.replacement,
              },
            });
          },
        }] : [],
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
        keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
        mancalaLanguage(options.keywords || []), syntaxHighlighting(highlight),
        lint, lintGutter(), listener,
        ...(options.complete ? [autocompletion({ override: [completionSource(options.complete)], icons: false })] : []),
        ...(options.hover ? [hoverSource(options.hover)] : []),
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

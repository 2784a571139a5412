//! The language server (`mancala lsp`): the Language Server Protocol over a byte stream, answered by `ide`.
//!
//! The protocol's messages are `lsp-server`'s types and `lsp-types`' parameters, but the frames are read
//! by `frames` (bounded: a declared length is never trusted, a frame that is no message is answered with
//! an error and the server reads on) and the lifecycle is kept here: requests before `initialize` are
//! refused, a request after `shutdown` is answered with an error, and `exit` ends the server with 0 after
//! `shutdown` and 1 without, as the protocol says. This module translates: editor positions (lines and
//! UTF-16 or UTF-8 columns) to byte offsets and back, and `ide`'s answers to the protocol's types.
//!
//! Documents are synced whole. The frames are read on a thread of their own into a queue, and the main
//! loop handles every message waiting before it checks: a document's latest text is checked once, however
//! many changes came while the last check ran, and its diagnostics are then published.

mod frames;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};

use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, FoldingRangeRequest, Formatting, GotoDefinition,
    HoverRequest, PrepareRenameRequest, References, Rename, Request as _,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionProviderCapability, CompletionItem,
    CompletionItemKind, CompletionOptions, CompletionParams, CompletionResponse, CompletionTextEdit,
    DiagnosticRelatedInformation, DiagnosticSeverity, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DocumentFormattingParams, DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse,
    Documentation, FoldingRange, FoldingRangeKind, FoldingRangeParams, FoldingRangeProviderCapability,
    GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents, HoverParams, HoverProviderCapability,
    InitializeParams, Location, MarkupContent, MarkupKind, NumberOrString, OneOf, Position, PositionEncodingKind,
    PrepareRenameResponse, PublishDiagnosticsParams, Range, ReferenceParams, RenameOptions, RenameParams,
    ServerCapabilities, SymbolKind, TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextEdit, Uri, WorkspaceEdit,
};
use serde_json::Value;

use crate::ast::Span;
use crate::diag::{self, Severity};
use crate::ide::{Analysis, CompletionKind, Outline, OutlineKind};

/// Why the server stopped other than by `shutdown` and `exit`.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// How the server ended: by `exit` after `shutdown` (exit code 0), or otherwise (1): `exit` without
/// `shutdown`, or the end of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Clean,
    Unclean,
}

/// How many frames read ahead wait for the main loop at most (each at most `frames::MAX_MESSAGE_BYTES`).
const QUEUED_FRAMES: usize = 64;

/// Serves one client, reading its messages from `input` and writing the answers to `output`, until `exit`
/// or the end of the input. An error is a failure to read or write, not a bad message.
pub fn serve(input: impl Read + Send + 'static, output: impl Write + Send + 'static) -> Result<Exit, Error> {
    let (frames_in, incoming) = mpsc::sync_channel(QUEUED_FRAMES);
    // The reader is not joined: at `exit` it may be waiting for input that never comes.
    std::thread::Builder::new().name("lsp reader".into()).spawn(move || {
        let mut reader = frames::Reader::new(BufReader::new(input));
        loop {
            let frame = reader.next_frame().transpose();
            let Some(frame) = frame else { break };
            let exit = matches!(&frame, Ok(frames::Frame::Message(Message::Notification(n))) if n.method == "exit");
            if frames_in.send(frame).is_err() || exit {
                break;
            }
        }
    })?;
    // Answers are written on a thread of their own, so that a client that writes a long message before it
    // reads the last answers never waits for the server while the server waits for it.
    let (out, answers) = mpsc::channel::<Vec<u8>>();
    let writer = std::thread::Builder::new().name("lsp writer".into()).spawn(move || {
        let mut output = output;
        for bytes in answers {
            output.write_all(&bytes)?;
            output.flush()?;
        }
        Ok::<_, std::io::Error>(())
    })?;
    let mut server = Server {
        state: State::Uninitialized,
        out,
        encoding: Encoding::Utf16,
        docs: BTreeMap::new(),
        dirty: BTreeSet::new(),
        closed: Vec::new(),
    };
    let result = server.main_loop(&incoming);
    drop(server);
    match writer.join() {
        Ok(written) => written?,
        Err(_) => return Err("the language server's writer stopped (this is a bug)".into()),
    }
    result
}

/// How columns are counted: UTF-8 when the client can, else the protocol's default, UTF-16.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Utf8,
    Utf16,
}

fn negotiate_encoding(params: &InitializeParams) -> Encoding {
    let offered = params.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_ref());
    match offered {
        Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
        _ => Encoding::Utf16,
    }
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["(".into()]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    }
}

/// An open document: its text, and its analysis once made.
struct Doc {
    uri: Uri,
    version: Option<i32>,
    lines: LineIndex,
    analysis: Option<Analysis>,
    text: String,
}

impl Doc {
    fn new(uri: Uri, version: Option<i32>, text: String) -> Doc {
        Doc { uri, version, lines: LineIndex::new(&text), analysis: None, text }
    }

    fn analysis(&mut self) -> &Analysis {
        let text = &self.text;
        self.analysis.get_or_insert_with(|| Analysis::new(text))
    }
}

/// Where the server is in the protocol's lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Waiting for `initialize`: other requests are refused.
    Uninitialized,
    Running,
    /// After `shutdown`: only `exit` is expected.
    ShutDown,
}

struct Server {
    state: State,
    /// The framed answers, for the writer.
    out: Sender<Vec<u8>>,
    encoding: Encoding,
    docs: BTreeMap<String, Doc>,
    /// Documents changed since their diagnostics were last published.
    dirty: BTreeSet<String>,
    /// Documents closed since then, whose diagnostics the editor should forget.
    closed: Vec<Uri>,
}

/// A request's failure: the protocol's error code and a message.
type Failure = (ErrorCode, String);

impl Server {
    fn main_loop(&mut self, incoming: &Receiver<std::io::Result<frames::Frame>>) -> Result<Exit, Error> {
        loop {
            // The end of the input without `exit`: the client is gone.
            let Ok(frame) = incoming.recv() else { return Ok(self.exit()) };
            if let Some(exit) = self.handle(frame?)? {
                return Ok(exit);
            }
            // Every message waiting is handled before a document is checked, so that only the latest text
            // of a document is checked, however many changes came during the last check.
            loop {
                match incoming.try_recv() {
                    Ok(frame) => {
                        if let Some(exit) = self.handle(frame?)? {
                            return Ok(exit);
                        }
                    }
                    Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
                }
            }
            if self.state == State::Running {
                self.publish_diagnostics()?;
            }
        }
    }

    /// How `exit` (or the end of the input) ends the server now.
    fn exit(&self) -> Exit {
        match self.state {
            State::ShutDown => Exit::Clean,
            State::Uninitialized | State::Running => Exit::Unclean,
        }
    }

    /// Handles one frame; `Some` where it ends the server.
    fn handle(&mut self, frame: frames::Frame) -> Result<Option<Exit>, Error> {
        let message = match frame {
            frames::Frame::Message(message) => message,
            frames::Frame::Invalid { id, code, message } => {
                eprintln!("mancala lsp: {message}");
                let answer = serde_json::json!({
                    "jsonrpc": "2.0",
                    "id": id,
                    "error": { "code": code as i32, "message": message },
                });
                self.out.send(frames::frame(&serde_json::to_vec(&answer)?))?;
                return Ok(None);
            }
        };
        match message {
            Message::Request(request) => {
                let response = match (self.state, request.method.as_str()) {
                    (State::Uninitialized, "initialize") => self.initialize(request),
                    (State::Uninitialized, _) => Response::new_err(
                        request.id,
                        ErrorCode::ServerNotInitialized as i32,
                        "the server is not initialized: `initialize` comes first".into(),
                    ),
                    (State::ShutDown, _) => Response::new_err(
                        request.id,
                        ErrorCode::InvalidRequest as i32,
                        format!(
                            "the server is shut down: `{}` after `shutdown` (only `exit` may come)",
                            request.method
                        ),
                    ),
                    (State::Running, "initialize") => Response::new_err(
                        request.id,
                        ErrorCode::InvalidRequest as i32,
                        "the server is initialized already".into(),
                    ),
                    (State::Running, "shutdown") => {
                        self.state = State::ShutDown;
                        Response::new_ok(request.id, Value::Null)
                    }
                    (State::Running, _) => self.answer(request),
                };
                self.send(Message::Response(response))?;
            }
            Message::Notification(n) if n.method == "exit" => return Ok(Some(self.exit())),
            Message::Notification(n) => {
                if self.state == State::Running {
                    self.notice(n);
                }
            }
            Message::Response(_) => {}
        }
        Ok(None)
    }

    fn initialize(&mut self, request: Request) -> Response {
        let params: InitializeParams = match serde_json::from_value(request.params) {
            Ok(params) => params,
            Err(e) => return Response::new_err(request.id, ErrorCode::InvalidParams as i32, e.to_string()),
        };
        self.encoding = negotiate_encoding(&params);
        self.state = State::Running;
        let result = serde_json::json!({
            "capabilities": capabilities(self.encoding),
            "serverInfo": { "name": "mancala", "version": env!("CARGO_PKG_VERSION") },
        });
        Response::new_ok(request.id, result)
    }

    fn send(&self, message: Message) -> Result<(), Error> {
        let mut bytes = Vec::new();
        message.write(&mut bytes)?;
        self.out.send(bytes)?;
        Ok(())
    }

    fn notice(&mut self, n: Notification) {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) {
                    let key = p.text_document.uri.as_str().to_string();
                    self.docs.insert(
                        key.clone(),
                        Doc::new(p.text_document.uri, Some(p.text_document.version), p.text_document.text),
                    );
                    self.dirty.insert(key);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) {
                    // Synced whole: the last change is the text.
                    let Some(change) = p.content_changes.into_iter().last() else { return };
                    let key = p.text_document.uri.as_str().to_string();
                    self.docs
                        .insert(key.clone(), Doc::new(p.text_document.uri, Some(p.text_document.version), change.text));
                    self.dirty.insert(key);
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) {
                    let key = p.text_document.uri.as_str().to_string();
                    if let Some(doc) = self.docs.remove(&key) {
                        self.dirty.remove(&key);
                        // Clear what the editor shows for a file that is no longer open.
                        self.closed.push(doc.uri);
                    }
                }
            }
            _ => {}
        }
    }

    fn publish_diagnostics(&mut self) -> Result<(), Error> {
        for uri in std::mem::take(&mut self.closed) {
            let params = PublishDiagnosticsParams { uri, diagnostics: Vec::new(), version: None };
            self.send(Message::Notification(Notification::new(PublishDiagnostics::METHOD.into(), params)))?;
        }
        for key in std::mem::take(&mut self.dirty) {
            let encoding = self.encoding;
            let Some(doc) = self.docs.get_mut(&key) else { continue };
            doc.analysis();
            let doc = &*doc;
            let Some(analysis) = &doc.analysis else { continue };
            let diagnostics = analysis.diagnostics().iter().map(|d| to_lsp_diagnostic(doc, encoding, d)).collect();
            let params = PublishDiagnosticsParams { uri: doc.uri.clone(), diagnostics, version: doc.version };
            self.send(Message::Notification(Notification::new(PublishDiagnostics::METHOD.into(), params)))?;
        }
        Ok(())
    }

    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        match self.dispatch(request) {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    fn dispatch(&mut self, request: Request) -> Result<Value, Failure> {
        let Request { method, params, .. } = request;
        let value = match method.as_str() {
            HoverRequest::METHOD => to_value(self.hover(parse(params)?)),
            Completion::METHOD => to_value(self.completion(parse(params)?)),
            GotoDefinition::METHOD => to_value(self.definition(parse(params)?)),
            References::METHOD => to_value(self.references(parse(params)?)),
            PrepareRenameRequest::METHOD => to_value(self.prepare_rename(parse(params)?)),
            Rename::METHOD => to_value(self.rename(parse(params)?)),
            DocumentSymbolRequest::METHOD => to_value(self.outline(parse(params)?)),
            CodeActionRequest::METHOD => to_value(self.code_actions(parse(params)?)),
            Formatting::METHOD => to_value(self.format(parse(params)?)),
            FoldingRangeRequest::METHOD => to_value(self.folding(parse(params)?)),
            _ => return Err((ErrorCode::MethodNotFound, format!("`{method}` is not supported"))),
        };
        value
    }

    /// The document and the byte offset of a position in it.
    fn at(&mut self, p: &TextDocumentPositionParams) -> Result<(&mut Doc, usize), Failure> {
        let encoding = self.encoding;
        let doc = self.doc(&p.text_document.uri)?;
        let offset = doc.lines.offset(&doc.text, p.position, encoding);
        Ok((doc, offset))
    }

    fn doc(&mut self, uri: &Uri) -> Result<&mut Doc, Failure> {
        self.docs
            .get_mut(uri.as_str())
            .ok_or_else(|| (ErrorCode::InvalidParams, format!("{} is not open", uri.as_str())))
    }

    fn hover(&mut self, p: HoverParams) -> Result<Option<Hover>, Failure> {
        let encoding = self.encoding;
        let (doc, offset) = self.at(&p.text_document_position_params)?;
        let Some(hover) = doc.analysis().hover(offset) else { return Ok(None) };
        Ok(Some(Hover {
            contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: hover.markdown }),
            range: Some(doc.lines.range(&doc.text, hover.span, encoding)),
        }))
    }

    fn completion(&mut self, p: CompletionParams) -> Result<Option<CompletionResponse>, Failure> {
        let encoding = self.encoding;
        let (doc, offset) = self.at(&p.text_document_position)?;
        let completions = doc.analysis().completions(offset);
        let range = doc.lines.range(&doc.text, completions.span, encoding);
        let items = completions
            .items
            .into_iter()
            .map(|c| CompletionItem {
                kind: Some(match c.kind {
                    CompletionKind::Keyword => CompletionItemKind::KEYWORD,
                    CompletionKind::Name => CompletionItemKind::VARIABLE,
                    CompletionKind::Pit => CompletionItemKind::CONSTANT,
                }),
                detail: Some(c.detail),
                documentation: Some(Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: c.documentation,
                })),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit { range, new_text: c.label.clone() })),
                label: c.label,
                ..CompletionItem::default()
            })
            .collect();
        Ok(Some(CompletionResponse::Array(items)))
    }

    fn definition(&mut self, p: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>, Failure> {
        let encoding = self.encoding;
        let (doc, offset) = self.at(&p.text_document_position_params)?;
        let spans = doc.analysis().definition(offset);
        let locations: Vec<Location> = spans.into_iter().map(|s| doc.location(s, encoding)).collect();
        Ok((!locations.is_empty()).then_some(GotoDefinitionResponse::Array(locations)))
    }

    fn references(&mut self, p: ReferenceParams) -> Result<Option<Vec<Location>>, Failure> {
        let encoding = self.encoding;
        let with_declarations = p.context.include_declaration;
        let (doc, offset) = self.at(&p.text_document_position)?;
        let spans = doc.analysis().references(offset, with_declarations);
        Ok(Some(spans.into_iter().map(|s| doc.location(s, encoding)).collect()))
    }

    fn prepare_rename(&mut self, p: TextDocumentPositionParams) -> Result<Option<PrepareRenameResponse>, Failure> {
        let encoding = self.encoding;
        let (doc, offset) = self.at(&p)?;
        let (span, _, _) = doc.analysis().rename_target(offset).map_err(|m| (ErrorCode::RequestFailed, m))?;
        Ok(Some(PrepareRenameResponse::Range(doc.lines.range(&doc.text, span, encoding))))
    }

    fn rename(&mut self, p: RenameParams) -> Result<Option<WorkspaceEdit>, Failure> {
        let encoding = self.encoding;
        let (doc, offset) = self.at(&p.text_document_position)?;
        let edits = doc.analysis().rename(offset, &p.new_name).map_err(|m| (ErrorCode::RequestFailed, m))?;
        let edits = edits
            .into_iter()
            .map(|(span, new_text)| TextEdit { range: doc.lines.range(&doc.text, span, encoding), new_text })
            .collect();
        Ok(Some(WorkspaceEdit { changes: Some(HashMap::from([(doc.uri.clone(), edits)])), ..WorkspaceEdit::default() }))
    }

    fn outline(&mut self, p: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>, Failure> {
        let encoding = self.encoding;
        let doc = self.doc(&p.text_document.uri)?;
        let outline = doc.analysis().outline();
        let symbols = outline.iter().map(|o| to_symbol(&doc.lines, &doc.text, encoding, o)).collect();
        Ok(Some(DocumentSymbolResponse::Nested(symbols)))
    }

    /// The whole text replaced by `mancala fmt`'s layout of it, or no edit where it is laid out so already.
    fn format(&mut self, p: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>, Failure> {
        let encoding = self.encoding;
        let doc = self.doc(&p.text_document.uri)?;
        let formatted = doc.analysis().formatted().map_err(|m| (ErrorCode::RequestFailed, m))?;
        let whole = Span::new(0, doc.text.len());
        Ok(Some(formatted.map_or_else(Vec::new, |new_text| {
            vec![TextEdit { range: doc.lines.range(&doc.text, whole, encoding), new_text }]
        })))
    }

    /// The blocks an editor may fold, by lines.
    fn folding(&mut self, p: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>, Failure> {
        let encoding = self.encoding;
        let doc = self.doc(&p.text_document.uri)?;
        let spans = doc.analysis().folding_ranges();
        let ranges = spans
            .into_iter()
            .map(|span| {
                let range = doc.lines.range(&doc.text, span, encoding);
                FoldingRange {
                    start_line: range.start.line,
                    end_line: range.end.line,
                    kind: Some(FoldingRangeKind::Region),
                    ..FoldingRange::default()
                }
            })
            .filter(|r| r.end_line > r.start_line)
            .collect();
        Ok(Some(ranges))
    }

    fn code_actions(&mut self, p: CodeActionParams) -> Result<Option<Vec<CodeActionOrCommand>>, Failure> {
        let encoding = self.encoding;
        let doc = self.doc(&p.text_document.uri)?;
        let start = doc.lines.offset(&doc.text, p.range.start, encoding);
        let end = doc.lines.offset(&doc.text, p.range.end, encoding);
        doc.analysis();
        let doc = &*doc;
        let Some(analysis) = &doc.analysis else { return Ok(None) };
        let actions = analysis
            .fixes(Span::new(start, end))
            .into_iter()
            .map(|fix| {
                let edit =
                    TextEdit { range: doc.lines.range(&doc.text, fix.span, encoding), new_text: fix.replacement };
                let diagnostic = to_lsp_diagnostic(doc, encoding, &analysis.diagnostics()[fix.diagnostic]);
                CodeActionOrCommand::CodeAction(CodeAction {
                    title: fix.title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diagnostic]),
                    edit: Some(WorkspaceEdit {
                        changes: Some(HashMap::from([(doc.uri.clone(), vec![edit])])),
                        ..WorkspaceEdit::default()
                    }),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                })
            })
            .collect();
        Ok(Some(actions))
    }
}

impl Doc {
    fn location(&self, span: Span, encoding: Encoding) -> Location {
        Location { uri: self.uri.clone(), range: self.lines.range(&self.text, span, encoding) }
    }
}

fn parse<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, Failure> {
    serde_json::from_value(params).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}

fn to_value<T: serde::Serialize>(result: Result<T, Failure>) -> Result<Value, Failure> {
    result.and_then(|v| serde_json::to_value(v).map_err(|e| (ErrorCode::InternalError, e.to_string())))
}

/// A diagnostic as `check` makes it, for the editor: the message with the help under it, the related spans
/// as related information.
fn to_lsp_diagnostic(doc: &Doc, encoding: Encoding, d: &diag::Diagnostic) -> lsp_types::Diagnostic {
    let (uri, lines, text) = (&doc.uri, &doc.lines, &doc.text);
    let mut message = d.message.clone();
    if !d.label.is_empty() && d.label != d.message {
        message.push_str(&format!(" ({})", d.label));
    }
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let related = d
        .related
        .iter()
        .map(|(span, label)| DiagnosticRelatedInformation {
            location: Location { uri: uri.clone(), range: lines.range(text, *span, encoding) },
            message: label.clone(),
        })
        .collect::<Vec<_>>();
    lsp_types::Diagnostic {
        range: lines.range(text, d.span, encoding),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.clone())),
        source: Some("mancala".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn to_symbol(lines: &LineIndex, text: &str, encoding: Encoding, o: &Outline) -> DocumentSymbol {
    DocumentSymbol {
        name: o.name.clone(),
        detail: None,
        kind: match o.kind {
            OutlineKind::Phase => SymbolKind::NAMESPACE,
            OutlineKind::Action => SymbolKind::FUNCTION,
            OutlineKind::Variant => SymbolKind::MODULE,
            OutlineKind::Place => SymbolKind::VARIABLE,
            OutlineKind::Region => SymbolKind::ARRAY,
            OutlineKind::Mark => SymbolKind::PROPERTY,
            OutlineKind::Kind => SymbolKind::ENUM_MEMBER,
        },
        tags: None,
        deprecated: None,
        range: lines.range(text, o.span, encoding),
        selection_range: lines.range(text, o.selection, encoding),
        children: Some(o.children.iter().map(|c| to_symbol(lines, text, encoding, c)).collect()),
    }
}

/// The starts of a text's lines, to turn byte offsets into lines and columns and back.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        LineIndex { starts }
    }

    fn position(&self, text: &str, offset: usize, encoding: Encoding) -> Position {
        let offset = floor(text, offset);
        let line = self.starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let before = &text[self.starts[line]..offset];
        let character = match encoding {
            Encoding::Utf8 => before.len(),
            Encoding::Utf16 => before.encode_utf16().count(),
        };
        Position { line: line as u32, character: character as u32 }
    }

    fn range(&self, text: &str, span: Span, encoding: Encoding) -> Range {
        Range { start: self.position(text, span.start, encoding), end: self.position(text, span.end, encoding) }
    }

    /// The byte offset of a position; a position past a line's end is its end, past the text the text's end.
    fn offset(&self, text: &str, p: Position, encoding: Encoding) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else { return text.len() };
        let end = self.starts.get(p.line as usize + 1).map_or(text.len(), |&e| e - 1);
        let line = &text[start..end.max(start)];
        let mut units = 0usize;
        for (i, c) in line.char_indices() {
            if units >= p.character as usize {
                return start + i;
            }
            units += match encoding {
                Encoding::Utf8 => c.len_utf8(),
                Encoding::Utf16 => c.len_utf16(),
            };
        }
        start + line.len()
    }
}

fn floor(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

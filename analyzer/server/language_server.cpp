#include "analyzer/server/language_server.h"

#include <algorithm>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "analyzer/server/code_actions.h"
#include "analyzer/server/hover.h"
#include "analyzer/server/log.h"
#include "analyzer/server/lsp_diagnostics.h"

namespace sealint::server {

namespace {

constexpr std::chrono::milliseconds kNow{0};

// The files a configuration comes from: a change to one re-analyses every open document.
bool is_configuration_file(std::string_view path_or_uri) {
  const std::string name = std::filesystem::path(path_or_uri).filename().string();
  return name == "pyproject.toml" || name == ".sealint.toml";
}

unsigned worker_count(unsigned asked) {
  if (asked != 0) return asked;
  // Two at least, so that Python never waits behind Clang (scheduler.h); four at most, since a
  // user edits a few files at a time and each Clang parse takes about 100 MB.
  return std::clamp(std::thread::hardware_concurrency(), 2U, 4U);
}

PositionEncoding choose_encoding(const Json& capabilities) {
  const Json* offered = member(capabilities, {"general", "positionEncodings"});
  if (offered == nullptr || !offered->is_array()) return PositionEncoding::Utf16;
  // The client lists them in its order of preference; UTF-16 is the one every client takes.
  for (const Json& name : *offered) {
    if (name == "utf-8") return PositionEncoding::Utf8;
    if (name == "utf-16") return PositionEncoding::Utf16;
    if (name == "utf-32") return PositionEncoding::Utf32;
  }
  return PositionEncoding::Utf16;
}

// The folders of `initialize`: `workspaceFolders`, else the older `rootUri`, else `rootPath`.
std::vector<std::string> workspace_roots(const Json& params) {
  std::vector<std::string> roots;
  if (const Json* folders = member(params, {"workspaceFolders"});
      folders != nullptr && folders->is_array()) {
    for (const Json& folder : *folders) {
      if (auto uri = string_member(folder, {"uri"})) {
        if (auto path = file_uri_path(*uri)) roots.push_back(std::move(*path));
      }
    }
  }
  if (roots.empty()) {
    if (auto uri = string_member(params, {"rootUri"})) {
      if (auto path = file_uri_path(*uri)) roots.push_back(std::move(*path));
    }
  }
  if (roots.empty()) {
    if (auto path = string_member(params, {"rootPath"}); path && !path->empty())
      roots.push_back(std::move(*path));
  }
  return roots;
}

}  // namespace

LanguageServer::LanguageServer(const rules::RuleRegistry& registry,
                               const python::PythonGrammar& grammar, MessageWriter& writer,
                               LanguageServerOptions options)
    : writer_(writer),
      options_(std::move(options)),
      analyzer_(registry, grammar),
      settings_(std::make_shared<const ServerSettings>(options_.settings)),
      initial_settings_(options_.settings),
      scheduler_(
          worker_count(options_.workers),
          [this](const AnalysisJob& job) { return analyzer_.analyse(job); },
          [this](const AnalysisJob& job, AnalysisResult&& result) {
            publish(job, std::move(result));
          }) {}

void LanguageServer::handle(std::string_view body) {
  Incoming incoming = classify(body);
  if (auto* invalid = std::get_if<Invalid>(&incoming)) {
    log_line(fmt::format("refused a message: {}", invalid->message));
    send_error(invalid->id, invalid->code, invalid->message);
    return;
  }
  // nlohmann-json throws on a value of an unexpected type; the handlers read params through
  // member() and friends, so this is the last resort that keeps a client's mistake from ending
  // the server.
  try {
    if (auto* request = std::get_if<Request>(&incoming)) {
      try {
        on_request(*request);
      } catch (const std::exception& error) {
        send_error(request->id, ErrorCode::InternalError, error.what());
      }
    } else if (auto* notification = std::get_if<Notification>(&incoming)) {
      on_notification(*notification);
    }  // a Response: the client's answer to client/registerCapability, which nothing waits on
  } catch (const std::exception& error) {
    log_line(fmt::format("internal error: {} (please report)", error.what()));
  }
}

void LanguageServer::send_error(const Json& id, ErrorCode code, std::string_view message) {
  writer_.send(error_body(id, code, message));
}

void LanguageServer::on_request(const Request& request) {
  const std::string& method = request.method;
  if (!initialized_ && method != "initialize") {
    send_error(request.id, ErrorCode::ServerNotInitialized, "the server is not initialized");
    return;
  }
  if (shutdown_) {
    send_error(request.id, ErrorCode::InvalidRequest, "the server is shutting down");
    return;
  }
  if (method == "initialize") {
    if (initialized_) {
      send_error(request.id, ErrorCode::InvalidRequest, "initialize was already received");
      return;
    }
    writer_.send(result_body(request.id, initialize(request.params)));
  } else if (method == "shutdown") {
    shutdown_ = true;
    writer_.send(result_body(request.id, nullptr));
  } else if (method == "textDocument/codeAction" || method == "textDocument/hover") {
    const auto answer =
        method == "textDocument/hover" ? hover(request.params) : code_action(request.params);
    if (answer) {
      writer_.send(result_body(request.id, *answer));
    } else {
      send_error(request.id, ErrorCode::InvalidParams,
                 fmt::format("`{}` needs a textDocument and a position or range", method));
    }
  } else {
    send_error(request.id, ErrorCode::MethodNotFound,
               fmt::format("sealint server does not handle `{}`", method));
  }
}

void LanguageServer::on_notification(const Notification& notification) {
  const std::string& method = notification.method;
  const Json& params = notification.params;
  if (method == "exit") {
    exit_code_ = shutdown_ ? 0 : 1;
    return;
  }
  // Before `initialize`, LSP drops notifications; after `shutdown`, nothing is analysed.
  if (!initialized_ || shutdown_) return;
  if (method == "initialized") {
    register_watchers();
  } else if (method == "textDocument/didOpen") {
    did_open(params);
  } else if (method == "textDocument/didChange") {
    did_change(params);
  } else if (method == "textDocument/didSave") {
    // A saved file may be one another document imports, or its configuration: every open
    // document is analysed again (the saved one's text has not changed; its findings may have).
    const auto uri = string_member(params, {"textDocument", "uri"});
    if (uri && is_configuration_file(*uri)) log_line("configuration saved: analysing again");
    schedule_all();
  } else if (method == "textDocument/didClose") {
    did_close(params);
  } else if (method == "workspace/didChangeConfiguration") {
    did_change_configuration(params);
  } else if (method == "workspace/didChangeWatchedFiles") {
    did_change_watched_files(params);
  }
  // `$/cancelRequest`: every request is answered as it is read, so there is none to cancel.
  // Other notifications (`$/setTrace`, ...) change nothing here.
}

Json LanguageServer::initialize(const Json& params) {
  initialized_ = true;
  const Json empty = Json::object();
  const Json* found = member(params, {"capabilities"});
  const Json& capabilities = found != nullptr ? *found : empty;
  encoding_ = choose_encoding(capabilities);
  if (const Json* formats = member(capabilities, {"textDocument", "hover", "contentFormat"});
      formats != nullptr && formats->is_array()) {
    markdown_hover_ = std::find(formats->begin(), formats->end(), "markdown") != formats->end();
  }
  document_changes_ = bool_member(capabilities, {"workspace", "workspaceEdit", "documentChanges"});
  watch_registration_ =
      bool_member(capabilities, {"workspace", "didChangeWatchedFiles", "dynamicRegistration"});
  initial_settings_.workspace_roots = workspace_roots(params);
  if (const Json* options = member(params, {"initializationOptions"})) {
    std::vector<std::string> warnings;
    initial_settings_ = read_settings(*options, initial_settings_, warnings);
    for (const std::string& warning : warnings) log_line(warning);
  }
  settings_ = std::make_shared<const ServerSettings>(initial_settings_);
  // A client without CodeAction literals takes only `true` here (LSP 3.17).
  Json code_actions = true;
  if (member(capabilities, {"textDocument", "codeAction", "codeActionLiteralSupport"}) != nullptr) {
    code_actions = {{"codeActionKinds", {"quickfix", "source.fixAll.sealint"}},
                    {"resolveProvider", false}};
  }
  return {{"capabilities",
           {{"positionEncoding", encoding_name(encoding_)},
            {"textDocumentSync",
             {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
            {"codeActionProvider", code_actions},
            {"hoverProvider", true}}},
          {"serverInfo", {{"name", "sealint"}, {"version", options_.version}}}};
}

void LanguageServer::register_watchers() {
  // Configuration files are rarely open in the editor: the client watches them for the server.
  if (!watch_registration_) return;
  const Json watchers =
      Json::array({{{"globPattern", "**/pyproject.toml"}}, {{"globPattern", "**/.sealint.toml"}}});
  const Json registration = {{"id", "sealint-configuration-files"},
                             {"method", "workspace/didChangeWatchedFiles"},
                             {"registerOptions", {{"watchers", watchers}}}};
  writer_.send(request_body(fmt::format("sealint-{}", next_request_id_++),
                            "client/registerCapability",
                            {{"registrations", Json::array({registration})}}));
}

void LanguageServer::did_open(const Json& params) {
  const auto uri = string_member(params, {"textDocument", "uri"});
  const auto text = string_member(params, {"textDocument", "text"});
  if (!uri || !text) return log_line("didOpen without a uri or text; ignored");
  const std::string language = string_member(params, {"textDocument", "languageId"}).value_or("");
  const int64_t version = integer_member(params, {"textDocument", "version"}).value_or(0);
  const Document& document = documents_.open(*uri, language, version, *text);
  if (document.language == DocumentLanguage::None) {
    if (document.path.ends_with(".ipynb"))
      log_line(
          fmt::format("{}: notebooks are analysed by `sealint` on the command line, not by "
                      "the server",
                      document.path));
    return;
  }
  schedule(document, kNow);
}

void LanguageServer::did_change(const Json& params) {
  const auto uri = string_member(params, {"textDocument", "uri"});
  const Json* changes = member(params, {"contentChanges"});
  if (!uri || changes == nullptr || !changes->is_array() || changes->empty()) return;
  // Full sync: each change is the whole text, and the last one is the buffer now. A change with
  // a range would be an incremental one, which the server did not ask for.
  const Json& last = changes->back();
  const auto text = string_member(last, {"text"});
  if (!text || last.contains("range")) {
    log_line("didChange without the whole text (the server asked for full sync); ignored");
    return;
  }
  const int64_t version = integer_member(params, {"textDocument", "version"}).value_or(0);
  const Document* document = documents_.change(*uri, version, *text);
  if (document == nullptr || document->language == DocumentLanguage::None) return;
  schedule(*document, options_.debounce);
}

void LanguageServer::did_close(const Json& params) {
  const auto uri = string_member(params, {"textDocument", "uri"});
  if (!uri) return;
  documents_.close(*uri);
  scheduler_.forget(*uri, [&] {
    {
      const std::lock_guard lock(published_mutex_);
      published_.erase(*uri);
    }
    // A closed file's findings go from the Problems list: its buffer is gone.
    writer_.send(notification_body("textDocument/publishDiagnostics",
                                   {{"uri", *uri}, {"diagnostics", Json::array()}}));
  });
}

void LanguageServer::did_change_configuration(const Json& params) {
  if (const Json* settings = member(params, {"settings"})) {
    std::vector<std::string> warnings;
    settings_ = std::make_shared<const ServerSettings>(
        read_settings(*settings, initial_settings_, warnings));
    for (const std::string& warning : warnings) log_line(warning);
  }
  // Also when nothing was sent (a pull-model client's nudge): configuration files are read again
  // by every analysis.
  schedule_all();
}

void LanguageServer::did_change_watched_files(const Json& params) {
  const Json* changes = member(params, {"changes"});
  if (changes == nullptr || !changes->is_array()) return;
  const bool configuration = std::any_of(changes->begin(), changes->end(), [](const Json& change) {
    const auto uri = string_member(change, {"uri"});
    return uri && is_configuration_file(*uri);
  });
  if (configuration) schedule_all();
}

void LanguageServer::schedule(const Document& document, std::chrono::milliseconds delay) {
  AnalysisJob job{document.uri,     document.path, document.language,
                  document.version, document.text, settings_};
  const bool heavy = document.language == DocumentLanguage::Cpp;
  scheduler_.schedule(document.uri, std::move(job), heavy, delay);
}

void LanguageServer::schedule_all() {
  for (const Document* document : documents_.all()) {
    if (document->language != DocumentLanguage::None) schedule(*document, kNow);
  }
}

void LanguageServer::publish(const AnalysisJob& job, AnalysisResult&& result) {
  const DocumentPositions positions(*job.text, encoding_);
  Json diagnostics = Json::array();
  for (const InputError& error : result.errors)
    diagnostics.push_back(lsp_diagnostic(error, positions));
  for (const Diagnostic& finding : result.diagnostics)
    diagnostics.push_back(lsp_diagnostic(finding, positions, job.uri));
  for (const LeftOutTest& test : result.left_out_tests)
    diagnostics.push_back(lsp_diagnostic(test, positions));
  auto published = std::make_shared<Published>();
  published->text = job.text;
  published->version = job.version;
  published->language = job.language;
  published->findings = std::move(result.diagnostics);
  {
    const std::lock_guard lock(published_mutex_);
    published_[job.uri] = std::move(published);
  }
  writer_.send(notification_body(
      "textDocument/publishDiagnostics",
      {{"uri", job.uri}, {"version", job.version}, {"diagnostics", std::move(diagnostics)}}));
}

std::shared_ptr<const LanguageServer::Published> LanguageServer::current(
    const std::string& uri) const {
  const Document* document = documents_.find(uri);
  if (document == nullptr) return nullptr;
  const std::lock_guard lock(published_mutex_);
  const auto it = published_.find(uri);
  if (it == published_.end() || it->second->text != document->text) return nullptr;
  return it->second;
}

std::optional<Json> LanguageServer::code_action(const Json& params) {
  const auto uri = string_member(params, {"textDocument", "uri"});
  const Json* range = member(params, {"range"});
  if (!uri || range == nullptr) return std::nullopt;
  const auto published = current(*uri);
  if (published == nullptr) return Json::array();
  const Json* only = member(params, {"context", "only"});
  const DocumentPositions positions(*published->text, encoding_);
  const ActionDocument document{*uri, published->version, *published->text, published->language,
                                positions};
  return code_actions(published->findings, *range, only != nullptr ? *only : Json(), document,
                      {document_changes_, settings_->unsafe_fixes});
}

std::optional<Json> LanguageServer::hover(const Json& params) {
  const auto uri = string_member(params, {"textDocument", "uri"});
  const Json* position = member(params, {"position"});
  if (!uri || position == nullptr) return std::nullopt;
  const auto published = current(*uri);
  if (published == nullptr) return Json();
  const DocumentPositions positions(*published->text, encoding_);
  auto answer = server::hover(published->findings, *position, positions, markdown_hover_);
  return answer ? std::move(*answer) : Json();
}

}  // namespace sealint::server

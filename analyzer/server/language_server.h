#pragma once
// The LSP methods: what each message does to the server's state, and each request's answer.
// Called by the main thread only, one message at a time; the scheduler's workers publish
// diagnostics through the same writer.
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/server/analysis.h"
#include "analyzer/server/documents.h"
#include "analyzer/server/json_rpc.h"
#include "analyzer/server/line_index.h"
#include "analyzer/server/scheduler.h"
#include "analyzer/server/settings.h"
#include "analyzer/server/transport.h"

namespace sealint::server {

struct LanguageServerOptions {
  std::string version;
  ServerSettings settings;  // before the client's
  unsigned workers = 0;
  std::chrono::milliseconds debounce{200};
};

class LanguageServer {
 public:
  LanguageServer(const rules::RuleRegistry& registry, const python::PythonGrammar& grammar,
                 MessageWriter& writer, LanguageServerOptions options);

  // One message's body, as the reader gave it.
  void handle(std::string_view body);
  // Set once `exit` arrived: the process's exit status.
  [[nodiscard]] std::optional<int> exit_code() const { return exit_code_; }
  [[nodiscard]] bool shut_down() const { return shutdown_; }

 private:
  // What one analysis published, kept for the requests about the document.
  struct Published {
    std::shared_ptr<const std::string> text;  // the exact text analysed (shared with the store)
    int64_t version = 0;
    DocumentLanguage language = DocumentLanguage::None;
    std::vector<Diagnostic> findings;
  };

  void on_request(const Request& request);
  void on_notification(const Notification& notification);
  [[nodiscard]] Json initialize(const Json& params);
  // nullopt: the params lack what the method needs (an InvalidParams error).
  [[nodiscard]] std::optional<Json> code_action(const Json& params);
  [[nodiscard]] std::optional<Json> hover(const Json& params);
  void did_open(const Json& params);
  void did_change(const Json& params);
  void did_close(const Json& params);
  void did_change_configuration(const Json& params);
  void did_change_watched_files(const Json& params);
  void register_watchers();

  void schedule(const Document& document, std::chrono::milliseconds delay);
  void schedule_all();
  void publish(const AnalysisJob& job, AnalysisResult&& result);
  // The published findings of a document, when they are of the text the client has now (edits
  // made for an older text would land in the wrong place).
  [[nodiscard]] std::shared_ptr<const Published> current(const std::string& uri) const;
  void send_error(const Json& id, ErrorCode code, std::string_view message);

  MessageWriter& writer_;
  const LanguageServerOptions options_;
  Analyzer analyzer_;
  DocumentStore documents_;
  std::shared_ptr<const ServerSettings> settings_;
  ServerSettings initial_settings_;  // the command line's and initializationOptions'

  // What the client said it supports, read once in `initialize` (before any analysis is
  // scheduled, so the workers read them after the scheduler's lock has published them).
  PositionEncoding encoding_ = PositionEncoding::Utf16;
  bool markdown_hover_ = false;
  bool document_changes_ = false;
  bool watch_registration_ = false;
  bool initialized_ = false;
  bool shutdown_ = false;
  std::optional<int> exit_code_;
  int64_t next_request_id_ = 1;

  mutable std::mutex published_mutex_;  // workers write, the main thread reads
  std::map<std::string, std::shared_ptr<const Published>> published_;

  // Last: destroyed first, so its workers stop before what they use goes.
  Scheduler<AnalysisJob, AnalysisResult> scheduler_;
};

}  // namespace sealint::server

"""`sealint server` driven over pipes: framing, malformed messages, the LSP lifecycle, diagnostics,
code actions, hover, configuration, and C++ analyses that never hold up Python.

Usage: protocol_test.py SEALINT [unittest arguments]
"""

import json
import os
import shutil
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import Server, apply_edits, file_uri  # noqa: E402  pylint: disable=wrong-import-position

SEALINT = None

# The PyTorch FAQ's leak, shared with the Neovim test: SL001 on `total_loss += loss`.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "editor", "train.py"),
          encoding="utf-8") as leaky_file:
    LEAKY = leaky_file.read()
LEAK_LINE = LEAKY.splitlines().index("        total_loss += loss")  # 0-based
FIXED = LEAKY.replace("total_loss += loss\n", "total_loss += loss.item()\n")


class ServerTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="sealint-server-")
        self.servers = []

    def tearDown(self):
        for server in self.servers:
            if server.process.poll() is None:
                server.process.kill()
                server.finish()
        shutil.rmtree(self.folder, ignore_errors=True)

    def start(self, args=()):
        server = Server(SEALINT, self.folder, args)
        self.servers.append(server)
        return server

    def started(self, **initialize):
        server = self.start()
        server.initialize(**initialize)
        return server

    def write(self, name, text):
        path = os.path.join(self.folder, name)
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        return path

    def uri(self, name):
        return file_uri(os.path.join(self.folder, name))

    def finish_cleanly(self, server):
        self.assertEqual(server.shutdown_and_exit(), 0, server.stderr.decode(errors="replace"))


class FramingTest(ServerTest):
    def test_headers_split_across_writes(self):
        server = self.start()
        body = b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}'
        message = b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        # Pieces cut inside the header name, between \r and \n, and inside the body; each written
        # on its own, so that the server reads them apart.
        for piece in (message[:7], message[7:19], message[19:21], message[21:40], message[40:]):
            server.send_bytes(piece)
            time.sleep(0.05)
        self.assertIn("capabilities", server.response(1)["result"])
        self.finish_cleanly(server)

    def test_several_messages_in_one_write(self):
        server = self.start()
        from lsp_client import frame  # pylint: disable=import-outside-toplevel
        server.send_bytes(
            frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"capabilities": {}}})
            + frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
            + frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
                     "params": {"textDocument": {"uri": self.uri("a.py")},
                                "position": {"line": 0, "character": 0}}})
            + frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}))
        self.assertIn("result", server.response(1))
        self.assertIsNone(server.response(2)["result"])
        self.assertIsNone(server.response(3)["result"])
        server.notify("exit")
        self.assertEqual(server.finish(), 0)

    def test_other_headers_and_lowercase_names_are_read(self):
        server = self.start()
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"capabilities": {}}}).encode()
        server.send_bytes(b"content-length: %d\r\nContent-Type: application/vscode-jsonrpc; "
                          b"charset=utf-8\r\n\r\n%s" % (len(body), body))
        self.assertIn("result", server.response(1))
        self.finish_cleanly(server)

    def test_bad_headers_are_logged_and_reading_goes_on(self):
        server = self.start()
        body = b'{"jsonrpc": "2.0", "id": 9, "method": "shutdown"}'
        # A header block without Content-Length, then one whose length is no number: both are
        # skipped; the message after them is read.
        server.send_bytes(b"Content-Type: text/plain\r\n\r\n" + body)
        server.send_bytes(b"Content-Length: lots\r\n\r\n" + body)
        server.initialize()
        self.finish_cleanly(server)
        self.assertIn(b"bad message header", server.stderr)

    def test_a_huge_header_line_is_dropped(self):
        server = self.start()
        server.send_bytes(b"X" * 100000 + b"\r\n\r\n")
        server.initialize()
        self.finish_cleanly(server)
        self.assertIn(b"header line longer than", server.stderr)


class MalformedMessageTest(ServerTest):
    def send_body(self, server, body):
        server.send_bytes(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    def test_invalid_json_is_a_parse_error(self):
        server = self.started()
        self.send_body(server, b'{"jsonrpc": "2.0", "id": 5, "method": ')
        error = server.wait_for(lambda m: "error" in m)
        self.assertEqual(error["error"]["code"], -32700)
        self.assertIsNone(error["id"])
        self.finish_cleanly(server)

    def test_not_a_request_is_an_invalid_request(self):
        server = self.started()
        for body, request_id in ((b'[1, 2]', None), (b'"text"', None),
                                 (b'{"id": 7, "method": "shutdown"}', 7),
                                 (b'{"jsonrpc": "2.0", "id": 8}', 8),
                                 (b'{"jsonrpc": "2.0", "id": 9, "method": 3}', 9),
                                 (b'{"jsonrpc": "2.0", "id": 10, "method": "x", "params": 1}', 10),
                                 (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "x"}', None)):
            self.send_body(server, body)
            error = server.wait_for(lambda m: "error" in m)
            self.assertEqual(error["error"]["code"], -32600, body)
            self.assertEqual(error["id"], request_id, body)
        self.finish_cleanly(server)

    def test_invalid_utf8_and_deep_nesting_do_not_crash(self):
        server = self.started()
        self.send_body(server, b'{"jsonrpc": "2.0", "method": "x", "params": {"a": "\xff\xfe"}}')
        self.assertEqual(server.wait_for(lambda m: "error" in m)["error"]["code"], -32700)
        self.send_body(server, b"[" * 200000 + b"]" * 200000)
        self.assertEqual(server.wait_for(lambda m: "error" in m)["error"]["code"], -32600)
        self.finish_cleanly(server)

    def test_params_of_the_wrong_shape_get_an_error_not_a_crash(self):
        server = self.started()
        server.notify("textDocument/didOpen", {"textDocument": {"uri": 5, "text": None}})
        server.notify("textDocument/didChange", {"textDocument": "x", "contentChanges": 3})
        server.notify("workspace/didChangeConfiguration", {"settings": {"sealint": {"select": 1}}})
        response = server.call("textDocument/codeAction", {"textDocument": {}})
        self.assertEqual(response["error"]["code"], -32602)
        response = server.call("textDocument/hover", {"textDocument": {"uri": self.uri("a.py")},
                                                      "position": {"line": "x"}})
        self.assertIsNone(response["result"])
        self.finish_cleanly(server)


class LifecycleTest(ServerTest):
    def test_unknown_request_is_method_not_found(self):
        server = self.started()
        response = server.call("textDocument/definition", {})
        self.assertEqual(response["error"]["code"], -32601)
        self.finish_cleanly(server)

    def test_unknown_notifications_and_cancel_are_ignored(self):
        server = self.started()
        server.notify("$/setTrace", {"value": "off"})
        server.notify("custom/somethingNew", {"x": 1})
        server.notify("$/cancelRequest", {"id": 42})
        # Nothing answers them: the next message is the response to the next request.
        request_id = server.request("shutdown")
        message = server.next_message()
        self.assertEqual(message.get("id"), request_id, message)
        server.notify("exit")
        self.assertEqual(server.finish(), 0)

    def test_a_request_before_initialize_is_refused(self):
        server = self.start()
        response = server.call("textDocument/hover", {})
        self.assertEqual(response["error"]["code"], -32002)
        server.initialize()
        self.finish_cleanly(server)

    def test_initialize_twice_is_refused(self):
        server = self.started()
        response = server.call("initialize", {"capabilities": {}})
        self.assertEqual(response["error"]["code"], -32600)
        self.finish_cleanly(server)

    def test_capabilities(self):
        server = self.start()
        result = server.initialize()
        capabilities = result["result"]["capabilities"]
        self.assertEqual(capabilities["textDocumentSync"]["change"], 1)
        self.assertTrue(capabilities["textDocumentSync"]["openClose"])
        self.assertTrue(capabilities["hoverProvider"])
        self.assertIn("quickfix", capabilities["codeActionProvider"]["codeActionKinds"])
        self.assertEqual(capabilities["positionEncoding"], "utf-16")
        self.assertEqual(result["result"]["serverInfo"]["name"], "sealint")
        self.finish_cleanly(server)

    def test_shutdown_then_exit_is_status_0(self):
        server = self.started()
        self.finish_cleanly(server)

    def test_requests_after_shutdown_are_invalid(self):
        server = self.started()
        server.call("shutdown")
        response = server.call("textDocument/hover", {})
        self.assertEqual(response["error"]["code"], -32600)
        server.notify("exit")
        self.assertEqual(server.finish(), 0)

    def test_exit_without_shutdown_is_status_1(self):
        server = self.started()
        server.open(self.uri("a.py"), LEAKY)
        server.notify("exit")
        self.assertEqual(server.finish(), 1)
        self.assertNotIn(b"internal error", server.stderr)

    def test_exit_before_initialize_is_status_1(self):
        server = self.start()
        server.notify("exit")
        self.assertEqual(server.finish(), 1)

    def test_closed_input_without_exit_is_status_1(self):
        server = self.started()
        self.assertEqual(server.finish(), 1)


class DiagnosticsTest(ServerTest):
    def test_a_leak_in_the_unsaved_buffer_is_published(self):
        # On disk the file is fixed; the buffer is not: the buffer is what is analysed.
        self.write("train.py", FIXED)
        server = self.started()
        uri = self.uri("train.py")
        server.open(uri, LEAKY)
        published = server.diagnostics(uri)
        self.assertEqual(published["version"], 1)
        [diagnostic] = published["diagnostics"]
        self.assertEqual(diagnostic["code"], "SL001")
        self.assertEqual(diagnostic["severity"], 1)
        self.assertEqual(diagnostic["source"], "sealint")
        self.assertEqual(diagnostic["range"], {"start": {"line": LEAK_LINE, "character": 8},
                                               "end": {"line": LEAK_LINE, "character": 26}})
        self.assertTrue(diagnostic["codeDescription"]["href"].endswith("docs/rules/SL001.md"))
        self.assertIn("`total_loss`", diagnostic["message"])
        related = diagnostic["relatedInformation"]
        # Where `total_loss` is created, and the loop header.
        self.assertEqual([r["location"]["range"]["start"]["line"] for r in related],
                         [LEAK_LINE - 6, LEAK_LINE - 5])
        self.assertTrue(all(r["location"]["uri"] == uri for r in related))
        self.finish_cleanly(server)

    def test_did_change_updates_and_did_close_clears(self):
        server = self.started()
        uri = self.uri("train.py")
        server.open(uri, LEAKY)
        self.assertEqual(len(server.diagnostics(uri, version=1)["diagnostics"]), 1)
        server.change(uri, FIXED, 2)
        self.assertEqual(server.diagnostics(uri, version=2)["diagnostics"], [])
        server.change(uri, LEAKY, 3)
        self.assertEqual(len(server.diagnostics(uri, version=3)["diagnostics"]), 1)
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        self.assertEqual(server.diagnostics(uri)["diagnostics"], [])
        self.finish_cleanly(server)

    def test_rapid_changes_publish_the_last_version_only(self):
        server = self.started()
        uri = self.uri("train.py")
        server.open(uri, FIXED)
        self.assertEqual(server.diagnostics(uri, version=1)["diagnostics"], [])
        # Typing: versions 2 to 7 within the debounce; only the last one is analysed.
        server.hold()
        for version in range(2, 7):
            server.change(uri, LEAKY if version % 2 == 0 else FIXED, version)
        server.change(uri, LEAKY, 7)
        server.release()
        published = server.diagnostics(uri)
        self.assertEqual(published["version"], 7)
        self.assertEqual(len(published["diagnostics"]), 1)
        self.finish_cleanly(server)

    def test_a_long_elif_chain_is_analysed(self):
        # 40,000 nested `if`s to the analysis's walkers, past the 32,000 that overflowed a default
        # 8 MiB stack: the driver runs each analysis on a large one, the server's as the command
        # line's. (Not more: under the sanitizers the parse nears its time budget.)
        lines = ["import torch", "def f(x):", "    if x == 0:", "        y = torch.zeros(1)"]
        for i in range(1, 40000):
            lines += ["    elif x == %d:" % i, "        y = torch.zeros(%d)" % i]
        server = self.started()
        uri = self.uri("dispatch.py")
        server.open(uri, "\n".join(lines) + "\n")
        self.assertEqual(server.diagnostics(uri, version=1)["diagnostics"], [])
        leaky = self.uri("train.py")
        server.open(leaky, LEAKY)
        self.assertEqual(len(server.diagnostics(leaky, version=1)["diagnostics"]), 1)
        self.finish_cleanly(server)

    def test_a_syntax_error_is_a_diagnostic_without_a_code(self):
        server = self.started()
        uri = self.uri("broken.py")
        server.open(uri, "def f(:\n    pass\n")
        [diagnostic] = server.diagnostics(uri)["diagnostics"]
        self.assertNotIn("code", diagnostic)
        self.assertIn("syntax error", diagnostic["message"])
        self.assertEqual(diagnostic["range"]["start"]["line"], 0)
        self.finish_cleanly(server)

    def test_a_test_functions_left_out_findings_are_a_hint_on_its_definition(self):
        # As the command line's summary counts them (analyse-tests off): a hint, no finding.
        server = self.started()
        uri = self.uri("test_training.py")
        text = LEAKY.replace("def train(", "def test_training(")
        server.open(uri, text)
        [hint] = server.diagnostics(uri)["diagnostics"]
        definition = text.splitlines().index(next(l for l in text.splitlines()
                                                  if l.startswith("def test_training(")))
        self.assertEqual(hint["severity"], 4)
        self.assertNotIn("code", hint)
        self.assertEqual(hint["range"]["start"], {"line": definition, "character": 0})
        self.assertIn("1 finding (SL001) left out in test function `test_training`",
                      hint["message"])
        self.finish_cleanly(server)

    def test_suppressed_findings_are_not_published(self):
        server = self.started()
        uri = self.uri("train.py")
        server.open(uri, LEAKY.replace("total_loss += loss\n",
                                       "total_loss += loss  # sealint: ignore[SL001]\n"))
        self.assertEqual(server.diagnostics(uri)["diagnostics"], [])
        self.finish_cleanly(server)

    def test_utf8_positions_when_the_client_prefers_them(self):
        server = self.started(capabilities={"general": {"positionEncodings": ["utf-8", "utf-16"]}})
        uri = self.uri("train.py")
        # `é` is 2 bytes, 1 UTF-16 unit: the finding on the same line starts 1 later in UTF-8.
        server.open(uri, LEAKY.replace("total_loss += loss\n", "é = 0; total_loss += loss\n"))
        [diagnostic] = server.diagnostics(uri)["diagnostics"]
        self.assertEqual(diagnostic["range"]["start"], {"line": LEAK_LINE, "character": 16})
        self.finish_cleanly(server)

    def test_files_that_are_not_python_or_cpp_sources_are_not_analysed(self):
        server = self.started()
        for name, language in (("model.h", "cpp"), ("pyproject.toml", "toml"),
                               ("nb.ipynb", "python")):
            server.open(self.uri(name), LEAKY, language)
        uri = self.uri("train.py")
        server.open(uri, LEAKY)
        server.diagnostics(uri)
        self.assertEqual([m for m in server.pending if "method" in m], [])
        self.finish_cleanly(server)

    def test_an_unsaved_untitled_buffer_is_analysed_by_its_language(self):
        server = self.started()
        server.open("untitled:Untitled-1", LEAKY)
        self.assertEqual(len(server.diagnostics("untitled:Untitled-1")["diagnostics"]), 1)
        self.finish_cleanly(server)


class ConfigurationTest(ServerTest):
    def test_the_files_configuration_applies_and_is_read_again_when_it_changes(self):
        self.write("pyproject.toml", '[tool.sealint]\nignore = ["SL001"]\n')
        server = self.started(capabilities={
            "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}})
        registration = server.wait_for(lambda m: m.get("method") == "client/registerCapability")
        server.send({"jsonrpc": "2.0", "id": registration["id"], "result": None})
        uri = self.uri("train.py")
        server.open(uri, LEAKY)
        self.assertEqual(server.diagnostics(uri)["diagnostics"], [])
        self.write("pyproject.toml", "[tool.sealint]\n")
        server.notify("workspace/didChangeWatchedFiles",
                      {"changes": [{"uri": self.uri("pyproject.toml"), "type": 2}]})
        self.assertEqual(len(server.diagnostics(uri)["diagnostics"]), 1)
        self.finish_cleanly(server)

    def test_saving_the_configuration_file_analyses_again(self):
        server = self.started()
        uri = self.uri("train.py")
        server.open(uri, LEAKY)
        self.assertEqual(len(server.diagnostics(uri)["diagnostics"]), 1)
        self.write(".sealint.toml", 'ignore = ["SL001"]\n')
        server.notify("textDocument/didSave", {"textDocument": {"uri": self.uri(".sealint.toml")}})
        self.assertEqual(server.diagnostics(uri)["diagnostics"], [])
        self.finish_cleanly(server)

    def test_a_broken_configuration_is_shown_and_the_defaults_apply(self):
        self.write("pyproject.toml", "[tool.sealint]\nselect = [\n")
        server = self.started()
        uri = self.uri("train.py")
        server.open(uri, LEAKY)
        diagnostics = server.diagnostics(uri)["diagnostics"]
        self.assertEqual(sorted(d.get("code", "") for d in diagnostics), ["", "SL001"])
        [error] = [d for d in diagnostics if "code" not in d]
        self.assertIn("pyproject.toml", error["message"])
        self.finish_cleanly(server)

    def test_client_settings_apply(self):
        server = self.started(options={"sealint": {"ignore": ["SL001"]}})
        uri = self.uri("train.py")
        server.open(uri, LEAKY)
        self.assertEqual(server.diagnostics(uri)["diagnostics"], [])
        server.notify("workspace/didChangeConfiguration", {"settings": {"sealint": {"ignore": []}}})
        self.assertEqual(len(server.diagnostics(uri)["diagnostics"]), 1)
        self.finish_cleanly(server)

    def test_the_command_lines_options_apply(self):
        server = self.start(args=("--ignore", "SL001"))
        server.initialize()
        uri = self.uri("train.py")
        server.open(uri, LEAKY)
        self.assertEqual(server.diagnostics(uri)["diagnostics"], [])
        self.finish_cleanly(server)


class ActionsTest(ServerTest):
    def open_leak(self, server, text=LEAKY):
        uri = self.uri("train.py")
        server.open(uri, text)
        [diagnostic] = server.diagnostics(uri)["diagnostics"]
        return uri, diagnostic

    def actions(self, server, uri, diagnostic, only=None):
        context = {"diagnostics": [diagnostic]}
        if only is not None:
            context["only"] = only
        response = server.call("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diagnostic["range"], "context": context})
        return response["result"]

    def edited(self, action, uri, text, version=1):
        [change] = action["edit"]["documentChanges"]
        self.assertEqual(change["textDocument"], {"uri": uri, "version": version})
        return apply_edits(text, change["edits"])

    def test_the_fix_is_a_workspace_edit(self):
        server = self.started()
        uri, diagnostic = self.open_leak(server)
        actions = self.actions(server, uri, diagnostic)
        [fix] = [a for a in actions if "item()" in a["title"]]
        self.assertEqual(fix["kind"], "quickfix")
        self.assertEqual(fix["diagnostics"][0]["code"], "SL001")
        self.assertIn("unsafe", fix["title"])
        fixed = self.edited(fix, uri, LEAKY)
        self.assertIn("total_loss += loss.detach().item()\n", fixed)
        server.change(uri, fixed, 2)
        self.assertEqual(server.diagnostics(uri, version=2)["diagnostics"], [])
        self.finish_cleanly(server)

    def test_suppress_on_this_line(self):
        server = self.started()
        uri, diagnostic = self.open_leak(server)
        [suppress] = [a for a in self.actions(server, uri, diagnostic)
                      if a["title"] == "SL001: suppress on this line"]
        suppressed = self.edited(suppress, uri, LEAKY)
        self.assertIn("total_loss += loss  # sealint: ignore[SL001]\n", suppressed)
        server.change(uri, suppressed, 2)
        self.assertEqual(server.diagnostics(uri, version=2)["diagnostics"], [])
        self.finish_cleanly(server)

    def test_suppress_joins_a_list_already_on_the_line(self):
        server = self.started()
        text = LEAKY.replace("total_loss += loss\n", "total_loss += loss  # sealint: ignore[SL004]\n")
        uri, diagnostic = self.open_leak(server, text)
        [suppress] = [a for a in self.actions(server, uri, diagnostic)
                      if a["title"] == "SL001: suppress on this line"]
        self.assertIn("# sealint: ignore[SL004, SL001]\n", self.edited(suppress, uri, text))
        self.finish_cleanly(server)

    def test_edits_without_document_changes_for_a_client_without_them(self):
        server = self.started(capabilities={"textDocument": {"codeAction": {
            "codeActionLiteralSupport": {"codeActionKind": {"valueSet": []}}}}})
        uri, diagnostic = self.open_leak(server)
        for action in self.actions(server, uri, diagnostic):
            self.assertEqual(list(action["edit"]["changes"]), [uri])
        self.finish_cleanly(server)

    def test_fix_all_applies_safe_fixes_or_unsafe_when_set(self):
        server = self.started()
        uri, diagnostic = self.open_leak(server)
        # SL001's fix is unsafe: "fix all" has nothing to do until the settings allow it.
        self.assertEqual(self.actions(server, uri, diagnostic, only=["source.fixAll"]), [])
        server.notify("workspace/didChangeConfiguration",
                      {"settings": {"sealint": {"unsafeFixes": True}}})
        server.diagnostics(uri)
        [fix_all] = self.actions(server, uri, diagnostic, only=["source.fixAll"])
        self.assertEqual(fix_all["kind"], "source.fixAll.sealint")
        self.assertIn("total_loss += loss.detach().item()\n", self.edited(fix_all, uri, LEAKY))
        # Asked for source actions only, no quick fix comes.
        self.assertEqual([a["kind"] for a in self.actions(server, uri, diagnostic,
                                                          only=["source"])],
                         ["source.fixAll.sealint"])
        self.finish_cleanly(server)

    def test_no_actions_for_a_buffer_changed_since_its_analysis(self):
        server = self.started()
        uri, diagnostic = self.open_leak(server)
        # The change is waiting for its debounce: edits made for version 1 would land wrongly.
        server.hold()
        server.change(uri, "\n\n" + LEAKY, 2)
        request_id = server.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diagnostic["range"],
            "context": {"diagnostics": [diagnostic]}})
        server.release()
        self.assertEqual(server.response(request_id)["result"], [])
        self.finish_cleanly(server)

    def test_a_cpp_finding_is_fixed_and_suppressed_in_cpp(self):
        server = self.started()
        uri = self.uri("train.cpp")
        lines = slow_cpp_source(1).splitlines(keepends=True)
        text = "".join(lines)
        server.open(uri, text, "cpp")
        [diagnostic] = server.diagnostics(uri)["diagnostics"]
        self.assertEqual(diagnostic["code"], "SL001")
        self.assertEqual(lines[diagnostic["range"]["start"]["line"]], "    total += loss;\n")
        actions = {a["title"]: a for a in self.actions(server, uri, diagnostic)}
        suppress = actions["SL001: suppress on this line"]
        self.assertIn("    total += loss;  // sealint: ignore[SL001]\n",
                      self.edited(suppress, uri, text))
        [fix] = [a for title, a in actions.items() if "item" in title]
        self.assertIn("    total += loss.item<float>();\n", self.edited(fix, uri, text))
        self.finish_cleanly(server)

    def test_hover_shows_the_rule_docs(self):
        server = self.started()
        uri, diagnostic = self.open_leak(server)
        response = server.call("textDocument/hover", {"textDocument": {"uri": uri},
                                                      "position": {"line": LEAK_LINE,
                                                                   "character": 12}})
        hover = response["result"]
        self.assertEqual(hover["contents"]["kind"], "markdown")
        self.assertIn("**SL001** `grad-accumulation`", hover["contents"]["value"])
        self.assertIn("## What it does", hover["contents"]["value"])
        self.assertIn("docs/rules/SL001.md", hover["contents"]["value"])
        self.assertEqual(hover["range"], diagnostic["range"])
        response = server.call("textDocument/hover", {"textDocument": {"uri": uri},
                                                      "position": {"line": 0, "character": 0}})
        self.assertIsNone(response["result"])
        self.finish_cleanly(server)


def slow_cpp_source(functions=1500):
    """A C++ file whose analysis takes seconds (Clang and lowering of many training loops)."""
    parts = ["#include <torch/torch.h>\n"]
    for index in range(functions):
        parts.append(
            "float train_%d(torch::nn::Linear& model, torch::optim::SGD& optimizer,\n"
            "                std::vector<torch::Tensor>& batches) {\n"
            "  torch::Tensor total = torch::zeros({1});\n"
            "  for (auto& batch : batches) {\n"
            "    optimizer.zero_grad();\n"
            "    auto loss = model->forward(batch).sum();\n"
            "    loss.backward();\n"
            "    optimizer.step();\n"
            "    total += loss;\n"
            "  }\n"
            "  return total.item<float>();\n"
            "}\n" % index)
    return "".join(parts)


class ConcurrencyTest(ServerTest):
    def test_a_cpp_analysis_does_not_hold_up_python(self):
        server = self.started()
        cpp_uri, py_uri = self.uri("train.cpp"), self.uri("train.py")
        server.open(cpp_uri, slow_cpp_source(), "cpp")
        server.open(py_uri, LEAKY)
        hover_id = server.request("textDocument/hover", {"textDocument": {"uri": py_uri},
                                                         "position": {"line": 0, "character": 0}})
        # The request is answered and the Python buffer published while Clang still works.
        order = []
        while len(order) < 3:
            message = server.next_message()
            if message.get("id") == hover_id:
                order.append("hover")
            elif message.get("method") == "textDocument/publishDiagnostics":
                order.append(message["params"]["uri"])
                if message["params"]["uri"] == cpp_uri:
                    self.assertEqual(len(message["params"]["diagnostics"]), 1500)
        self.assertEqual(order[-1], cpp_uri, order)
        self.finish_cleanly(server)

    def test_a_newer_version_replaces_a_cpp_analysis_that_runs(self):
        server = self.started()
        uri = self.uri("train.cpp")
        server.open(uri, slow_cpp_source(), "cpp")
        server.change(uri, slow_cpp_source(2), 2)
        published = server.diagnostics(uri)
        # Version 1's analysis ran to its end but was not published: version 2 is the buffer.
        self.assertEqual(published["version"], 2)
        self.assertEqual(len(published["diagnostics"]), 2)
        self.finish_cleanly(server)

    def test_exit_while_an_analysis_runs(self):
        server = self.started()
        server.open(self.uri("train.cpp"), slow_cpp_source(), "cpp")
        server.call("shutdown")
        server.notify("exit")
        self.assertEqual(server.finish(), 0)


if __name__ == "__main__":
    SEALINT = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)

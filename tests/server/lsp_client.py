"""A minimal LSP client over pipes, for the protocol tests of `sealint server`.

Plain Python (json, subprocess, threads): the tests run under /usr/bin/python3 with no packages.
Every byte the server writes to stdout must parse as a framed JSON-RPC message: anything else
(a stray print) fails the test that reads it.
"""

import json
import os
import queue
import subprocess
import threading
import time

# Analyses run under the sanitizers too, several times slower: generous, and only ever reached
# when something is wrong.
TIMEOUT = 120.0


class ProtocolError(AssertionError):
    pass


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


class Server:
    """`sealint server` as a child process, its messages read by a thread into a queue."""

    def __init__(self, sealint, cwd, args=(), env=None):
        clean = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": cwd}
        if env:
            clean.update(env)
        # ASan/UBSan options reach the child when the suite runs under them.
        for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            if name in os.environ:
                clean[name] = os.environ[name]
        self.process = subprocess.Popen(
            [sealint, *args, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=cwd, env=clean)
        self.incoming = queue.Queue()
        self.pending = []  # read, not yet taken by a wait
        self.stderr = b""
        self.next_id = 1
        self.held = None
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._reader.start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    # --- reading -------------------------------------------------------------------------------

    def _read_stdout(self):
        stream = self.process.stdout
        try:
            while True:
                length = None
                while True:
                    line = stream.readline()
                    if not line:
                        self.incoming.put(None)
                        return
                    if line == b"\r\n":
                        break
                    if not line.endswith(b"\r\n"):
                        raise ProtocolError("not a header line on stdout: %r" % line)
                    name, _, value = line.decode().partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                    else:
                        raise ProtocolError("unexpected header on stdout: %r" % line)
                if length is None:
                    raise ProtocolError("a message without Content-Length on stdout")
                body = stream.read(length)
                self.incoming.put(json.loads(body))
        except Exception as error:  # pylint: disable=broad-except
            self.incoming.put(error)

    def _read_stderr(self):
        self.stderr = self.process.stderr.read()

    def wait_for(self, predicate, timeout=TIMEOUT, what="a message"):
        """The first message, read or to come, for which `predicate` holds."""
        for index, message in enumerate(self.pending):
            if predicate(message):
                return self.pending.pop(index)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProtocolError("timed out waiting for %s; got %r" % (what, self.pending))
            try:
                message = self.incoming.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                raise ProtocolError("the server closed stdout while waiting for %s; stderr: %s"
                                    % (what, self.stderr.decode(errors="replace")))
            if isinstance(message, Exception):
                raise message
            if predicate(message):
                return message
            self.pending.append(message)

    def next_message(self, timeout=TIMEOUT):
        """The next message in arrival order."""
        if self.pending:
            return self.pending.pop(0)
        return self.wait_for(lambda m: True, timeout)

    def response(self, request_id, timeout=TIMEOUT):
        return self.wait_for(lambda m: m.get("id") == request_id and "method" not in m, timeout,
                             "the response to %r" % request_id)

    def diagnostics(self, uri, version=None, timeout=TIMEOUT):
        """The next publishDiagnostics for `uri` (of `version`, when given)."""
        def matches(message):
            if message.get("method") != "textDocument/publishDiagnostics":
                return False
            params = message["params"]
            return params["uri"] == uri and (version is None or params.get("version") == version)
        return self.wait_for(matches, timeout, "diagnostics for %s" % uri)["params"]

    # --- writing -------------------------------------------------------------------------------

    def send_bytes(self, data):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message):
        if self.held is not None:
            self.held.append(frame(message))
        else:
            self.send_bytes(frame(message))

    def hold(self):
        """Keeps what is sent from now on until `release()`, which writes it all at once: the
        server reads it in one go, with no pause between the messages (a debounce test)."""
        self.held = []

    def release(self):
        held, self.held = self.held, None
        self.send_bytes(b"".join(held))

    def request(self, method, params=None):
        request_id = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return request_id

    def call(self, method, params=None):
        return self.response(self.request(method, params))

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    # --- LSP -----------------------------------------------------------------------------------

    def initialize(self, capabilities=None, options=None):
        params = {"processId": os.getpid(), "rootUri": None,
                  "capabilities": capabilities if capabilities is not None else {
                      "textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]},
                                       "codeAction": {"codeActionLiteralSupport": {
                                           "codeActionKind": {"valueSet": ["quickfix"]}}}},
                      "workspace": {"workspaceEdit": {"documentChanges": True}}}}
        if options is not None:
            params["initializationOptions"] = options
        result = self.call("initialize", params)
        self.notify("initialized", {})
        return result

    def open(self, uri, text, language="python", version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language, "version": version, "text": text}})

    def change(self, uri, text, version):
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})

    def finish(self, timeout=TIMEOUT):
        """Ends the process (if the test has not) and returns its exit status."""
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        status = self.process.wait(timeout)
        self._stderr_reader.join(timeout)
        self.process.stdout.close()
        self.process.stderr.close()
        # Under the sanitizers a report exits 1, the status `exit` without `shutdown` has too:
        # the report itself fails the test.
        for report in (b"Sanitizer", b"runtime error:", b"internal error"):
            if report in self.stderr:
                raise ProtocolError("the server reported a fault: %s"
                                    % self.stderr.decode(errors="replace"))
        return status

    def shutdown_and_exit(self):
        response = self.call("shutdown")
        assert response.get("result", "missing") is None, response
        self.notify("exit")
        return self.finish()


def file_uri(path):
    return "file://" + path


def apply_edits(text, edits):
    """Applies LSP TextEdits (UTF-16 positions, as the server was asked for) to `text`."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position):
        line = position["line"]
        if line >= len(lines):
            return len(text)
        content = lines[line]
        units = 0
        for index, char in enumerate(content):
            if units >= position["character"] or char in "\r\n":
                return starts[line] + index
            units += 2 if ord(char) > 0xFFFF else 1
        return starts[line] + len(content)

    for edit in sorted(edits, key=lambda e: (e["range"]["start"]["line"],
                                             e["range"]["start"]["character"]), reverse=True):
        begin, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:begin] + edit["newText"] + text[end:]
    return text

-- Neovim's built-in LSP client attached to `sealint server` (run by nvim_lsp_test.sh with the
-- leaky train.py as the current buffer). Uses only what Neovim 0.7 (Debian 12) has:
-- vim.lsp.start_client and buf_attach_client (vim.lsp.start came in 0.8).
-- Every check failing ends Neovim with a non-zero status (cquit), its reason on stderr.

local TIMEOUT = 120000 -- ms; reached only when something is wrong (sanitizer builds are slow)

local function fail(message)
  io.stderr:write("nvim_lsp_test: FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end

local function check(condition, message)
  if not condition then
    error(message, 2)
  end
end

local function run()
  local sealint = os.getenv("SEALINT")
  check(sealint ~= nil and sealint ~= "", "SEALINT is not set")
  local bufnr = vim.api.nvim_get_current_buf()
  local path = vim.api.nvim_buf_get_name(bufnr)
  check(vim.bo[bufnr].filetype == "python", "the buffer is not Python: " .. vim.bo[bufnr].filetype)

  local exit_code = nil
  local client_id = vim.lsp.start_client({
    name = "sealint",
    cmd = { sealint, "server" },
    root_dir = vim.fn.fnamemodify(path, ":h"),
    on_exit = function(code)
      exit_code = code
    end,
  })
  check(client_id ~= nil, "the client did not start")
  vim.lsp.buf_attach_client(bufnr, client_id)

  -- 1. The diagnostic: rule, line, severity, source.
  check(vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 20), "no diagnostics arrived")
  local diagnostics = vim.diagnostic.get(bufnr)
  check(#diagnostics == 1, "expected 1 diagnostic, got " .. #diagnostics)
  local d = diagnostics[1]
  check(d.code == "SL001", "code: " .. tostring(d.code))
  check(d.lnum == 8 and d.col == 8, ("position: %d:%d"):format(d.lnum, d.col))
  check(d.severity == vim.diagnostic.severity.ERROR, "severity: " .. tostring(d.severity))
  check(d.source == "sealint", "source: " .. tostring(d.source))
  check(d.message:find("`total_loss`", 1, true) ~= nil, "message: " .. d.message)

  -- 2. Hover over the finding shows the rule's docs.
  local position = { line = d.lnum, character = d.col + 2 }
  local hovers = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = position,
  }, TIMEOUT)
  local hover = hovers and hovers[client_id] and hovers[client_id].result
  check(hover ~= nil, "no hover")
  check(hover.contents.value:find("grad-accumulation", 1, true) ~= nil, "hover: " .. hover.contents.value)

  -- 3. The code action that fixes it, applied as Neovim applies one.
  local client = vim.lsp.get_client_by_id(client_id)
  local responses = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = d.lnum, character = d.col }, ["end"] = { line = d.end_lnum, character = d.end_col } },
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr, d.lnum) },
  }, TIMEOUT)
  local actions = responses and responses[client_id] and responses[client_id].result or {}
  local fix = nil
  local titles = {}
  for _, action in ipairs(actions) do
    table.insert(titles, action.title)
    if action.kind == "quickfix" and action.title:find(".item()", 1, true) then
      fix = action
    end
  end
  check(fix ~= nil, "no fix among the code actions: " .. table.concat(titles, " | "))
  check(vim.tbl_contains(titles, "SL001: suppress on this line"), "no suppression action")
  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
  local line = vim.api.nvim_buf_get_lines(bufnr, d.lnum, d.lnum + 1, true)[1]
  check(line == "        total_loss += loss.detach().item()", "the fixed line: " .. line)

  -- 4. The edit goes to the server (didChange); the fixed buffer has no finding left.
  check(vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(bufnr) == 0
  end, 20), "the diagnostic stayed after the fix")

  -- 5. A clean shutdown: shutdown, exit, and the server's status 0.
  vim.lsp.stop_client(client_id)
  check(vim.wait(TIMEOUT, function()
    return exit_code ~= nil
  end, 20), "the server did not exit")
  check(exit_code == 0, "the server exited with " .. tostring(exit_code))
end

local ok, err = pcall(run)
if not ok then
  fail(tostring(err))
else
  io.stderr:write("nvim_lsp_test: ok\n")
  vim.cmd("qall!")
end

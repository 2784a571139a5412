-- A session of Neovim's built-in LSP client with `mancala lsp`, run headless by tests/nvim.rs:
--   MANCALA_BIN=... MANCALA_OUT=... nvim --headless -u NONE -i NONE -n -c "luafile tests/nvim/session.lua" FILE
-- It waits for the diagnostics, asks for a hover on a keyword and on a name, for the completions after
-- `direction ` and where a place goes, renames a place, and writes what it got to MANCALA_OUT.
-- Written for Neovim 0.7 (Debian bookworm's) and later: start_client and buf_request_sync.

local out = assert(io.open(os.getenv("MANCALA_OUT"), "w"))
local function say(line) out:write(line, "\n") end

local function finish(code)
  out:close()
  vim.cmd(code == 0 and "qa!" or ("cq! " .. code))
end

local ok, err = pcall(function()
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = "mancala"
  local client_id = vim.lsp.start_client({
    name = "mancala",
    cmd = { os.getenv("MANCALA_BIN"), "lsp" },
    root_dir = vim.fn.getcwd(),
  })
  assert(client_id, "the client starts")
  vim.lsp.buf_attach_client(bufnr, client_id)
  assert(vim.wait(10000, function()
    local c = vim.lsp.get_client_by_id(client_id)
    return c ~= nil and c.initialized
  end, 20), "the server initializes")
  say("server: " .. vim.lsp.get_client_by_id(client_id).name .. " (attached to " .. vim.fn.expand("%:t") .. ")")

  -- Diagnostics, published after the file is opened.
  assert(vim.wait(10000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20), "diagnostics arrive")
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    say(string.format("diagnostic %d:%d %s", d.lnum + 1, d.col + 1, (d.message:gsub("\n", " | "))))
  end

  -- Puts the cursor on the first match of a pattern, plus `shift` columns, and asks the server.
  local function ask(method, pattern, shift, extra)
    vim.fn.cursor(1, 1)
    assert(vim.fn.search(pattern, "cW") > 0, "found " .. pattern)
    -- The position is moved by hand: in normal mode the cursor cannot stand past a line's last character.
    local params = vim.lsp.util.make_position_params()
    params.position.character = params.position.character + (shift or 0)
    for k, v in pairs(extra or {}) do params[k] = v end
    local answers = vim.lsp.buf_request_sync(bufnr, method, params, 10000)
    local answer = answers and answers[client_id]
    assert(answer, method .. " answered")
    assert(not answer.err, method .. ": " .. vim.inspect(answer.err))
    return answer.result
  end

  for _, spot in ipairs({ { "capture {", 2 }, { "furrow(mover)", 1 } }) do
    local hover = ask("textDocument/hover", spot[1], spot[2])
    say("hover on `" .. spot[1] .. "`:")
    for _, line in ipairs(vim.split(hover.contents.value, "\n")) do say("  " .. line) end
  end

  -- Completion after `direction ` (the line is edited first, as a person typing would).
  local line = vim.fn.search("direction choose", "cw")
  vim.api.nvim_buf_set_lines(bufnr, line - 1, line, false, { "    direction " })
  local items = ask("textDocument/completion", "direction $", 10)
  local labels = {}
  for _, item in ipairs(items.items or items) do table.insert(labels, item.label) end
  say("completion after `direction `: " .. table.concat(labels, " "))
  vim.api.nvim_buf_set_lines(bufnr, line - 1, line, false, { "    direction choose" })
  items = ask("textDocument/completion", "to centre", 3)
  labels = {}
  for _, item in ipairs(items.items or items) do
    if item.kind ~= 14 then table.insert(labels, item.label) end -- 14: keywords, left out here
  end
  say("completion of names at `to |centre`: " .. table.concat(labels, " "))

  -- Rename the place `furrow` to `park`, applied by the client.
  local edit = ask("textDocument/rename", "furrow(mover)", 1, { newName = "park" })
  local count = 0
  for _, edits in pairs(edit.changes) do count = count + #edits end
  vim.lsp.util.apply_workspace_edit(edit, "utf-16")
  say("rename furrow -> park: " .. count .. " edits; the lines now:")
  for i, text in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if text:find("park") and not text:find("^%s*#") then say(string.format("  %3d  %s", i, text)) end
  end
  vim.lsp.stop_client(client_id)
end)

if not ok then say("error: " .. tostring(err)) end
finish(ok and 0 or 1)

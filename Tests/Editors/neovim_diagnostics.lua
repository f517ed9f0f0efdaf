-- Headless Neovim as an LSP client of `anim lsp`: opens a script, starts the server with
-- Neovim's built-in client, waits for the diagnostics, optionally replaces the buffer's text
-- and waits for the next ones, stops the client (shutdown, exit), and writes what it received
-- as JSON. Works with Neovim 0.7 (Debian 12) and later.
--
--   ANIM_BINARY=anim ANIM_SCRIPT=file.anim ANIM_OUT=out.json [ANIM_EDIT='new text'] \
--     nvim --headless -u NONE -i NONE -n -c 'luafile Tests/Editors/neovim_diagnostics.lua'
local anim = assert(os.getenv("ANIM_BINARY"), "ANIM_BINARY is not set")
local script = assert(os.getenv("ANIM_SCRIPT"), "ANIM_SCRIPT is not set")
local out_path = assert(os.getenv("ANIM_OUT"), "ANIM_OUT is not set")
local edit = os.getenv("ANIM_EDIT")

local report = { published = {}, errors = {} }

local function finish()
  local f = assert(io.open(out_path, "w"))
  f:write(vim.fn.json_encode(report))
  f:close()
  vim.cmd("qa!")
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(script))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = "anim",
    cmd = { anim, "lsp" },
    root_dir = vim.fn.fnamemodify(script, ":p:h"),
    handlers = {
      ["textDocument/publishDiagnostics"] = function(e, result, ctx, config)
        table.insert(report.published, result)
        vim.lsp.diagnostic.on_publish_diagnostics(e, result, ctx, config)
      end,
    },
    on_exit = function(code, signal)
      report.exit_code = code
      report.exit_signal = signal
    end,
  })
  assert(id, "the client did not start")
  vim.lsp.buf_attach_client(buf, id)

  -- What Neovim itself made of the diagnostics (0-based line, byte column).
  local function shown()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      table.insert(out, { lnum = d.lnum, col = d.col, severity = d.severity, message = d.message })
    end
    return out
  end

  local function wait_for(n)
    return vim.wait(30000, function() return #report.published >= n end, 10)
  end

  report.first_arrived = wait_for(1)
  report.shown_first = shown()
  if edit then
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(edit, "\n", { plain = true }))
    report.second_arrived = wait_for(2)
    report.shown_second = shown()
  end
  local client = vim.lsp.get_client_by_id(id)
  report.server_name = client.server_capabilities and client.server_capabilities.positionEncoding
  client.stop()
  report.stopped = vim.wait(10000, function() return report.exit_code ~= nil end, 10)
end)
if not ok then table.insert(report.errors, tostring(err)) end
finish()

-- Neovim's own LSP client (0.7+) against `typedtensor lsp`, headless:
--   TT_FILE=model.py TT_ROOT=. TT_OUT=out.json TT_SERVER='["python","-m","typedtensor","lsp"]' \
--     nvim --headless -u NONE -c "luafile nvim_client.lua"
-- opens TT_FILE, waits for the server's diagnostics, asks for inlay hints through the LSP API
-- (0.7's client has no inlay-hint display; vim.lsp.buf_request_sync is what 0.10 calls) and
-- writes {diagnostics, hints} as JSON to TT_OUT.
local out = {}
local function finish(err)
  out.error = err
  local f = io.open(os.getenv('TT_OUT'), 'w')
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('TT_FILE')))
  local bufnr = vim.api.nvim_get_current_buf()
  local published = false
  local client_id = vim.lsp.start_client({
    name = 'typedtensor',
    cmd = vim.fn.json_decode(os.getenv('TT_SERVER')),
    root_dir = os.getenv('TT_ROOT'),
    handlers = {
      ['textDocument/publishDiagnostics'] = function(e, result, ctx, config)
        vim.lsp.diagnostic.on_publish_diagnostics(e, result, ctx, config)
        published = true
      end,
    },
  })
  vim.lsp.buf_attach_client(bufnr, client_id)
  assert(vim.wait(180000, function() return published end, 50), 'no diagnostics from the server')
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(out.diagnostics, {lnum = d.lnum, col = d.col, code = code, message = d.message})
  end
  local last = vim.api.nvim_buf_line_count(bufnr)
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    range = {start = {line = 0, character = 0}, ['end'] = {line = last, character = 0}},
  }
  local replies = vim.lsp.buf_request_sync(bufnr, 'textDocument/inlayHint', params, 60000)
  out.hints = {}
  for _, reply in pairs(replies or {}) do
    assert(reply.err == nil, vim.inspect(reply.err))
    for _, h in ipairs(reply.result or {}) do
      table.insert(out.hints, {line = h.position.line, character = h.position.character,
                               label = h.label, tooltip = h.tooltip})
    end
  end
  -- what a 0.10 client would draw: each line followed by its hints
  out.rendered = {}
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  for i, text in ipairs(lines) do
    local shown = text
    local offset = 0
    for _, h in ipairs(out.hints) do
      if h.line == i - 1 then
        local at = h.character + offset
        shown = shown:sub(1, at) .. h.label .. shown:sub(at + 1)
        offset = offset + #h.label
      end
    end
    for _, d in ipairs(out.diagnostics) do
      if d.lnum == i - 1 then
        shown = shown .. '  ■ ' .. d.message .. ' [' .. tostring(d.code) .. ']'
      end
    end
    table.insert(out.rendered, shown)
  end
  vim.lsp.stop_client(client_id)
end)
finish(ok and vim.NIL or tostring(err))

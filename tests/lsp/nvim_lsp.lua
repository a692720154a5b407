-- nvim_lsp.lua: Neovim's built-in LSP client drives `coordc lsp`, headless,
-- and records what the editor shows. One script for Neovim 0.7 (UTF-16
-- client, `vim.lsp.start_client`) and 0.11 (UTF-8 client, `vim.lsp.start`,
-- pull diagnostics). tests/lsp/real_client.rs runs it:
--
--   nvim --headless --clean -n -u NONE -c 'luafile nvim_lsp.lua' </dev/null
--
-- (never `-l`: Neovim 0.7 reads it as lisp mode and waits forever).
--
-- Env: LSP_BIN (the coordc binary; the server is `LSP_BIN lsp`), LSP_ROOT
-- (the workspace, a copy of corpus/lsp/app), LSP_OUT (where the JSON result
-- goes), LSP_TIMEOUT_MS (each wait; default 10000).
--
-- Exit: 0 ok; 2 the client did not start; 3 a wait timed out; 4 the server
-- did not exit 0 after shutdown/exit; 5 a Lua error in this script. LSP_OUT
-- is written in every case, with what was recorded up to then.
--
-- Every position the script sends is made by Neovim from the cursor
-- (`make_position_params`, in the encoding the client agreed), and every
-- diagnostic it records is what `vim.diagnostic.get` returns: byte columns,
-- whatever the encoding. So `shared` is the same for every Neovim.

local bin = assert(os.getenv('LSP_BIN'), 'LSP_BIN')
local root = assert(os.getenv('LSP_ROOT'), 'LSP_ROOT')
local out = assert(os.getenv('LSP_OUT'), 'LSP_OUT')
local timeout = tonumber(os.getenv('LSP_TIMEOUT_MS') or '10000')
local uv = vim.uv or vim.loop
local started = uv.hrtime()

local shared = {} -- what the editor shows: the same for every Neovim
local result = { -- the rest: per Neovim
  shared = shared,
  timings_ms = {},
  notes = {}, -- what Neovim said with vim.notify (errors, deprecations)
  log = {}, -- window/logMessage and window/showMessage from the server
}
local v = vim.version()
result.nvim = ('%d.%d.%d'):format(v.major, v.minor, v.patch)

local function finish(code, err)
  result.error = err
  result.exit_code = code
  result.timings_ms.total = (uv.hrtime() - started) / 1e6
  local f = assert(io.open(out, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd((code == 0) and 'qall!' or ('cquit ' .. code))
end

-- A step's time, from the previous mark.
local last_mark = started
local function mark(step)
  local now = uv.hrtime()
  result.timings_ms[step] = (now - last_mark) / 1e6
  last_mark = now
end

local original_notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(result.notes, tostring(msg))
  return original_notify(msg, level, opts)
end

local function main()
  local file = root .. '/coordinator.xml'
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'xml' -- what a user's Neovim detects
  local uri = vim.uri_from_bufnr(bufnr)

  -- What the server sent, in its encoding: the last diagnostics of the
  -- buffer (for a code action's context), and how they came.
  local received = { pushes = 0, pulls = 0, raw = {} }
  local exit_status = nil
  local config = {
    name = 'coordc',
    cmd = { bin, 'lsp' },
    root_dir = root,
    init_options = { rulesUrl = 'https://coordc.invalid/rules/{code}' },
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, params, ctx, cfg)
        if params and params.uri == uri then
          received.pushes = received.pushes + 1
          received.raw = params.diagnostics or {}
        end
        return vim.lsp.handlers['textDocument/publishDiagnostics'](err, params, ctx, cfg)
      end,
      -- (Neovim 0.11 pulls, when the server offers it; 0.7 never does.)
      ['textDocument/diagnostic'] = function(err, res, ctx, cfg)
        received.pulls = received.pulls + 1
        if res and res.items then
          received.raw = res.items
        end
        local default = vim.lsp.handlers['textDocument/diagnostic']
        if default then
          return default(err, res, ctx, cfg)
        end
      end,
      ['window/logMessage'] = function(_, params)
        table.insert(result.log, params.message)
      end,
      ['window/showMessage'] = function(_, params)
        table.insert(result.log, params.message)
      end,
    },
    on_exit = function(code, signal)
      exit_status = { code = code, signal = signal }
    end,
  }

  local client_id
  if vim.lsp.start then -- 0.8+
    client_id = vim.lsp.start(config, { bufnr = bufnr })
  else -- 0.7
    client_id = vim.lsp.start_client(config)
    if client_id then
      vim.lsp.buf_attach_client(bufnr, client_id)
    end
  end
  if not client_id then
    return finish(2, 'the client did not start')
  end

  local function wait(what, condition)
    if not vim.wait(timeout, condition, 10) then
      result.received = { pushes = received.pushes, pulls = received.pulls }
      result.server_exit = exit_status or vim.NIL
      finish(3, 'timeout waiting for ' .. what)
      error('unreachable') -- (cquit ends Neovim)
    end
  end

  local function shown()
    local items = {}
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      table.insert(items, {
        lnum = d.lnum,
        col = d.col,
        end_lnum = d.end_lnum,
        end_col = d.end_col,
        severity = d.severity,
        message = d.message,
        code = d.code or vim.NIL,
        source = d.source or vim.NIL,
      })
    end
    table.sort(items, function(a, b)
      if a.lnum ~= b.lnum then
        return a.lnum < b.lnum
      end
      if a.col ~= b.col then
        return a.col < b.col
      end
      return tostring(a.code) < tostring(b.code)
    end)
    return items
  end

  local function has_code(items, code)
    for _, d in ipairs(items) do
      if d.code == code then
        return true
      end
    end
    return false
  end

  local function results_so_far()
    return received.pushes + received.pulls
  end

  -- 1. didOpen: wait for what the editor shows (pushed or pulled).
  wait('diagnostics shown after didOpen', function()
    return #vim.diagnostic.get(bufnr) > 0
  end)
  mark('open')
  local client = assert(vim.lsp.get_client_by_id(client_id))
  local encoding = client.offset_encoding
  result.offset_encoding = encoding
  result.server_name = client.server_info and client.server_info.name or vim.NIL -- (0.7: nil)
  shared.shown_on_open = shown()

  -- The buffer as a user sees it: each line, then under it a mark and the
  -- message of each diagnostic, at the display column the editor puts it.
  local names = { 'error', 'warning', 'info', 'hint' }
  local screen = {}
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  for i, line in ipairs(lines) do
    table.insert(screen, ('%3d | %s'):format(i, line))
    for _, d in ipairs(shared.shown_on_open) do
      if d.lnum == i - 1 then
        local indent = vim.fn.strdisplaywidth(line:sub(1, d.col))
        local end_col = (d.end_lnum == d.lnum) and d.end_col or #line
        local width = math.max(1, vim.fn.strdisplaywidth(line:sub(d.col + 1, end_col)))
        local head = ('    | %s%s '):format((' '):rep(indent), ('^'):rep(width))
        local text = ('%s %s: %s'):format(names[d.severity] or '?', tostring(d.code), d.message)
        for j, part in ipairs(vim.split(text, '\n', { plain = true })) do
          table.insert(screen, (j == 1 and head or ('    | ' .. (' '):rep(#head - 6))) .. part)
        end
      end
    end
  end
  result.screen = table.concat(screen, '\n') .. '\n'

  local function advertised(capability)
    local caps = client.server_capabilities or {}
    return caps[capability] ~= nil and caps[capability] ~= false
  end

  -- A request as a user's keystroke would send it: to every client of the
  -- buffer that supports it (none, when the server does not advertise it).
  local function request(method, params, capability)
    if not advertised(capability) then
      return 'not advertised (' .. capability .. ')'
    end
    local responses, err = vim.lsp.buf_request_sync(bufnr, method, params, timeout)
    if not responses then
      return { error = tostring(err) }
    end
    for _, r in pairs(responses) do
      local e = r.err or r.error
      if e then
        return { error = { code = e.code, message = e.message } }
      end
      return r.result == nil and vim.NIL or r.result
    end
    return vim.NIL
  end

  -- Cursor at (0-based line, byte column), then the position Neovim sends.
  local function position_at(lnum, col)
    vim.api.nvim_win_set_cursor(0, { lnum + 1, col })
    return vim.lsp.util.make_position_params(0, encoding)
  end

  local function hover_contents(r)
    if type(r) ~= 'table' or r.contents == nil then
      return r
    end
    local c = r.contents
    if type(c) == 'table' and c.value ~= nil then
      return { kind = c.kind or c.language or vim.NIL, value = c.value }
    end
    return c
  end

  -- 2. hover: at TM005 (after `rapport-été`, the line where encodings
  -- differ) and at the `current` of `${coord:current(-23)}` (line 12).
  local tm005
  for _, d in ipairs(shared.shown_on_open) do
    if d.code == 'TM005' then
      tm005 = d
    end
  end
  assert(tm005, 'no TM005 shown on open')
  local sent = {}
  local params = position_at(tm005.lnum, tm005.col)
  sent.hover_tm005 = params.position
  shared.hover_tm005 = hover_contents(request('textDocument/hover', params, 'hoverProvider'))
  local line12 = lines[12]
  local at = assert(line12:find('coord:current(-23)', 1, true), 'line 12 has coord:current(-23)')
  params = position_at(11, at - 1 + #'coord:')
  sent.hover_coord_current = params.position
  shared.hover_coord_current = hover_contents(request('textDocument/hover', params, 'hoverProvider'))
  mark('hover')

  -- 3. completion just after `${coord:` in line 13.
  local line13 = lines[13]
  local after = assert(line13:find('${coord:', 1, true), 'line 13 has ${coord:') - 1 + #'${coord:'
  params = position_at(12, after)
  sent.completion = params.position
  params.context = { triggerKind = 1 } -- Invoked
  local completion = request('textDocument/completion', params, 'completionProvider')
  if type(completion) == 'table' and completion.error == nil then
    local labels = {}
    for _, item in ipairs(completion.items or completion) do
      table.insert(labels, item.label)
    end
    table.sort(labels)
    shared.completion_labels = labels
  else
    shared.completion_labels = completion
  end
  mark('completion')

  -- 4. the quick fix of TM005: asked with the diagnostics of its line as
  -- the server sent them, applied as Neovim applies a chosen action.
  vim.api.nvim_win_set_cursor(0, { tm005.lnum + 1, tm005.col })
  params = vim.lsp.util.make_range_params(0, encoding)
  sent.code_action = params.range
  local context_diagnostics = {}
  for _, d in ipairs(received.raw) do
    if d.range.start.line <= tm005.lnum and d.range['end'].line >= tm005.lnum then
      table.insert(context_diagnostics, d)
    end
  end
  params.context = { diagnostics = context_diagnostics, triggerKind = 1 }
  local actions = request('textDocument/codeAction', params, 'codeActionProvider')
  local chosen
  if type(actions) == 'table' and actions.error == nil then
    shared.code_actions = {}
    for _, a in ipairs(actions) do
      table.insert(shared.code_actions, { title = a.title, kind = a.kind or vim.NIL })
      if not chosen and a.edit and tostring(a.title):find('TM005', 1, true) then
        chosen = a
      end
    end
  else
    shared.code_actions = actions
  end
  assert(chosen, 'no code action with an edit for TM005')
  local before = results_so_far()
  vim.lsp.util.apply_workspace_edit(chosen.edit, encoding)
  shared.line2_after_fix = vim.api.nvim_buf_get_lines(bufnr, 1, 2, false)[1]
  wait('diagnostics without TM005 after the fix', function()
    return results_so_far() > before and not has_code(shown(), 'TM005')
  end)
  shared.shown_after_fix = shown()
  mark('code_action')

  -- 5. an edit: `coord:current(-23)` becomes `coord:currnt(-23)` (EL002).
  local line = vim.api.nvim_buf_get_lines(bufnr, 11, 12, false)[1]
  local s = assert(line:find('coord:current(-23)', 1, true)) - 1 + #'coord:'
  before = results_so_far()
  vim.api.nvim_buf_set_text(bufnr, 11, s, 11, s + #'current', { 'currnt' })
  shared.line12_after_edit = vim.api.nvim_buf_get_lines(bufnr, 11, 12, false)[1]
  wait('EL002 shown after the edit', function()
    return results_so_far() > before and has_code(shown(), 'EL002')
  end)
  shared.shown_after_edit = shown()
  mark('edit')

  -- 6. stop: shutdown + exit; the server must exit 0 by itself.
  result.sent = sent
  result.received = { pushes = received.pushes, pulls = received.pulls }
  vim.lsp.stop_client(client_id)
  wait('the server to exit after shutdown/exit', function()
    return exit_status ~= nil
  end)
  mark('stop')
  shared.server_exit = exit_status
  result.server_exit = exit_status
  finish((exit_status.code == 0 and exit_status.signal == 0) and 0 or 4, vim.NIL)
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  finish(5, tostring(err))
end

-- Used by screenshot.sh: opens a rules file, makes a mistake in the buffer (never on disk),
-- waits for the server's diagnostics, then shows the hover of a card kind.
dofile(vim.fn.expand("<sfile>:p:h") .. "/uno.lua")
vim.o.termguicolors = true
vim.o.number = true
vim.o.signcolumn = "yes"
vim.o.laststatus = 0
vim.o.ruler = false
vim.o.showmode = false
vim.cmd("highlight Normal guibg=#1e1e1e guifg=#d4d4d4")
vim.cmd("highlight LineNr guifg=#6e7681")
vim.cmd("highlight SignColumn guibg=#1e1e1e")
vim.cmd("highlight NormalFloat guibg=#2d2d30 guifg=#e6e6e6")
vim.cmd("highlight FloatBorder guibg=#2d2d30 guifg=#6e7681")
vim.cmd("highlight DiagnosticVirtualTextError guifg=#f48771")
vim.api.nvim_create_autocmd("FileType", {
  pattern = "uno",
  callback = function()
    vim.cmd([[syntax match unoComment /#.*$/]])
    vim.cmd([[syntax region unoString start=/"/ skip=/\\./ end=/"/ oneline]])
    vim.cmd([[syntax match unoNumber /\<[0-9]\+\>/]])
    vim.cmd("highlight unoComment guifg=#6a9955")
    vim.cmd("highlight unoString guifg=#ce9178")
    vim.cmd("highlight unoNumber guifg=#b5cea8")
  end,
})
vim.lsp.handlers["textDocument/hover"] = vim.lsp.with(vim.lsp.handlers.hover, { border = "rounded", max_width = 96 })

vim.o.wrap = false
vim.o.hlsearch = false
local ready = os.getenv("UNODSL_SCREENSHOT_READY")
local hovered = false
vim.api.nvim_create_autocmd("DiagnosticChanged", {
  callback = function()
    if hovered or #vim.diagnostic.get(0) == 0 then return end
    hovered = true
    vim.fn.cursor(42, 12)                                           -- on `reverse`
    vim.lsp.buf.hover()
    vim.defer_fn(function()
      if ready then vim.fn.writefile({ "ready" }, ready) end
    end, 1500)
  end,
})
vim.defer_fn(function()
  vim.fn.cursor(34, 1)
  vim.cmd("normal! zt")
  vim.fn.cursor(37, 1)
  vim.cmd([[silent! s/next draws pending/next draw pending/]])     -- the mistake, typed in
end, 1000)

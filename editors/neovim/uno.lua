-- unodsl in Neovim: .uno files get the language server (errors as you type, hover, completion,
-- go to definition, formatting, quick fixes). Load it from init.lua with
--   dofile("/path/to/unodsl/editors/neovim/uno.lua")
-- or copy it there. Set vim.g.unodsl_command first to start another unodsl, for example
--   vim.g.unodsl_command = { "/home/me/venvs/uno/bin/unodsl", "lsp" }
vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, { pattern = "*.uno", command = "setfiletype uno" })

vim.api.nvim_create_autocmd("FileType", {
  pattern = "uno",
  callback = function(args)
    vim.bo[args.buf].commentstring = "# %s"
    local cmd = vim.g.unodsl_command or { "unodsl", "lsp" }
    if vim.lsp.start then -- Neovim 0.8 and newer
      vim.lsp.start({ name = "unodsl", cmd = cmd, root_dir = vim.fn.getcwd() })
    else -- Neovim 0.7
      vim.lsp.buf_attach_client(args.buf, vim.lsp.start_client({ name = "unodsl", cmd = cmd }))
    end
  end,
})

-- `rulebook lsp` for every rulebook opened, in Neovim 0.7 and later: one
-- server, started with the first rulebook and shared by the others.
-- vim.g.rulebook_lsp_cmd is the command that starts it, if `rulebook` is
-- not on the PATH: { "/path/to/venv/bin/rulebook", "lsp" }.
local client_id

vim.api.nvim_create_autocmd("FileType", {
  group = vim.api.nvim_create_augroup("rulebook_lsp", { clear = true }),
  pattern = "rulebook",
  callback = function(args)
    local client = client_id and vim.lsp.get_client_by_id(client_id)
    if client == nil or client.is_stopped() then
      client_id = vim.lsp.start_client({
        name = "rulebook",
        cmd = vim.g.rulebook_lsp_cmd or { "rulebook", "lsp" },
        root_dir = vim.fn.getcwd(),
      })
    end
    if client_id == nil then
      return
    end
    vim.lsp.buf_attach_client(args.buf, client_id)
    vim.bo[args.buf].omnifunc = "v:lua.vim.lsp.omnifunc"
    vim.keymap.set("n", "K", vim.lsp.buf.hover, { buffer = args.buf })
    vim.keymap.set("n", "gd", vim.lsp.buf.definition, { buffer = args.buf })
  end,
})

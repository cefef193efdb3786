" A .rules file is a rulebook. (Neovim before 0.10 and Vim read it as 'hog',
" Snort's rules, unless it is a udev rule, which stays one.)
autocmd BufRead,BufNewFile *.rules
      \ if expand('<afile>:p') !~# '/udev/' | set filetype=rulebook | endif

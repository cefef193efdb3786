"""Loading stays quick: Lark keeps the parser's tables in a cache file keyed
by the text of the grammar and of every option, so no option may print
differently in another process (a function prints its address); the data
files are read with libyaml where PyYAML has it."""

from __future__ import annotations

import re

import yaml

from interpreter.language import data, syntax


def test_the_parser_cache_key_is_the_same_in_every_process():
    options = syntax.parser().options.options
    unhashable = {"transformer", "postlex", "lexer_callbacks", "edit_terminals", "_plugins"}
    printed = "".join(k + str(v) for k, v in options.items() if k not in unhashable)
    assert not re.search(r"0x[0-9a-f]{6,}", printed), printed


def test_data_files_are_read_with_libyaml_when_it_is_there():
    if getattr(yaml, "__with_libyaml__", False):
        assert issubclass(data._LineLoader, yaml.CSafeLoader)
    assert issubclass(data._LineLoader, yaml.constructor.SafeConstructor)

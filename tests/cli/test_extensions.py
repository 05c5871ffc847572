"""Subcommands contributed through entry points plug into the parser and the exit codes."""

from __future__ import annotations

import argparse

from tooldeck.cli import build_parser
from tooldeck.cli.extensions import CHECKS_GROUP, COMMANDS_GROUP, Command, load_commands


class Shout:
    help = "say it loudly"

    def __init__(self) -> None:
        self.seen: list[argparse.Namespace] = []

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("word")

    def run(self, args: argparse.Namespace) -> int:
        self.seen.append(args)
        return 3


def test_extension_commands_and_check_kinds_are_wired() -> None:
    shout, check = Shout(), Shout()
    assert isinstance(shout, Command)
    parser = build_parser(commands={"shout": shout}, checks={"word": check})
    args = parser.parse_args(["shout", "hey", "--json"])
    assert args.extension is shout and args.word == "hey" and args.json is True
    args = parser.parse_args(["check", "word", "hi", "--config", "x.toml"])
    assert args.extension is check and args.config == "x.toml"
    assert args.extension.run(args) == 3


def test_only_tooldecks_own_distribution_contributes_commands() -> None:
    for group in (COMMANDS_GROUP, CHECKS_GROUP):
        for command in load_commands(group).values():
            assert isinstance(command, Command)

"""The converter's command line: `python -m tenhou convert FILE...`.

One log prints its tenbou-game/1 record; several print a JSON list of records, in the order
given. A log that cannot be converted prints one line naming the file and the problem on
standard error, and the command exits with status 2 after trying every file.

`--rules PRESET` (or a JSON object {"preset": ..., "overrides": {...}}) gives the records'
rules: the event's, for a log that does not say where it was played (a league's game
converted to the tenhou.net/6 format). Without it such a log gets Tenhou's preset, and a
note on standard error says so.
"""

from __future__ import annotations

import argparse
import json
import sys

from scoring.errors import ScoringError, gettext_noop

from .limits import read_capped
from .reader import convert


def _rules(text: str | None):
    """The --rules value: a preset name, or a JSON object of preset and overrides."""
    if text is None or not text.lstrip().startswith("{"):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ScoringError(
            gettext_noop("--rules is not valid JSON: %(error)s"), error=err
        ) from None


def cmd_convert(args: argparse.Namespace) -> int:
    records = []
    failed = False
    try:
        rules = _rules(args.rules)
    except ScoringError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    for path in args.files:
        try:
            if path == "-":
                data = read_capped(sys.stdin.buffer)
            else:
                with open(path, "rb") as fh:
                    data = read_capped(fh)
            game = convert(data, name=path, rules=rules)
            if game.platform is None and rules is None:
                print(
                    f"note: {path}: the log does not say where it was played; its record has"
                    f" the {game.preset} rules (give the event's with --rules)",
                    file=sys.stderr,
                )
            records.append(game.record)
        except ScoringError as err:
            print(f"error: {path}: {err}", file=sys.stderr)
            failed = True
        except OSError as err:
            print(f"error: cannot read {path}: {err.strerror}", file=sys.stderr)
            failed = True
    if failed:
        return 2
    out = records[0] if len(records) == 1 else records
    print(json.dumps(out, ensure_ascii=False, indent=2))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tenhou", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser(
        "convert",
        help="convert Tenhou or Mahjong Soul logs (tenhou.net/6 JSON or mjlog XML, gzip ok; "
        "- for stdin)",
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument(
        "--rules",
        metavar="PRESET",
        help="the records' rules: a preset name or a JSON object of preset and overrides "
        "(needed for a log that does not say where it was played)",
    )
    p.set_defaults(run=cmd_convert)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())

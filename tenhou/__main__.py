"""The converter's command line: `python -m tenhou convert FILE...`.

One log prints its tenbou-game/1 record; several print a JSON list of records, in the order
given. A log that cannot be converted prints one line naming the file and the problem on
standard error, and the command exits with status 2 after trying every file.
"""

from __future__ import annotations

import argparse
import json
import sys

from scoring.errors import ScoringError

from .limits import read_capped
from .reader import convert


def cmd_convert(args: argparse.Namespace) -> int:
    records = []
    failed = False
    for path in args.files:
        try:
            if path == "-":
                data = read_capped(sys.stdin.buffer)
            else:
                with open(path, "rb") as fh:
                    data = read_capped(fh)
            records.append(convert(data, name=path).record)
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
    p.set_defaults(run=cmd_convert)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())

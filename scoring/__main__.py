"""The engine's command line: `python -m scoring score FILE`, `bench`."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from .errors import ScoringError
from .game import replay
from .record import parse_record


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as fh:
        return fh.read()


def _load_json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ScoringError(f"not valid JSON: {err}") from None


def format_result(result: dict[str, Any]) -> str:
    """The score output: one hand a line, so that it reads well and diffs well."""
    lines = ["{", '  "hands": [']
    hands = [json.dumps(h, ensure_ascii=False) for h in result["hands"]]
    lines += [f"    {h}," for h in hands[:-1]] + [f"    {h}" for h in hands[-1:]]
    lines.append("  ],")
    rest = [(k, v) for k, v in result.items() if k != "hands"]
    for i, (key, value) in enumerate(rest):
        comma = "," if i < len(rest) - 1 else ""
        lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines)


def cmd_score(args: argparse.Namespace) -> int:
    record = parse_record(_load_json(_read(args.file)))
    print(format_result(replay(record).to_json()))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .simulate import random_record

    rng = random.Random(args.seed)
    started = time.perf_counter()
    records = [random_record(rng, args.rules) for _ in range(args.games)]
    generated = time.perf_counter() - started
    hand_count = sum(len(r["hands"]) for r in records)

    started = time.perf_counter()
    for record in records:
        replay(parse_record(record))
    elapsed = time.perf_counter() - started

    event = records[:60]
    timings = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        for record in event:
            replay(parse_record(record))
        timings.append(time.perf_counter() - t0)
    timings.sort()
    print(f"games replayed:        {len(records)} ({hand_count} hands, rules {args.rules})")
    print(f"generation:            {generated:.2f} s (not part of the figures below)")
    print(f"hands per second:      {hand_count / elapsed:,.0f}")
    print(f"games per second:      {len(records) / elapsed:,.0f}")
    print(
        f"60-game event replay:  median {timings[len(timings) // 2] * 1000:.1f} ms, "
        f"best {timings[0] * 1000:.1f} ms over {args.repeat} runs"
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scoring", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("score", help="score a tenbou-game/1 record (FILE or - for stdin)")
    p.add_argument("file")
    p.set_defaults(run=cmd_score)
    p = sub.add_parser("bench", help="replay generated games and print hands per second")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=20261122)
    p.add_argument("--rules", default="ari-ari")
    p.add_argument("--repeat", type=int, default=20)
    p.set_defaults(run=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except ScoringError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"error: cannot read {err.filename}: {err.strerror}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

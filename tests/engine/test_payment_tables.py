"""Every printed cell of the seeds' payment tables, checked against the engine.

Sources, all in ../shared/seeds/:
- 000, "Basic Ari-Ari Mahjong Rules", Figure 2: In-Game Scoring Table, and its limit rows;
- 001, a yaku sheet: "Dealer Tsumo", "Dealer Ron", "Others Tsumo", "Others Ron", "Limit hands";
- 004, a one-page summary: the Oya/Ko table by fu and han, and its limit table;
- 003, a game page (Italian, then English) prints no payment table: only the formula and the
  base points of the limit hands, which are checked as base points.

The tables are transcribed as printed, so that this file can be held against the seed, and
then turned into one case per printed value. A value is what one player pays, before honba,
in one of five columns:

    nondealer-ron            what the discarder pays a non-dealer
    nondealer-tsumo-each     what each non-dealer pays a non-dealer's tsumo
    nondealer-tsumo-dealer   what the dealer pays a non-dealer's tsumo
    dealer-tsumo             what each of the three pays the dealer's tsumo
    dealer-ron               what the discarder pays the dealer

None marks a value that is not printed, or that only an impossible hand could have (20 fu on
a ron, 1 han 20 fu, 25 fu with 1 han, 2 han 25 fu tsumo): those are not payments, and
`test_an_impossible_hand_is_refused` checks that the engine refuses them.
"""

from __future__ import annotations

import itertools

import pytest

from scoring.errors import ScoringError
from scoring.game import score
from scoring.payouts import base_points, check_value, ron_value, tsumo_values
from scoring.rules import Rules, resolve_rules

# All three tables print no kiriage (4 han 30 fu is 7,700 for a non-dealer ron) and pay 13
# han as a yakuman: the options of the ari-ari preset, which are the defaults of `Rules`.
RULES = resolve_rules("ari-ari")

NONDEALER_RON = "nondealer-ron"
NONDEALER_TSUMO_EACH = "nondealer-tsumo-each"
NONDEALER_TSUMO_DEALER = "nondealer-tsumo-dealer"
DEALER_TSUMO = "dealer-tsumo"
DEALER_RON = "dealer-ron"
COLUMNS = (NONDEALER_RON, NONDEALER_TSUMO_EACH, NONDEALER_TSUMO_DEALER, DEALER_TSUMO, DEALER_RON)
TSUMO_COLUMNS = {NONDEALER_TSUMO_EACH, NONDEALER_TSUMO_DEALER, DEALER_TSUMO}

# (han, fu, nondealer ron, nondealer tsumo each, nondealer tsumo dealer, dealer tsumo, dealer
# ron); fu is None for a limit hand of 5 han or more.
Row = tuple[int, int | None, int | None, int | None, int | None, int | None, int | None]


def _possible(han: int, fu: int | None, *, tsumo: bool) -> bool:
    """Whether a real hand can have this han and fu, as the seeds describe hands.

    Written from the rules rather than read from the engine, so that the transcribed tables
    and the engine's refusals are checked against each other and not against themselves.
    """
    if han >= 5:
        return True
    if fu == 20:  # only a pinfu tsumo, which is 2 han at least (pinfu and menzen tsumo)
        return tsumo and han >= 2
    if fu == 25:  # only seven pairs: 2 han on a ron, 3 with menzen tsumo
        return han >= 3 or (han == 2 and not tsumo)
    return fu in range(30, 111, 10)


def _hand_id(han: int, fu: int | None) -> str:
    return f"{han}han" if fu is None else f"{han}han{fu}fu"


# ---------------------------------------------------------------------------------------------
# Seed 000, Ari-Ari rules, "Figure 2: In-Game Scoring Table".
#
# Each printed row lists, under the han columns 1 2 3 4, the fu that share the row's values
# (the row "40 20" is 1 han 40 fu and 2 han 20 fu), then Non-dealer Ron, Non-dealer Tsumo,
# Dealer Tsumo, Dealer Ron. The Non-dealer Tsumo column is what each non-dealer pays; "the
# third column is what is paid by all for a dealer Tsumo", and it is also what the dealer
# pays a non-dealer's tsumo (1 han 30 fu: 300/500, and 500 all).
# (hands in the row, non-dealer ron, non-dealer tsumo, dealer tsumo, dealer ron)
FIGURE_2 = [
    (((1, 30),), 1000, 300, 500, 1500),
    (((1, 40), (2, 20)), 1300, 400, 700, 2000),
    (((1, 50), (2, 25)), 1600, 400, 800, 2400),
    (((1, 60), (2, 30)), 2000, 500, 1000, 2900),
    (((1, 70),), 2300, 600, 1200, 3400),
    (((1, 80), (2, 40), (3, 20)), 2600, 700, 1300, 3900),
    (((1, 90),), 2900, 800, 1500, 4400),
    (((1, 100), (2, 50), (3, 25)), 3200, 800, 1600, 4800),
    (((1, 110),), 3600, 900, 1800, 5300),
    (((2, 60), (3, 30)), 3900, 1000, 2000, 5800),
    (((2, 70),), 4500, 1200, 2300, 6800),
    (((2, 80), (3, 40), (4, 20)), 5200, 1300, 2600, 7700),
    (((2, 90),), 5800, 1500, 2900, 8700),
    (((2, 100), (3, 50), (4, 25)), 6400, 1600, 3200, 9600),
    (((2, 110),), 7100, 1800, 3600, 10600),
    (((3, 60), (4, 30)), 7700, 2000, 3900, 11600),
]

# The limit rows of Figure 2. "Mangan 5 + +" puts a "+" under the 3 and 4 han columns: 3 han
# from 70 fu and 4 han from 40 fu (the fu after the last printed ones) are mangan too.
FIGURE_2_LIMITS = [
    (
        (
            (5, None),
            *((3, fu) for fu in range(70, 111, 10)),
            *((4, fu) for fu in range(40, 111, 10)),
        ),
        8000,
        2000,
        4000,
        12000,
    ),
    (((6, None), (7, None)), 12000, 3000, 6000, 18000),  # Haneman 6,7
    (((8, None), (9, None), (10, None)), 16000, 4000, 8000, 24000),  # Baiman 8,9,10
    (((11, None), (12, None)), 24000, 6000, 12000, 36000),  # Sanbaiman 11,12
    (((13, None),), 32000, 8000, 16000, 48000),  # Yakuman 13
]


def _figure_2_rows(table) -> list[Row]:
    rows = []
    for hands, nd_ron, nd_tsumo, dealer_tsumo, dealer_ron in table:
        for han, fu in hands:
            ron = _possible(han, fu, tsumo=False)
            tsumo = _possible(han, fu, tsumo=True)
            rows.append(
                (
                    han,
                    fu,
                    nd_ron if ron else None,
                    nd_tsumo if tsumo else None,
                    dealer_tsumo if tsumo else None,
                    dealer_tsumo if tsumo else None,
                    dealer_ron if ron else None,
                )
            )
    return rows


FIGURE_2_ROWS = _figure_2_rows(FIGURE_2)
FIGURE_2_LIMIT_ROWS = _figure_2_rows(FIGURE_2_LIMITS)

# ---------------------------------------------------------------------------------------------
# Seed 001, four tables by fu (rows) and "1 fan" to "4 fan" (columns). The printed header of
# the fu column says "Tsumo" even in the two ron tables. The ron tables start at 25 fu.
# "Others Tsumo" prints two rows per fu: first what each non-dealer pays, then what the
# dealer pays. None is a blank cell.
SEED_001_DEALER_TSUMO = {
    20: (None, 700, 1300, 2600),
    25: (None, None, 1600, 3200),
    30: (500, 1000, 2000, 3900),
    40: (700, 1300, 2600, 4000),
    50: (800, 1600, 3200, 4000),
    60: (1000, 2000, 3900, 4000),
    70: (1200, 2300, 4000, 4000),
}
SEED_001_DEALER_RON = {
    25: (None, 2400, 4800, 9600),
    30: (1500, 2900, 5800, 11600),
    40: (2000, 3900, 7700, 12000),
    50: (2400, 4800, 9600, 12000),
    60: (2900, 5800, 11600, 12000),
    70: (3400, 6800, 12000, 12000),
}
SEED_001_OTHERS_TSUMO = {
    20: ((None, 400, 700, 1300), (None, 700, 1300, 2600)),
    25: ((None, None, 800, 1600), (None, None, 1600, 3200)),
    30: ((300, 500, 1000, 2000), (500, 1000, 2000, 3900)),
    40: ((400, 700, 1300, 2000), (700, 1300, 2600, 4000)),
    50: ((400, 800, 1600, 2000), (800, 1600, 3200, 4000)),
    60: ((500, 1000, 2000, 2000), (1000, 2000, 3900, 4000)),
    70: ((600, 1200, 2000, 2000), (1200, 2300, 4000, 4000)),
}
SEED_001_OTHERS_RON = {
    25: (None, 1600, 3200, 6400),
    30: (1000, 2000, 3900, 7700),
    40: (1300, 2600, 5200, 8000),
    50: (1600, 3200, 6400, 8000),
    60: (2000, 3900, 7700, 8000),
    70: (2300, 4500, 8000, 8000),
}
# Seed 001, "Limit hands": Hand, Fan, Dealer, Others. Only tsumo payments are printed: Dealer
# is what each player pays the dealer, Others "2000 4000" is what each non-dealer and what the
# dealer pay a non-dealer. "13+" is read as 13 han and more (13 and 14 are checked).
# (fan, dealer tsumo, non-dealer tsumo each, non-dealer tsumo from the dealer)
SEED_001_LIMITS = [
    ((5,), 4000, 2000, 4000),  # Mangan 5
    ((6, 7), 6000, 3000, 6000),  # Haneman 6-7
    ((8, 9, 10), 8000, 4000, 8000),  # Baiman 8-10
    ((11, 12), 12000, 6000, 12000),  # Sanbaiman 11-12
    ((13, 14), 16000, 8000, 16000),  # Yakuman 13+
]


def _seed_001_rows() -> list[Row]:
    rows = []
    for fu in sorted(SEED_001_DEALER_TSUMO):
        each, from_dealer = SEED_001_OTHERS_TSUMO[fu]
        nd_ron = SEED_001_OTHERS_RON.get(fu, (None,) * 4)
        d_ron = SEED_001_DEALER_RON.get(fu, (None,) * 4)
        for i, han in enumerate(range(1, 5)):
            rows.append(
                (
                    han,
                    fu,
                    nd_ron[i],
                    each[i],
                    from_dealer[i],
                    SEED_001_DEALER_TSUMO[fu][i],
                    d_ron[i],
                )
            )
    for hans, dealer_tsumo, each, from_dealer in SEED_001_LIMITS:
        rows += [(han, None, None, each, from_dealer, dealer_tsumo, None) for han in hans]
    return rows


SEED_001_ROWS = _seed_001_rows()

# ---------------------------------------------------------------------------------------------
# Seed 004, the Oya/Ko table. Each fu has two printed lines, ron then tsumo, of eight cells:
# Oya 4, 3, 2, 1 han (printed from 4 han down), then Ko 1, 2, 3, 4 han. An Oya tsumo is paid
# by all; a Ko tsumo "x/y" is x from each non-dealer and y from the dealer. None is "—".
# A "Mangan" cell spans both lines; the tsumo line is blank under it.
MANGAN = "Mangan"
SEED_004 = {
    20: (
        (None, None, None, None, None, None, None, None),
        (2600, 1300, 700, None, None, (400, 700), (700, 1300), (1300, 2600)),
    ),
    25: (
        (9600, 4800, 2400, None, None, 1600, 3200, 6400),
        (3200, 1600, None, None, None, None, (800, 1600), (1600, 3200)),
    ),
    30: (
        (11600, 5800, 2900, 1500, 1000, 2000, 3900, 7700),
        (3900, 2000, 1000, 500, (300, 500), (500, 1000), (1000, 2000), (2000, 3900)),
    ),
    40: (
        (MANGAN, 7700, 3900, 2000, 1300, 2600, 5200, MANGAN),
        (MANGAN, 2600, 1300, 700, (400, 700), (700, 1300), (1300, 2600), MANGAN),
    ),
    50: (
        (MANGAN, 9600, 4800, 2400, 1600, 3200, 6400, MANGAN),
        (MANGAN, 3200, 1600, 800, (400, 800), (800, 1600), (1600, 3200), MANGAN),
    ),
    60: (
        (MANGAN, 11600, 5800, 2900, 2000, 3900, 7700, MANGAN),
        (MANGAN, 3900, 2000, 1000, (500, 1000), (1000, 2000), (2000, 3900), MANGAN),
    ),
    70: (
        (MANGAN, MANGAN, 6800, 3400, 2300, 4500, MANGAN, MANGAN),
        (MANGAN, MANGAN, 2300, 1200, (600, 1200), (1200, 2300), MANGAN, MANGAN),
    ),
}
# Seed 004, the limit table: Oya, Han, Ko; the first line of each hand is ron, the second
# tsumo. The han are printed "5+", "6+", "8+", "11+", "13+": each row runs up to the next.
# (han, oya ron, oya tsumo, ko ron, ko tsumo)
SEED_004_LIMITS = [
    ((5,), 12000, 4000, 8000, (2000, 4000)),  # Mangan
    ((6, 7), 18000, 6000, 12000, (3000, 6000)),  # Haneman
    ((8, 9, 10), 24000, 8000, 16000, (4000, 8000)),  # Baiman
    ((11, 12), 36000, 12000, 24000, (6000, 12000)),  # Sanbaiman
    ((13, 14), 48000, 16000, 32000, (8000, 16000)),  # Yakuman
]


def _seed_004_cells(fu: int) -> dict[tuple[str, int], object]:
    """The printed cells of one fu, as {(oya-ron | ko-ron | oya-tsumo | ko-tsumo, han): cell}."""
    ron, tsumo = SEED_004[fu]
    cells: dict[tuple[str, int], object] = {}
    for i, han in enumerate(range(1, 5)):
        cells["oya-ron", han] = ron[3 - i]
        cells["ko-ron", han] = ron[4 + i]
        cells["oya-tsumo", han] = tsumo[3 - i]
        cells["ko-tsumo", han] = tsumo[4 + i]
    return cells


def _seed_004_rows() -> list[Row]:
    _, oya_ron_m, oya_tsumo_m, ko_ron_m, ko_tsumo_m = SEED_004_LIMITS[0]
    mangan = {"oya-ron": oya_ron_m, "oya-tsumo": oya_tsumo_m, "ko-ron": ko_ron_m}
    mangan["ko-tsumo"] = ko_tsumo_m
    rows = []
    for fu in SEED_004:
        cells = {k: mangan[k[0]] if v == MANGAN else v for k, v in _seed_004_cells(fu).items()}
        for han in range(1, 5):
            ko_tsumo = cells["ko-tsumo", han] or (None, None)
            rows.append(
                (
                    han,
                    fu,
                    cells["ko-ron", han],
                    ko_tsumo[0],
                    ko_tsumo[1],
                    cells["oya-tsumo", han],
                    cells["oya-ron", han],
                )
            )
    for hans, oya_ron, oya_tsumo, ko_ron, (each, from_dealer) in SEED_004_LIMITS:
        rows += [(han, None, ko_ron, each, from_dealer, oya_tsumo, oya_ron) for han in hans]
    return rows


SEED_004_ROWS = _seed_004_rows()

# ---------------------------------------------------------------------------------------------
# Seed 003 has no payment table, only "Value calculation": base points fu x 2^(han+2) capped
# at 2000 for 1 to 4 han, then "5 Han: Mangan, fixed base value of 2000", "6+ Han: Haneman,
# 3000", "8+ Han: Baiman, 4000", "11+ Han: Sanbaiman, 6000", "Limit hand (Yakuman): 8000".
# 13 han and more is left out: the page makes counting them as yakuman an option.
# (han, fu, yakuman, base points)
SEED_003_BASE = [
    (4, 40, None, 2000),  # capped: 40 x 2^6 = 2,560
    (3, 70, None, 2000),  # capped: 70 x 2^5 = 2,240
    (5, None, None, 2000),
    (6, None, None, 3000),
    (7, None, None, 3000),
    (8, None, None, 4000),
    (9, None, None, 4000),
    (10, None, None, 4000),
    (11, None, None, 6000),
    (12, None, None, 6000),
    (None, None, 1, 8000),
]


# ---------------------------------------------------------------------------------------------


def _cells(prefix: str, rows: list[Row]) -> list:
    """One pytest case per printed value: (han, fu, column, printed)."""
    cases = []
    for han, fu, *values in rows:
        for column, value in zip(COLUMNS, values, strict=True):
            if value is not None:
                case_id = f"{prefix}-{_hand_id(han, fu)}-{column}"
                cases.append(pytest.param(han, fu, column, value, id=case_id))
    return cases


def _by_cell(rows: list[Row]) -> dict[tuple[int, int | None, str], int]:
    return {
        (han, fu, column): value
        for han, fu, *values in rows
        for column, value in zip(COLUMNS, values, strict=True)
        if value is not None
    }


def _engine_pays(*, han: int | None, fu: int | None, column: str, yakuman: int | None = None):
    """What the engine has one player pay in `column` for this hand, before honba."""
    check_value(han=han, fu=fu, yakuman=yakuman, tsumo=column in TSUMO_COLUMNS)
    base = base_points(han=han, fu=fu, yakuman=yakuman, rules=RULES)
    if column == NONDEALER_RON:
        return ron_value(base, dealer=False)
    if column == DEALER_RON:
        return ron_value(base, dealer=True)
    from_dealer, from_each = tsumo_values(base, dealer=column == DEALER_TSUMO)
    return from_dealer if column == NONDEALER_TSUMO_DEALER else from_each


def test_the_ari_ari_preset_is_the_default_rules():
    # The seeds' tables are checked under `RULES`; they describe the default options.
    assert RULES == Rules()
    assert not RULES.kiriage


@pytest.mark.parametrize(("han", "fu", "column", "printed"), _cells("ari-ari-fig2", FIGURE_2_ROWS))
def test_ari_ari_figure_2_cell_pays_as_printed(han, fu, column, printed):
    assert _engine_pays(han=han, fu=fu, column=column) == printed


@pytest.mark.parametrize(
    ("han", "fu", "column", "printed"), _cells("ari-ari-fig2", FIGURE_2_LIMIT_ROWS)
)
def test_ari_ari_figure_2_limit_row_pays_as_printed(han, fu, column, printed):
    assert _engine_pays(han=han, fu=fu, column=column) == printed


@pytest.mark.parametrize(("han", "fu", "column", "printed"), _cells("seed001", SEED_001_ROWS))
def test_seed_001_table_cell_pays_as_printed(han, fu, column, printed):
    assert _engine_pays(han=han, fu=fu, column=column) == printed


@pytest.mark.parametrize(("han", "fu", "column", "printed"), _cells("seed004", SEED_004_ROWS))
def test_seed_004_oya_ko_table_cell_pays_as_printed(han, fu, column, printed):
    assert _engine_pays(han=han, fu=fu, column=column) == printed


def _yakuman_cells() -> list:
    cases = []
    for prefix, rows in (
        ("ari-ari-fig2", FIGURE_2_LIMIT_ROWS),
        ("seed001", SEED_001_ROWS),
        ("seed004", SEED_004_ROWS),
    ):
        (row,) = [r for r in rows if r[0] == 13]
        for column, value in zip(COLUMNS, row[2:], strict=True):
            if value is not None:
                cases.append(pytest.param(column, value, id=f"{prefix}-yakuman-{column}"))
    return cases


@pytest.mark.parametrize(("column", "printed"), _yakuman_cells())
def test_a_yakuman_hand_pays_the_printed_yakuman_row(column, printed):
    assert _engine_pays(han=None, fu=None, yakuman=1, column=column) == printed


@pytest.mark.parametrize(
    ("han", "fu", "yakuman", "base"),
    [
        pytest.param(
            han, fu, yakuman, base, id=f"seed003-{_hand_id(han, fu) if han else 'yakuman'}"
        )
        for han, fu, yakuman, base in SEED_003_BASE
    ],
)
def test_seed_003_base_points_are_as_stated(han, fu, yakuman, base):
    assert base_points(han=han, fu=fu, yakuman=yakuman, rules=RULES) == base


# ---------------------------------------------------------------------------------------------
# Checks of the transcription itself: blanks, coverage and agreement between the seeds.


@pytest.mark.parametrize(
    "row", [pytest.param(row, id=_hand_id(*row[0][0])) for row in FIGURE_2 + FIGURE_2_LIMITS]
)
def test_every_figure_2_value_is_checked_through_a_possible_hand(row):
    hands = row[0]
    assert any(_possible(han, fu, tsumo=False) for han, fu in hands)
    assert any(_possible(han, fu, tsumo=True) for han, fu in hands)


def _printed_grids() -> list:
    """Every han/fu grid of seeds 001 and 004 as {(han, fu): cell}, with its way of winning."""
    grids = [
        ("seed001-dealer-tsumo", SEED_001_DEALER_TSUMO, True),
        ("seed001-dealer-ron", SEED_001_DEALER_RON, False),
        ("seed001-others-tsumo-each", {f: r[0] for f, r in SEED_001_OTHERS_TSUMO.items()}, True),
        ("seed001-others-tsumo-dealer", {f: r[1] for f, r in SEED_001_OTHERS_TSUMO.items()}, True),
        ("seed001-others-ron", SEED_001_OTHERS_RON, False),
    ]
    cases = [
        pytest.param(
            {(han, fu): cells[han - 1] for fu, cells in grid.items() for han in range(1, 5)},
            tsumo,
            id=name,
        )
        for name, grid, tsumo in grids
    ]
    for part in ("oya-ron", "ko-ron", "oya-tsumo", "ko-tsumo"):
        grid = {
            (han, fu): cell
            for fu in SEED_004
            for (name, han), cell in _seed_004_cells(fu).items()
            if name == part
        }
        cases.append(pytest.param(grid, part.endswith("tsumo"), id=f"seed004-{part}"))
    return cases


@pytest.mark.parametrize(("grid", "tsumo"), _printed_grids())
def test_a_seed_leaves_blank_exactly_the_cells_no_hand_can_have(grid, tsumo):
    blank = {cell for cell, value in grid.items() if value is None}
    impossible = {(han, fu) for han, fu in grid if not _possible(han, fu, tsumo=tsumo)}
    assert blank == impossible


SEED_TABLES = {
    "ari-ari-fig2": FIGURE_2_ROWS + FIGURE_2_LIMIT_ROWS,
    "seed001": SEED_001_ROWS,
    "seed004": SEED_004_ROWS,
}


@pytest.mark.parametrize(
    ("first", "second"),
    [pytest.param(a, b, id=f"{a}-vs-{b}") for a, b in itertools.combinations(SEED_TABLES, 2)],
)
def test_the_seeds_print_the_same_value_wherever_their_tables_overlap(first, second):
    one, other = _by_cell(SEED_TABLES[first]), _by_cell(SEED_TABLES[second])
    shared = one.keys() & other.keys()
    assert len(shared) > 50
    assert {cell: (one[cell], other[cell]) for cell in shared if one[cell] != other[cell]} == {}


# ---------------------------------------------------------------------------------------------
# Impossible hands are refused, not paid.

IMPOSSIBLE = [
    # (han, fu, tsumo)
    (1, 20, False),
    (2, 20, False),
    (3, 20, False),
    (4, 20, False),
    (1, 20, True),
    (1, 25, False),
    (1, 25, True),
    (2, 25, True),
    (1, 10, False),
    (2, 22, True),
    (3, 35, False),
    (1, 120, True),
    (4, 0, False),
    (0, 30, False),
    (0, 40, True),
    (-1, 30, False),
    (1, None, False),
    (3, None, True),
    (4, None, False),
]


@pytest.mark.parametrize(
    ("han", "fu", "tsumo"),
    [
        pytest.param(han, fu, tsumo, id=f"{han}han{fu}fu-{'tsumo' if tsumo else 'ron'}")
        for han, fu, tsumo in IMPOSSIBLE
    ],
)
def test_an_impossible_hand_is_refused(han, fu, tsumo):
    with pytest.raises(ScoringError):
        check_value(han=han, fu=fu, yakuman=None, tsumo=tsumo)


# ---------------------------------------------------------------------------------------------
# End to end: a one-hand game record, seat 0 the dealer, pays the Figure 2 value.

FIGURE_2_CELLS = _by_cell(FIGURE_2_ROWS + FIGURE_2_LIMIT_ROWS)
WAYS = ("nondealer-ron", "nondealer-tsumo", "dealer-tsumo", "dealer-ron")
END_TO_END = [
    *((1, 30, way) for way in WAYS),
    (2, 20, "nondealer-tsumo"),
    (2, 20, "dealer-tsumo"),
    (2, 25, "nondealer-ron"),
    (2, 25, "dealer-ron"),
    (3, 25, "dealer-tsumo"),
    (3, 40, "nondealer-tsumo"),
    (4, 30, "nondealer-ron"),
    (4, 30, "dealer-ron"),
    (2, 110, "dealer-tsumo"),
    (4, 40, "nondealer-ron"),
    (5, None, "nondealer-tsumo"),
    (6, None, "dealer-ron"),
    (8, None, "nondealer-ron"),
    (13, None, "dealer-tsumo"),
]


@pytest.mark.parametrize(
    ("han", "fu", "way"),
    [
        pytest.param(*case, id=f"ari-ari-fig2-{_hand_id(*case[:2])}-{case[2]}")
        for case in END_TO_END
    ],
)
def test_a_one_hand_game_record_settles_a_figure_2_cell_as_printed(han, fu, way):
    printed = {column: FIGURE_2_CELLS.get((han, fu, column)) for column in COLUMNS}
    win = {"han": han} if fu is None else {"han": han, "fu": fu}
    if way == "nondealer-ron":
        value = printed[NONDEALER_RON]
        win |= {"winner": 1, "loser": 2}
        expected = [0, value, -value, 0]
    elif way == "nondealer-tsumo":
        each, from_dealer = printed[NONDEALER_TSUMO_EACH], printed[NONDEALER_TSUMO_DEALER]
        win |= {"winner": 1}
        expected = [-from_dealer, from_dealer + 2 * each, -each, -each]
    elif way == "dealer-tsumo":
        each = printed[DEALER_TSUMO]
        win |= {"winner": 0}
        expected = [3 * each, -each, -each, -each]
    else:
        value = printed[DEALER_RON]
        win |= {"winner": 0, "loser": 3}
        expected = [value, 0, 0, -value]
    record = {
        "format": "tenbou-game/1",
        "rules": "ari-ari",
        "players": ["A", "B", "C", "D"],
        "hands": [{"result": way.split("-")[1], "riichi": [], "wins": [win]}],
    }
    hand = score(record)["hands"][0]
    assert hand["dealer"] == 0
    assert hand["deltas"] == expected

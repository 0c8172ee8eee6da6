/*
 * Tenbou's scoring engine in the browser: a port of the Python package `scoring`
 * (record.py, payouts.py, game.py, match.py, rules.py), so that a table's phone can
 * settle hands without the server. tests/browser/test_engine_js.py scores thousands of
 * generated records with both and asserts identical output; the server replays every
 * synced hand with the Python engine and stays the judge.
 *
 * API (window.TenbouEngine; also module.exports under node):
 *
 *   TenbouEngine.load(rulesData)
 *       Load the option kinds and the presets' values: the object that
 *       `scoring.rules.engine_rules()` returns, i.e.
 *       {"options": {NAME: {"kind": "bool"|"int"|"choice"|"uma"|"decimal",
 *                           "choices": [...] (choice), "optional": true (may be null)}},
 *        "presets": {PRESET: {NAME: value, ...every option}}}.
 *       On load the script reads it by itself from an element
 *       <script type="application/json" id="tenbou-engine-rules"> when the page has one
 *       (a template writes it with `{% load engine %}{% engine_rules %}`, placed before
 *       the <script src=".../engine.js">). Without it, only records whose `rules` are
 *       {"preset": NAME, "overrides": {every option: value}} (as the record endpoint
 *       sends them) can be scored. If the loaded rules hold an option, or a choice of an
 *       option, that this file does not act on, `score` refuses every record (the server
 *       is then the only judge) rather than settle under rules it cannot follow.
 *   TenbouEngine.presets   the presets' option values as loaded ({} before `load`)
 *   TenbouEngine.options   the option kinds as loaded ({} before `load`)
 *
 *   TenbouEngine.score(record) -> object
 *       The same object as Python's `scoring.score(record)` for the record sent as JSON
 *       (a field left undefined is no field):
 *       {"hands": [{"round", "honba", "dealer", "sticks_before", "scores_before",
 *                   "deltas", "scores_after", "sticks_after"}, ...],
 *        "finished", "ended_by", "final_scores", "leftover_sticks", "placements",
 *        "match_points"}.
 *       Match points are numbers equal to Python's floats (exact tenths underneath).
 *       Throws TenbouEngine.ScoringError (an Error) for a record Python refuses; its
 *       `message` is English ("hand 7: 1 han 20 fu is not a possible ron"), `hand` the hand
 *       number from 1 or null, `problem` the message without the hand, `template` the
 *       Python error's message template (e.g. "%(han)s han 20 fu is not a possible ron:
 *       20 fu is only a pinfu tsumo", as in the app's catalogue) and `params` its
 *       parameters as plain values, for a page that shows refusals in its language.
 *
 *   TenbouEngine.replay(record) -> {"result": score(record), "state": STATE}
 *       STATE is the table now (before the next hand, or at the end):
 *       {"round": "E1".., "round_index", "dealer", "honba", "sticks", "scores",
 *        "winds": ["E", "S", "W", "N"] per seat, "finished", "ended_by"}.
 *   TenbouEngine.preview(record, hand) -> {"hand": REPORT, "state": STATE, "result": ...}
 *       Settle one more hand (a tenbou-game/1 hand object) after the record's hands: its
 *       report (payments as `deltas`, honba, sticks), the table after it (next dealer and
 *       round, or the end of the game) and the whole result. Throws as `score` does when
 *       the hand is refused (the message names its number).
 *   TenbouEngine.resolveRules(spec) -> {NAME: value}
 *       The options a record's `rules` (preset name or preset + overrides) stand for.
 *   TenbouEngine.stringify(result) -> string
 *       A result as Python's json.dumps writes it (match points always with a decimal,
 *       "-48.0"), for comparing or storing text.
 *
 * Differences from Python that cannot matter to a real record: JSON numbers such as 3.0
 * are whole numbers here (Python tells 3.0 from 3), and points beyond 2**53 or match
 * points beyond 10**15 (past JavaScript's exact integers) are refused; the app's forms
 * keep every rule number far below (10,000,000 points, six digits of match points).
 *
 * Plain ES2017 in one file, no build step, no globals but TenbouEngine.
 */
(function (root) {
  "use strict";

  var FORMAT = "tenbou-game/1";
  var STICK = 1000;
  var VALID_FU = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110];
  var MAX_YAKUMAN = 6;
  var MANGAN_BASE = 2000;
  var WINDS = "ESWN";
  var RESULTS = ["ron", "tsumo", "draw", "nagashi", "abort", "chombo"];
  var ABORT_REASONS = ["nine_terminals", "four_winds", "four_kans", "four_riichi", "triple_ron"];
  var FOUR_PLAYER_ABORTS = ["four_winds", "four_riichi"];
  var HAND_FIELDS = {
    ron: ["wins"],
    tsumo: ["wins"],
    draw: ["tenpai"],
    nagashi: ["nagashi", "tenpai"],
    abort: ["reason"],
    chombo: ["offender"],
  };
  var WIN_FIELDS = [
    "winner", "loser", "han", "fu", "yakuman", "pao", "pao_yakuman", "yaku", "dora", "open",
    "kita",
  ];
  var RECORD_FIELDS = [
    "format", "rules", "players", "hands", "final_scores", "leftover_sticks", "penalties",
    "ended_early",
  ];
  var ENDED_EARLY = ["time"];
  // Every option this engine reads, with the kind it needs; a loaded option it does not
  // know makes `score` refuse rather than settle under rules it cannot follow.
  var ENGINE_OPTIONS = {
    start_points: "int",
    return_points: "int",
    target_points: "int",
    uma: "uma",
    oka: "decimal",
    length: "choice",
    kiriage: "bool",
    kazoe: "choice",
    double_yakuman: "bool",
    multi_ron: "choice",
    multi_ron_honba: "choice",
    multi_ron_sticks: "choice",
    pao_honba: "choice",
    pao_scope: "choice",
    honba_value: "int",
    noten_total: "int",
    nagashi_mangan: "bool",
    abortive_draws: "bool",
    bust: "choice",
    agari_yame: "bool",
    tenpai_yame: "bool",
    west_round: "bool",
    dealer_repeat_on_tenpai: "bool",
    leftover_sticks: "choice",
    ties: "choice",
    chombo: "choice",
    chombo_penalty: "decimal",
    rounding: "choice",
    riichi_min_points: "int",
    players: "int",
    tsumo_loss: "choice",
  };
  var OPTIONAL = { target_points: true, oka: true };
  // The words of each choice this engine acts on. A loaded option offering another word
  // makes `score` refuse, as for an unknown option; without loaded rules these check them.
  var ENGINE_CHOICES = {
    length: ["hanchan", "tonpuusen"],
    kazoe: ["yakuman", "sanbaiman"],
    multi_ron: ["double", "triple", "head_bump"],
    multi_ron_honba: ["first", "each"],
    multi_ron_sticks: ["first", "own_back"],
    pao_honba: ["discarder", "liable"],
    pao_scope: ["whole", "fed_yakuman"],
    bust: ["below_zero", "off"],
    leftover_sticks: ["first", "lost"],
    ties: ["seat_order", "split"],
    chombo: ["reverse_mangan", "penalty"],
    rounding: ["exact", "thousands"],
    tsumo_loss: ["on", "split"],
  };

  function roundLabels(players) {
    var labels = [];
    for (var w = 0; w < 3; w++) {
      for (var n = 1; n <= players; n++) labels.push("ESW"[w] + n);
    }
    return labels;
  }
  var ROUND_LABELS = { 3: roundLabels(3), 4: roundLabels(4) };

  // ---------------------------------------------------------------- errors and helpers

  function has(obj, key) {
    return Object.prototype.hasOwnProperty.call(obj, key);
  }

  function isObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }

  function isInt(value) {
    return typeof value === "number" && Number.isInteger(value);
  }

  // A value as Python's repr() shows it in a message.
  function repr(value) {
    if (value === undefined || value === null) return "None";
    if (value === true) return "True";
    if (value === false) return "False";
    if (typeof value === "string") {
      // Python quotes with ' unless the text holds a ' and no ".
      var quote = value.indexOf("'") >= 0 && value.indexOf('"') < 0 ? '"' : "'";
      var escaped = value.replace(/\\/g, "\\\\");
      if (quote === "'") escaped = escaped.replace(/'/g, "\\'");
      return quote + escaped + quote;
    }
    if (typeof value === "number") return String(value);
    if (Array.isArray(value)) return "[" + value.map(repr).join(", ") + "]";
    if (typeof value === "object") {
      return (
        "{" +
        Object.keys(value)
          .map(function (key) {
            return repr(key) + ": " + repr(value[key]);
          })
          .join(", ") +
        "}"
      );
    }
    return String(value);
  }

  function grouped(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  function fill(template, params) {
    return template.replace(/%\((\w+)\)s/g, function (whole, key) {
      return String(params[key]);
    });
  }

  class ScoringError extends Error {
    constructor(template, params, hand) {
      var problem = fill(template, params || {});
      super(hand === undefined || hand === null ? problem : "hand " + hand + ": " + problem);
      this.name = "ScoringError";
      this.template = template;
      this.params = params || {};
      this.hand = hand === undefined ? null : hand;
      this.problem = problem;
    }

    inHand(number) {
      return this.hand !== null ? this : new ScoringError(this.template, this.params, number);
    }
  }

  function fail(template, params, hand) {
    throw new ScoringError(template, params, hand);
  }

  function contains(list, value) {
    return list.indexOf(value) >= 0;
  }

  // Whole numbers that take part in sums must stay exact in a double.
  function checkSafe(value, what, hand) {
    if (!Number.isSafeInteger(value)) {
      fail("%(what)s is too large: %(value)s", { what: what, value: repr(value) }, hand);
    }
    return value;
  }

  // ---------------------------------------------------------------- exact decimals

  // A number or numeric text as Python's Decimal(str(value)) reads it, in whole tenths;
  // NaN when it is not whole tenths. Refuses text that is not a finite number.
  // (Python's Decimal ignores every underscore in the text.)
  var DECIMAL_TEXT = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;

  function tenthsOf(value, name) {
    if (typeof value === "boolean" || (typeof value !== "number" && typeof value !== "string")) {
      fail("option %(name)s must be a number", { name: repr(name) });
    }
    if (typeof value === "number" && !isFinite(value)) {
      fail("option %(name)s must be a number", { name: repr(name) });
    }
    return decimalTenths(String(value).trim(), function () {
      fail("option %(name)s must be a number", { name: repr(name) });
    });
  }

  function decimalTenths(text, notNumber) {
    var m = DECIMAL_TEXT.exec(text.replace(/_/g, ""));
    if (!m) notNumber();
    var whole = m[2] || "";
    var frac = m[3] !== undefined ? m[3] : m[4] || "";
    var exponent = m[5] ? parseInt(m[5], 10) : 0;
    var digits = (whole + frac).replace(/^0+/, "");
    // value = digits x 10^(exponent - len(frac)); in tenths one power more.
    var power = exponent - frac.length + 1;
    if (digits === "") return 0;
    if (power < 0) {
      var cut = digits.length + power;
      var dropped = cut > 0 ? digits.slice(cut) : digits;
      if (/[^0]/.test(dropped)) return NaN;
      digits = cut > 0 ? digits.slice(0, cut) : "0";
      power = 0;
    }
    if (digits.length + power > 16) fail("match points too large: %(value)s", { value: text });
    var tenths = parseInt(digits, 10) * Math.pow(10, power);
    if (!Number.isSafeInteger(tenths)) fail("match points too large: %(value)s", { value: text });
    return m[1] === "-" ? -tenths : tenths;
  }

  // Tenths as the number Python's float(Decimal) gives (never -0).
  function tenthsNumber(tenths) {
    return tenths === 0 ? 0 : tenths / 10;
  }

  // a / b rounded to a whole number, halves to even (Decimal's quantize); b > 0.
  function divHalfEven(a, b) {
    var q = Math.floor(a / b);
    var r = a - q * b;
    if (2 * r > b || (2 * r === b && q % 2 !== 0)) q += 1;
    return q;
  }

  function roundUp100(points) {
    return Math.ceil(points / 100) * 100;
  }

  // ---------------------------------------------------------------- rules

  var rulesData = null;
  var unknownOptions = [];
  var presetCache = {};

  function load(data) {
    if (!isObject(data) || !isObject(data.options) || !isObject(data.presets)) {
      throw new Error(
        "TenbouEngine.load needs {options, presets} as scoring.rules.engine_rules() gives them"
      );
    }
    rulesData = data;
    presetCache = {};
    unknownOptions = [];
    Object.keys(data.options).forEach(function (name) {
      var spec = data.options[name];
      if (!has(ENGINE_OPTIONS, name) || spec.kind !== ENGINE_OPTIONS[name]) {
        unknownOptions.push(repr(name));
      } else if (spec.kind === "choice") {
        spec.choices.forEach(function (word) {
          if (!contains(ENGINE_CHOICES[name], word)) {
            unknownOptions.push(repr(name) + ": " + repr(word));
          }
        });
      }
    });
    api.presets = data.presets;
    api.options = data.options;
  }

  function optionKind(name) {
    if (rulesData) {
      if (!has(rulesData.options, name)) fail("unknown rule option %(name)s", { name: repr(name) });
      return rulesData.options[name];
    }
    if (!has(ENGINE_OPTIONS, name)) fail("unknown rule option %(name)s", { name: repr(name) });
    return {
      kind: ENGINE_OPTIONS[name],
      optional: has(OPTIONAL, name),
      choices: has(ENGINE_CHOICES, name) ? ENGINE_CHOICES[name] : null,
    };
  }

  function convertOption(name, value, spec) {
    var kind = spec.kind;
    if (kind === "bool") {
      if (typeof value !== "boolean") {
        fail("option %(name)s must be true or false", { name: repr(name) });
      }
      return value;
    }
    if (kind === "int") {
      if (spec.optional && value === null) return null;
      if (!isInt(value)) {
        fail("option %(name)s must be a whole number of points", { name: repr(name) });
      }
      return checkSafe(value, "option " + repr(name));
    }
    if (kind === "choice") {
      if (!contains(spec.choices, value)) {
        fail("option %(name)s must be one of %(choices)s", {
          name: repr(name),
          choices: spec.choices.join(", "),
        });
      }
      return value;
    }
    if (kind === "uma") {
      if (!Array.isArray(value) || (value.length !== 3 && value.length !== 4)) {
        fail("option 'uma' must be a list of four numbers, 1st to 4th");
      }
      return value.map(function (v) {
        return tenthsOf(v, "uma");
      });
    }
    if (kind === "decimal") {
      if (spec.optional && value === null) return null;
      return tenthsOf(value, name);
    }
    throw new Error("TenbouEngine: option " + name + " has an unknown kind " + kind);
  }

  function presetRules(name) {
    if (!has(presetCache, name)) {
      var values = rulesData.presets[name];
      var rules = {};
      Object.keys(values).forEach(function (option) {
        rules[option] = convertOption(option, values[option], optionKind(option));
      });
      checkConsistency(rules);
      presetCache[name] = Object.freeze(rules);
    }
    return presetCache[name];
  }

  function resolveRules(spec) {
    if (unknownOptions.length) {
      fail("this page's scoring engine does not know the rule option %(name)s", {
        name: unknownOptions[0],
      });
    }
    var preset;
    var overrides;
    if (typeof spec === "string") {
      preset = spec;
      overrides = {};
    } else if (isObject(spec)) {
      var unknown = Object.keys(spec)
        .filter(function (k) {
          return k !== "preset" && k !== "overrides";
        })
        .sort();
      if (unknown.length) fail("rules: unknown field %(key)s", { key: repr(unknown[0]) });
      preset = has(spec, "preset") ? spec.preset : null;
      overrides = has(spec, "overrides") ? spec.overrides : {};
      if (!isObject(overrides)) fail("rules: 'overrides' must be an object of option: value");
    } else {
      fail('rules must be a preset name or {"preset": ..., "overrides": {...}}');
    }
    var names = rulesData ? Object.keys(rulesData.presets).sort() : null;
    if (typeof preset !== "string" || (names ? !has(rulesData.presets, preset) : !preset)) {
      fail("unknown rule preset %(preset)s; choose one of %(choices)s", {
        preset: repr(preset),
        choices: names ? names.join(", ") : "(the presets are not loaded)",
      });
    }
    var base = rulesData ? presetRules(preset) : null;
    var keys = Object.keys(overrides);
    if (!keys.length && base) return base;
    var rules = Object.assign({}, base || {});
    keys.forEach(function (name) {
      rules[name] = convertOption(name, overrides[name], optionKind(name));
    });
    if (!base) {
      Object.keys(ENGINE_OPTIONS).forEach(function (name) {
        if (!has(rules, name)) {
          fail(
            "the rule presets are not loaded here: the rules must give every option" +
              " (%(name)s is missing)",
            { name: repr(name) }
          );
        }
      });
    }
    if (rules.players === 4 && rules.uma.length !== 4) {
      fail("option 'uma' must be a list of four numbers, 1st to 4th");
    }
    checkConsistency(rules);
    return Object.freeze(rules);
  }

  // Python's _check_consistency: option values that could not settle a game cleanly.
  function checkConsistency(r) {
    if (r.start_points <= 0 || r.start_points % 100) {
      fail("start_points must be a positive multiple of 100");
    }
    if (r.return_points < 0 || r.return_points % 100) {
      fail("return_points must be a multiple of 100, 0 or more");
    }
    if (r.target_points !== null && (r.target_points < 0 || r.target_points % 100)) {
      fail("target_points must be a multiple of 100, 0 or more");
    }
    if (r.riichi_min_points < 0 || r.riichi_min_points % 100) {
      fail("riichi_min_points must be a multiple of 100, 0 or more");
    }
    if (r.players !== 3 && r.players !== 4) {
      fail("players must be 4, or 3 for a three-player game, not %(players)s", {
        players: r.players,
      });
    }
    if (r.players === 3) {
      if (r.honba_value < 0 || r.honba_value % 200) {
        fail("honba_value must be a multiple of 200 (0 or more) in a three-player game");
      }
      if (r.noten_total < 0 || r.noten_total % 200) {
        fail("noten_total must be a multiple of 200 (0 or more) in a three-player game");
      }
      if (r.uma.length !== 3) {
        fail("uma needs three numbers in a three-player game, for 1st to 3rd place");
      }
    } else {
      if (r.honba_value < 0 || r.honba_value % 300) {
        fail("honba_value must be a multiple of 300 (0 or more)");
      }
      if (r.noten_total < 0 || r.noten_total % 600) {
        fail("noten_total must be a multiple of 600 (0 or more)");
      }
      if (r.uma.length !== 4) fail("uma needs four numbers, for 1st to 4th place");
    }
    var tenths = r.uma.concat([r.chombo_penalty, r.oka === null ? 0 : r.oka]);
    if (tenths.some(Number.isNaN)) {
      fail("match points are kept to tenths: uma, oka and penalties too");
    }
    if (r.chombo_penalty > 0) {
      fail("chombo_penalty is a deduction: give it as 0 or a negative number");
    }
  }

  function effectiveOka(r) {
    if (r.oka !== null) return r.oka;
    // players x (return - start) / 1000 points, in tenths; whole since both are hundreds.
    return (r.players * (r.return_points - r.start_points)) / 100;
  }

  function target(r) {
    return r.target_points === null ? r.return_points : r.target_points;
  }

  function lastRegularRound(r) {
    return (r.length === "tonpuusen" ? 1 : 2) * r.players - 1;
  }

  function rulesJson(r) {
    var out = {};
    Object.keys(r).forEach(function (name) {
      var value = r[name];
      if (name === "uma") value = value.map(tenthsNumber);
      else if ((name === "oka" || name === "chombo_penalty") && value !== null) {
        value = tenthsNumber(value);
      }
      out[name] = value;
    });
    return out;
  }

  // ---------------------------------------------------------------- the record

  function wholeNumber(value, what, hand) {
    if (!isInt(value)) {
      fail(
        "%(what)s must be a whole number, not %(value)s",
        { what: what, value: repr(value) },
        hand
      );
    }
    return value;
  }

  function seatOf(value, what, hand) {
    wholeNumber(value, what, hand);
    if (value < 0 || value > 3) {
      fail(
        "%(what)s must be a seat number 0 to 3, not %(seat)s",
        { what: what, seat: value },
        hand
      );
    }
    return value;
  }

  function seatsOf(value, what, hand) {
    if (!Array.isArray(value)) {
      fail("'%(what)s' must be a list of seat numbers", { what: what }, hand);
    }
    var seats = value.map(function (v) {
      return seatOf(v, "a seat in '" + what + "'", hand);
    });
    seats.forEach(function (seat, i) {
      if (seats.indexOf(seat) !== i) fail("'%(what)s' names a seat twice", { what: what }, hand);
    });
    return seats;
  }

  function objectOf(value, what, hand) {
    if (!isObject(value)) fail("%(what)s must be a JSON object", { what: what }, hand);
    return value;
  }

  function checkKeys(obj, allowed, what, hand) {
    Object.keys(obj).forEach(function (key) {
      if (!contains(allowed, key)) {
        fail(
          "%(what)s has an unknown or misplaced field %(key)s",
          { what: what, key: repr(key) },
          hand
        );
      }
    });
  }

  function get(obj, key) {
    return has(obj, key) ? obj[key] : null;
  }

  function parseWin(obj, n) {
    var win = objectOf(obj, "a win", n);
    checkKeys(win, WIN_FIELDS, "a win", n);
    if (!has(win, "winner")) fail("a win needs 'winner'", {}, n);
    function optInt(key) {
      var value = get(win, key);
      return value === null ? null : wholeNumber(value, "'" + key + "'", n);
    }
    var yaku = get(win, "yaku");
    if (
      yaku !== null &&
      (!Array.isArray(yaku) ||
        !yaku.every(function (y) {
          return typeof y === "string" && y.length > 0;
        }))
    ) {
      fail("'yaku' must be a list of yaku names", {}, n);
    }
    var open = get(win, "open");
    if (open !== null && typeof open !== "boolean") fail("'open' must be true or false", {}, n);
    var dora = optInt("dora");
    if (dora !== null && dora < 0) fail("'dora' cannot be negative", {}, n);
    var kita = optInt("kita");
    if (kita !== null && kita < 0) fail("'kita' cannot be negative", {}, n);
    return {
      winner: seatOf(win.winner, "'winner'", n),
      loser: get(win, "loser") === null ? null : seatOf(win.loser, "'loser'", n),
      han: optInt("han"),
      fu: optInt("fu"),
      yakuman: optInt("yakuman"),
      pao: get(win, "pao") === null ? null : seatOf(win.pao, "'pao'", n),
      pao_yakuman: optInt("pao_yakuman"),
    };
  }

  function parseHand(obj, n) {
    var data = objectOf(obj, "a hand", n);
    var result = get(data, "result");
    if (!contains(RESULTS, result)) {
      fail(
        "unknown result %(result)s; use one of %(choices)s",
        { result: repr(result), choices: RESULTS.join(", ") },
        n
      );
    }
    var fields = HAND_FIELDS[result];
    checkKeys(data, ["result", "riichi"].concat(fields), "a " + result + " hand", n);
    fields.forEach(function (key) {
      if (!has(data, key)) {
        if (key === "tenpai") {
          fail(
            "a %(result)s hand needs 'tenpai' (an empty list if nobody was tenpai)",
            { result: result },
            n
          );
        }
        fail("a %(result)s hand needs '%(key)s'", { result: result, key: key }, n);
      }
    });
    if (!has(data, "riichi")) {
      fail("every hand needs 'riichi' (an empty list if nobody declared)", {}, n);
    }
    var hand = {
      result: result,
      riichi: seatsOf(data.riichi, "riichi", n),
      wins: [],
      tenpai: [],
      nagashi: [],
      reason: null,
      offender: null,
    };
    if (result === "ron" || result === "tsumo") {
      if (!Array.isArray(data.wins) || !data.wins.length) {
        fail("a %(result)s hand needs 'wins', a list of one or more", { result: result }, n);
      }
      hand.wins = data.wins.map(function (w) {
        return parseWin(w, n);
      });
    } else if (result === "draw") {
      hand.tenpai = seatsOf(data.tenpai, "tenpai", n);
    } else if (result === "nagashi") {
      hand.nagashi = seatsOf(data.nagashi, "nagashi", n);
      hand.tenpai = seatsOf(data.tenpai, "tenpai", n);
    } else if (result === "abort") {
      if (!contains(ABORT_REASONS, data.reason)) {
        fail(
          "unknown abort reason %(reason)s; use one of %(choices)s",
          { reason: repr(data.reason), choices: ABORT_REASONS.join(", ") },
          n
        );
      }
      hand.reason = data.reason;
    } else {
      hand.offender = seatOf(data.offender, "'offender'", n);
    }
    return hand;
  }

  // Python's check_value: a han/fu or yakuman value no real hand can have.
  function checkValue(han, fu, yakuman, tsumo) {
    if (yakuman !== null) {
      if (han !== null || fu !== null) {
        fail("a yakuman win takes no han or fu: give only 'yakuman'");
      }
      if (yakuman < 1 || yakuman > MAX_YAKUMAN) {
        fail("yakuman must be 1 to %(most)s (the multiple), not %(given)s", {
          most: MAX_YAKUMAN,
          given: yakuman,
        });
      }
      return;
    }
    if (han === null) fail("a win needs han (and fu up to 4 han), or a yakuman multiple");
    if (han < 1) fail("%(han)s han is not a win: a hand needs at least 1 han", { han: han });
    if (fu === null) {
      if (han <= 4) fail("fu is needed for a hand of %(han)s han", { han: han });
      return;
    }
    if (!contains(VALID_FU, fu)) {
      fail("%(fu)s fu is not possible: fu is 20, 25 or 30 to 110 in tens", { fu: fu });
    }
    if (han >= 5) return;
    if (fu === 20 && !tsumo) {
      fail("%(han)s han 20 fu is not a possible ron: 20 fu is only a pinfu tsumo", { han: han });
    }
    if (fu === 20 && han === 1) {
      fail("1 han 20 fu is not a possible tsumo: pinfu tsumo is at least 2 han");
    }
    if (fu === 25 && han === 1) {
      fail("1 han 25 fu is not a possible %(way)s: seven pairs is at least 2 han", {
        way: tsumo ? "tsumo" : "ron",
      });
    }
    if (fu === 25 && han === 2 && tsumo) {
      fail("2 han 25 fu is not a possible tsumo: seven pairs tsumo is 3 han");
    }
  }

  // Python's validate_hand: a hand that cannot have happened under the rules.
  function validateHand(hand, rules) {
    if (rules.players !== 4) {
      var seats = hand.riichi.concat(hand.tenpai, hand.nagashi);
      hand.wins.forEach(function (w) {
        [w.winner, w.loser, w.pao].forEach(function (s) {
          if (s !== null) seats.push(s);
        });
      });
      if (hand.offender !== null) seats.push(hand.offender);
      seats.forEach(function (seat) {
        if (seat >= rules.players) {
          fail("seat %(seat)s is not at the table: a three-player game has seats 0 to 2", {
            seat: seat,
          });
        }
      });
      if (contains(FOUR_PLAYER_ABORTS, hand.reason)) {
        fail("a three-player game has no %(reason)s abort", { reason: hand.reason });
      }
    }
    if (hand.result === "ron") {
      var losers = hand.wins.map(function (w) {
        return w.loser;
      });
      if (contains(losers, null)) fail("every win of a ron needs the 'loser' who dealt in");
      if (
        losers.some(function (l) {
          return l !== losers[0];
        })
      ) {
        fail("all wins of one ron hand must share the same loser");
      }
      var winners = hand.wins.map(function (w) {
        return w.winner;
      });
      winners.forEach(function (w, i) {
        if (winners.indexOf(w) !== i) fail("a seat is listed as winner twice");
      });
      if (
        hand.wins.some(function (w) {
          return w.winner === w.loser;
        })
      ) {
        fail("the loser cannot also be a winner");
      }
      if (hand.wins.length > 3) fail("at most three players can ron one discard");
      if (hand.wins.length === 3 && rules.multi_ron === "double") {
        fail(
          "three rons on one discard are an abortive draw under these rules: " +
            "record it as an abort with reason triple_ron"
        );
      }
    }
    if (hand.result === "tsumo") {
      if (hand.wins.length !== 1) fail("a tsumo has exactly one winner");
      if (hand.wins[0].loser !== null) {
        fail("a tsumo has no loser: remove 'loser' or record a ron");
      }
    }
    hand.wins.forEach(function (win) {
      checkValue(win.han, win.fu, win.yakuman, hand.result === "tsumo");
      if (win.pao !== null) {
        if (win.pao === win.winner) fail("the winner cannot be liable (pao) for their own hand");
        if (win.yakuman === null) fail("pao applies only to a yakuman win");
      }
      if (win.pao_yakuman !== null) {
        if (win.pao === null) fail("'pao_yakuman' needs 'pao', the liable player");
        if (win.pao_yakuman < 1 || win.pao_yakuman > (win.yakuman || 0)) {
          fail(
            "'pao_yakuman' must be 1 to the win's yakuman multiple (%(yakuman)s), not %(given)s",
            { yakuman: repr(win.yakuman), given: win.pao_yakuman }
          );
        }
      }
    });
    if (hand.result === "nagashi") {
      if (!rules.nagashi_mangan) fail("nagashi mangan is not played under these rules");
      if (!hand.nagashi.length) fail("a nagashi hand needs at least one seat in 'nagashi'");
    }
    if (hand.result === "abort") {
      if (hand.reason === "triple_ron") {
        if (rules.multi_ron !== "double") {
          fail("a triple ron is not an abortive draw under these rules: record the rons");
        }
      } else if (!rules.abortive_draws) {
        fail("abortive draws are not played under these rules");
      }
    }
  }

  function checkPlayers(players, rules) {
    var namesOk =
      Array.isArray(players) &&
      players.every(function (p) {
        return typeof p === "string" && p.trim().length > 0;
      });
    var threeOrFour = namesOk && (players.length === 3 || players.length === 4);
    if (threeOrFour && players.length !== rules.players) {
      fail(
        "'players' has %(given)s names, but these are %(rules)s-player rules: give" +
          " %(rules)s names, or rules for %(given)s players",
        { given: players.length, rules: rules.players }
      );
    }
    if (!namesOk || players.length !== rules.players) {
      if (rules.players === 3) fail("'players' must be three names, in starting seat order");
      fail("'players' must be four names, in starting seat order");
    }
    players.forEach(function (p, i) {
      if (players.indexOf(p) !== i) fail("'players' names a player twice");
    });
  }

  function parsePenalty(obj) {
    var data = objectOf(obj, "a penalty");
    Object.keys(data).forEach(function (key) {
      if (!contains(["seat", "match_points", "reason"], key)) {
        fail("a penalty has an unknown field %(key)s", { key: repr(key) });
      }
    });
    var seat = seatOf(get(data, "seat"), "a penalty's 'seat'");
    var value = get(data, "match_points");
    if (typeof value !== "number" || !isFinite(value)) {
      fail("a penalty needs 'match_points', a number such as -20.0");
    }
    var tenths = decimalTenths(String(value), function () {
      fail("a penalty needs 'match_points', a number such as -20.0");
    });
    if (Number.isNaN(tenths)) fail("penalty match points are kept to tenths, e.g. -20.0");
    var reason = has(data, "reason") ? data.reason : "";
    if (typeof reason !== "string") fail("a penalty's 'reason' must be text");
    return { seat: seat, tenths: tenths, reason: reason };
  }

  function listOf(value, what) {
    if (!Array.isArray(value)) fail("'%(what)s' must be a list", { what: what });
    return value;
  }

  function parseRecord(data) {
    var doc = objectOf(data, "a game record");
    if (get(doc, "format") !== FORMAT) {
      fail("not a game record: 'format' must be %(format)s", { format: repr(FORMAT) });
    }
    Object.keys(doc).forEach(function (key) {
      if (!contains(RECORD_FIELDS, key)) {
        fail("unknown field %(key)s in the game record", { key: repr(key) });
      }
    });
    if (!has(doc, "rules")) {
      fail("the record needs 'rules': a preset name or preset with overrides");
    }
    var rules = resolveRules(doc.rules);
    var players = get(doc, "players");
    checkPlayers(players, rules);
    var penalties = listOf(has(doc, "penalties") ? doc.penalties : [], "penalties").map(
      parsePenalty
    );
    penalties.forEach(function (p) {
      if (p.seat >= rules.players) {
        fail(
          "a penalty's seat %(seat)s is not at the table: a three-player game has seats 0 to 2",
          { seat: p.seat }
        );
      }
    });
    var endedEarly = get(doc, "ended_early");
    if (endedEarly !== null && !contains(ENDED_EARLY, endedEarly)) {
      fail("'ended_early' must be %(choices)s, not %(given)s", {
        choices: ENDED_EARLY.map(repr).join(" or "),
        given: repr(endedEarly),
      });
    }
    var record = {
      rules: rules,
      players: players.slice(),
      hands: null,
      final_scores: null,
      leftover_sticks: 0,
      penalties: penalties,
      ended_early: endedEarly,
    };
    if (has(doc, "final_scores")) {
      if (endedEarly !== null) {
        fail("'ended_early' needs the hands played; a final-scores record is finished already");
      }
      if (has(doc, "hands")) fail("give either 'hands' or 'final_scores', not both");
      var scores = doc.final_scores;
      if (!Array.isArray(scores) || scores.length !== rules.players) {
        if (rules.players === 3) fail("'final_scores' must be three scores in a three-player game");
        fail("'final_scores' must be four scores, one per seat");
      }
      var finals = scores.map(function (s) {
        return checkSafe(wholeNumber(s, "a final score"), "a final score");
      });
      if (
        finals.some(function (s) {
          return s % 100 !== 0;
        })
      ) {
        fail("final scores are multiples of 100");
      }
      var sticks = has(doc, "leftover_sticks") ? doc.leftover_sticks : 0;
      checkSafe(wholeNumber(sticks, "'leftover_sticks'"), "'leftover_sticks'");
      if (sticks < 0) fail("'leftover_sticks' cannot be negative");
      var expected = rules.players * rules.start_points;
      var sum = finals.reduce(function (a, b) {
        return a + b;
      }, 0);
      if (sum + 1000 * sticks !== expected) {
        var numbers = {
          players: rules.players,
          sum: grouped(sum),
          expected: grouped(expected),
          start: grouped(rules.start_points),
          sticks: sticks,
        };
        if (sticks) {
          fail(
            "the final scores add up to %(sum)s plus %(sticks)s stick(s) on the " +
              "table; they must make %(expected)s (%(players)s x %(start)s)",
            numbers
          );
        }
        fail(
          "the final scores add up to %(sum)s; they must make %(expected)s" +
            " (%(players)s x %(start)s)",
          numbers
        );
      }
      record.final_scores = finals;
      record.leftover_sticks = sticks;
      return record;
    }
    if (has(doc, "leftover_sticks")) {
      fail("'leftover_sticks' goes with 'final_scores'; with hands it is computed");
    }
    var hands = listOf(get(doc, "hands"), "hands");
    record.hands = hands.map(function (h, i) {
      return parseHand(h, i + 1);
    });
    if (endedEarly !== null && !record.hands.length) {
      fail(
        "a game cannot end early before its first hand: enter the hands played," +
          " or remove 'ended_early'"
      );
    }
    return record;
  }

  // ---------------------------------------------------------------- payments

  function basePoints(han, fu, yakuman, rules) {
    if (yakuman !== null) return 8000 * (rules.double_yakuman ? yakuman : 1);
    if (han >= 13) return rules.kazoe === "yakuman" ? 8000 : 6000;
    if (han >= 11) return 6000;
    if (han >= 8) return 4000;
    if (han >= 6) return 3000;
    if (han === 5) return MANGAN_BASE;
    if (rules.kiriage && ((han === 4 && fu === 30) || (han === 3 && fu === 60))) return MANGAN_BASE;
    return Math.min(fu * Math.pow(2, han + 2), MANGAN_BASE);
  }

  function ronValue(base, dealer) {
    return roundUp100(base * (dealer ? 6 : 4));
  }

  // [what the dealer pays, what each other player pays] for a tsumo, before honba.
  function tsumoValues(base, dealer) {
    if (dealer) {
      var each = roundUp100(base * 2);
      return [each, each];
    }
    return [roundUp100(base * 2), roundUp100(base)];
  }

  // The other seats, in turn order from `seat`.
  function seatsAfter(seat, players) {
    var seats = [];
    for (var step = 1; step < players; step++) seats.push((seat + step) % players);
    return seats;
  }

  // [payer, amount] for a tsumo worth `base`, before honba, in turn order from the winner.
  function tsumoShares(winner, base, dealer, rules) {
    var values = tsumoValues(base, winner === dealer);
    var shares = seatsAfter(winner, rules.players).map(function (payer) {
      return [payer, payer === dealer ? values[0] : values[1]];
    });
    if (rules.players === 4 || rules.tsumo_loss === "on") return shares;
    // The North would have paid as a non-dealer; its share is split between the two.
    var half = roundUp100(Math.floor(values[1] / 2));
    return shares.map(function (s) {
      return [s[0], s[1] + half];
    });
  }

  function payTsumo(winner, base, deltas, dealer, honbaTotal, rules) {
    var honbaEach = Math.floor(honbaTotal / (rules.players - 1));
    tsumoShares(winner, base, dealer, rules).forEach(function (share) {
      var pay = share[1] + honbaEach;
      deltas[share[0]] -= pay;
      deltas[winner] += pay;
    });
  }

  function paoMultiples(win, rules) {
    var multiples = rules.double_yakuman ? win.yakuman || 1 : 1;
    if (win.pao === null) return [0, multiples];
    if (rules.pao_scope === "whole") return [multiples, 0];
    var fed = Math.min(win.pao_yakuman || 1, multiples);
    return [fed, multiples - fed];
  }

  function payWithPao(win, deltas, dealer, honbaTotal, rules) {
    var m = paoMultiples(win, rules);
    var fed = m[0];
    var rest = m[1];
    var winnerIsDealer = win.winner === dealer;
    if (win.loser === null) {
      var fedTotal = tsumoShares(win.winner, 8000 * fed, dealer, rules).reduce(function (a, s) {
        return a + s[1];
      }, 0);
      if (rest) {
        // Only part of the win is liable: the honba go with the ordinary part.
        payTsumo(win.winner, 8000 * rest, deltas, dealer, honbaTotal, rules);
        honbaTotal = 0;
      }
      deltas[win.pao] -= fedTotal + honbaTotal;
      deltas[win.winner] += fedTotal + honbaTotal;
      return;
    }
    var fedValue = ronValue(8000 * fed, winnerIsDealer);
    var restValue = ronValue(8000 * rest, winnerIsDealer);
    var liableShare = roundUp100(Math.floor(fedValue / 2));
    var discarderShare = fedValue - liableShare + restValue;
    if (rules.pao_honba === "liable") liableShare += honbaTotal;
    else discarderShare += honbaTotal;
    deltas[win.pao] -= liableShare;
    deltas[win.loser] -= discarderShare;
    deltas[win.winner] += liableShare + discarderShare;
  }

  function payOne(win, deltas, dealer, honba, rules) {
    var honbaTotal = honba * rules.honba_value;
    if (win.pao !== null && win.pao !== win.loser) {
      payWithPao(win, deltas, dealer, honbaTotal, rules);
      return;
    }
    var base = basePoints(win.han, win.fu, win.yakuman, rules);
    if (win.loser === null) {
      payTsumo(win.winner, base, deltas, dealer, honbaTotal, rules);
      return;
    }
    var value = ronValue(base, win.winner === dealer) + honbaTotal;
    deltas[win.loser] -= value;
    deltas[win.winner] += value;
  }

  // Pay the wins of a ron or tsumo hand; the seats that were paid.
  function settleWins(hand, deltas, dealer, honba, sticks, rules) {
    var paid;
    if (hand.result === "tsumo") {
      paid = [hand.wins[0]];
    } else {
      var order = seatsAfter(hand.wins[0].loser, rules.players);
      paid = hand.wins.slice().sort(function (a, b) {
        return order.indexOf(a.winner) - order.indexOf(b.winner);
      });
      if (rules.multi_ron === "head_bump") paid = paid.slice(0, 1);
    }
    paid.forEach(function (win, index) {
      var getsHonba = index === 0 || rules.multi_ron_honba === "each";
      payOne(win, deltas, dealer, getsHonba ? honba : 0, rules);
    });
    if (rules.multi_ron_sticks === "own_back") {
      paid.slice(1).forEach(function (win) {
        if (contains(hand.riichi, win.winner)) {
          deltas[win.winner] += STICK;
          sticks -= 1;
        }
      });
    }
    deltas[paid[0].winner] += sticks * STICK;
    return paid.map(function (w) {
      return w.winner;
    });
  }

  function payNoten(tenpai, deltas, rules) {
    if (tenpai.length === 0 || tenpai.length === rules.players) return;
    var noten = [];
    for (var s = 0; s < rules.players; s++) if (!contains(tenpai, s)) noten.push(s);
    tenpai.forEach(function (seat) {
      deltas[seat] += Math.floor(rules.noten_total / tenpai.length);
    });
    noten.forEach(function (seat) {
      deltas[seat] -= Math.floor(rules.noten_total / noten.length);
    });
  }

  function payManganTsumo(receiver, deltas, dealer, sign, rules) {
    tsumoShares(receiver, MANGAN_BASE, dealer, rules).forEach(function (share) {
      deltas[share[0]] -= sign * share[1];
      deltas[receiver] += sign * share[1];
    });
  }

  function zeros(n) {
    var out = [];
    for (var i = 0; i < n; i++) out.push(0);
    return out;
  }

  // Settle one hand against the table before it (Python's settle).
  function settle(hand, dealer, honba, sticks, rules) {
    var deltas = zeros(rules.players);
    function settlement(sticksAfter, keeps, addsHonba, replayed, dealerWon, dealerTenpai) {
      return {
        deltas: deltas,
        sticks_after: sticksAfter,
        dealer_keeps: keeps,
        adds_honba: addsHonba,
        replayed: replayed,
        dealer_won: dealerWon,
        dealer_tenpai: dealerTenpai,
      };
    }
    if (hand.result === "chombo") {
      // The hand is replayed and its riichi sticks go back: only the chombo payment moves.
      if (rules.chombo === "reverse_mangan") {
        payManganTsumo(hand.offender, deltas, dealer, -1, rules);
      }
      return settlement(sticks, true, false, true, false, false);
    }
    hand.riichi.forEach(function (seat) {
      deltas[seat] -= STICK;
    });
    var onTable = sticks + hand.riichi.length;
    if (hand.result === "ron" || hand.result === "tsumo") {
      var paid = settleWins(hand, deltas, dealer, honba, onTable, rules);
      var dealerWon = contains(paid, dealer);
      return settlement(0, dealerWon, dealerWon, false, dealerWon, false);
    }
    var dealerTenpai = contains(hand.tenpai, dealer);
    if (hand.result === "abort") return settlement(onTable, true, true, false, false, dealerTenpai);
    if (hand.result === "nagashi") {
      hand.nagashi.forEach(function (seat) {
        payManganTsumo(seat, deltas, dealer, 1, rules);
      });
    } else {
      payNoten(hand.tenpai, deltas, rules);
    }
    var keeps = dealerTenpai && rules.dealer_repeat_on_tenpai;
    return settlement(onTable, keeps, true, false, false, dealerTenpai);
  }

  // ---------------------------------------------------------------- placements, match points

  // Seats from first to last; equal scores go to the seat nearer the first dealer.
  function seatOrderRanking(scores) {
    var seats = scores.map(function (_, i) {
      return i;
    });
    return seats.sort(function (a, b) {
      return scores[b] - scores[a] || a - b;
    });
  }

  function placements(scores, ties) {
    var ranking = seatOrderRanking(scores);
    var places = zeros(scores.length);
    ranking.forEach(function (seat, index) {
      places[seat] = index + 1;
    });
    if (ties === "split") {
      scores.forEach(function (score, seat) {
        places[seat] =
          1 +
          scores.filter(function (other) {
            return other > score;
          }).length;
      });
    }
    return places;
  }

  function tiedGroups(scores, ties) {
    var ranking = seatOrderRanking(scores);
    if (ties === "seat_order") {
      return ranking.map(function (seat) {
        return [seat];
      });
    }
    var groups = [];
    ranking.forEach(function (seat) {
      var last = groups[groups.length - 1];
      if (last && scores[last[0]] === scores[seat]) last.push(seat);
      else groups.push([seat]);
    });
    return groups;
  }

  // Split `total` tenths among `seats`; the seats nearer the first dealer take what is left.
  function share(total, seats) {
    var part = Math.trunc(total / seats.length);
    var shares = {};
    seats.forEach(function (seat) {
      shares[seat] = part;
    });
    var left = total - part * seats.length;
    seats
      .slice()
      .sort(function (a, b) {
        return a - b;
      })
      .forEach(function (seat) {
        if (left === 0) return;
        var step = left > 0 ? 1 : -1;
        shares[seat] += step;
        left -= step;
      });
    return shares;
  }

  // Uma plus oka per seat in tenths, tied players sharing the bonuses of their places.
  function placementBonus(scores, rules) {
    var byPlace = rules.uma.slice();
    byPlace[0] += effectiveOka(rules);
    var result = zeros(scores.length);
    var place = 0;
    tiedGroups(scores, rules.ties).forEach(function (group) {
      var total = 0;
      for (var i = place; i < place + group.length && i < byPlace.length; i++) total += byPlace[i];
      var shares = share(total, group);
      group.forEach(function (seat) {
        result[seat] = shares[seat];
      });
      place += group.length;
    });
    return result;
  }

  function roundToThousands(score) {
    var thousands = Math.floor(score / 1000);
    var rest = score - thousands * 1000;
    return (thousands + (rest >= 500 ? 1 : 0)) * 1000;
  }

  // Match points in tenths for final scores (before penalties); `standing` decides places.
  function matchPoints(scores, rules, standing) {
    var bonus = placementBonus(standing, rules);
    if (rules.rounding === "exact") {
      // In thousandths of a match point: scores are whole points.
      var raw = scores.map(function (score, seat) {
        return score - rules.return_points + bonus[seat] * 100;
      });
      var points = raw.map(function (r) {
        return divHalfEven(r, 100);
      });
      var sumRaw = raw.reduce(function (a, b) {
        return a + b;
      }, 0);
      var sumPoints = points.reduce(function (a, b) {
        return a + b;
      }, 0);
      points[seatOrderRanking(standing)[0]] += divHalfEven(sumRaw - 100 * sumPoints, 100);
      return points;
    }
    var first = seatOrderRanking(scores)[0];
    var pts = scores.map(function (score, seat) {
      return (roundToThousands(score) - rules.return_points) / 100 + bonus[seat];
    });
    var others = 0;
    pts.forEach(function (p, seat) {
      if (seat !== first) others += p;
    });
    pts[first] = -others;
    return pts;
  }

  // ---------------------------------------------------------------- the game

  function startState(rules) {
    var scores = [];
    for (var i = 0; i < rules.players; i++) scores.push(rules.start_points);
    return { round_index: 0, honba: 0, sticks: 0, scores: scores, ended_by: null };
  }

  function endsAfter(before, s, scores, rules) {
    if (rules.bust === "below_zero" && Math.min.apply(null, scores) < 0) return "bust";
    if (s.replayed) return null;
    var last = lastRegularRound(rules);
    if (before.round_index < last) return null;
    var inExtension = before.round_index > last;
    var someoneReached = Math.max.apply(null, scores) >= target(rules);
    if (s.dealer_keeps) {
      var dealer = before.round_index % scores.length;
      var leads = seatOrderRanking(scores)[0] === dealer;
      var mayStop = leads && scores[dealer] >= target(rules);
      if (mayStop && s.dealer_won && rules.agari_yame) return "agari_yame";
      if (mayStop && s.dealer_tenpai && rules.tenpai_yame) return "tenpai_yame";
      return null;
    }
    if (!rules.west_round) return "last_hand";
    if (someoneReached) return inExtension ? "west_round" : "last_hand";
    if (before.round_index + 1 > last + rules.players) return "west_round";
    return null;
  }

  function checkRiichiPoints(hand, scores, rules) {
    if (!rules.riichi_min_points) return;
    hand.riichi.forEach(function (seat) {
      if (scores[seat] < rules.riichi_min_points) {
        fail(
          "seat %(seat)s declared riichi with %(points)s points, but riichi needs at" +
            " least %(least)s (riichi_min_points); remove the riichi or correct an" +
            " earlier hand",
          { seat: seat, points: grouped(scores[seat]), least: grouped(rules.riichi_min_points) }
        );
      }
    });
  }

  function playHand(state, hand, rules, number) {
    if (state.ended_by !== null) {
      fail("the game already ended (%(why)s)", { why: state.ended_by }, number);
    }
    try {
      validateHand(hand, rules);
      checkRiichiPoints(hand, state.scores, rules);
    } catch (err) {
      if (err instanceof ScoringError) throw err.inHand(number);
      throw err;
    }
    var dealer = state.round_index % rules.players;
    var s = settle(hand, dealer, state.honba, state.sticks, rules);
    var after = state.scores.map(function (score, seat) {
      return score + s.deltas[seat];
    });
    var report = {
      round: ROUND_LABELS[rules.players][state.round_index],
      honba: state.honba,
      dealer: dealer,
      sticks_before: state.sticks,
      scores_before: state.scores.slice(),
      deltas: s.deltas.slice(),
      scores_after: after,
      sticks_after: s.sticks_after,
    };
    return { report: report, settlement: s };
  }

  function nextState(state, report, s, rules) {
    var endedBy = endsAfter(state, s, report.scores_after, rules);
    var roundIndex;
    var honba;
    if (s.replayed) {
      roundIndex = state.round_index;
      honba = state.honba;
    } else if (s.dealer_keeps) {
      roundIndex = state.round_index;
      honba = state.honba + 1;
    } else {
      roundIndex = state.round_index + 1;
      honba = s.adds_honba ? state.honba + 1 : 0;
    }
    var hands = 3 * rules.players;
    if (roundIndex >= hands && endedBy === null) endedBy = "west_round";
    return {
      round_index: Math.min(roundIndex, hands - 1),
      honba: honba,
      sticks: report.sticks_after,
      scores: report.scores_after.slice(),
      ended_by: endedBy,
    };
  }

  function penaltyTotals(record) {
    var totals = zeros(record.rules.players);
    record.penalties.forEach(function (p) {
      totals[p.seat] += p.tenths;
    });
    if (record.rules.chombo === "penalty") {
      (record.hands || []).forEach(function (hand) {
        if (hand.offender !== null) totals[hand.offender] += record.rules.chombo_penalty;
      });
    }
    return totals;
  }

  // Final scores: sticks left on the table go to first place, or are lost.
  function finish(scores, sticks, rules) {
    if (rules.leftover_sticks !== "first" || !sticks) return scores;
    var ranking = seatOrderRanking(scores);
    var firsts = [ranking[0]];
    if (rules.ties === "split") {
      firsts = ranking
        .filter(function (seat) {
          return scores[seat] === scores[ranking[0]];
        })
        .sort(function (a, b) {
          return a - b;
        });
    }
    var total = sticks * STICK;
    var part = Math.floor(total / firsts.length);
    var rest = total - part * firsts.length;
    var final = scores.slice();
    firsts.forEach(function (seat) {
      final[seat] += part;
    });
    final[firsts[0]] += rest;
    return final;
  }

  function replayRecord(record) {
    var rules = record.rules;
    var state;
    var reports = [];
    var endedBy = null;
    if (record.final_scores !== null) {
      state = startState(rules);
      state.scores = record.final_scores.slice();
      state.sticks = record.leftover_sticks;
      state.ended_by = "final_scores";
    } else {
      state = startState(rules);
      record.hands.forEach(function (hand, i) {
        var played = playHand(state, hand, rules, i + 1);
        reports.push(played.report);
        state = nextState(state, played.report, played.settlement, rules);
      });
      if (record.ended_early !== null) state.ended_by = record.ended_early;
      endedBy = state.ended_by;
    }
    var result = {
      hands: reports,
      finished: state.ended_by !== null,
      ended_by: null,
      final_scores: null,
      leftover_sticks: state.sticks,
      placements: null,
      match_points: null,
    };
    if (state.ended_by !== null) {
      var final = finish(state.scores, state.sticks, rules);
      var standing = rules.ties === "split" ? state.scores : final;
      var penalties = penaltyTotals(record);
      var points = matchPoints(final, rules, standing).map(function (p, seat) {
        return p + penalties[seat];
      });
      points.forEach(function (p) {
        if (!Number.isSafeInteger(p)) fail("match points too large: %(value)s", { value: p / 10 });
      });
      result.ended_by = endedBy;
      result.final_scores = final.slice();
      result.placements = placements(standing, rules.ties);
      result.match_points = points.map(tenthsNumber);
    }
    return { result: result, state: state, rules: rules };
  }

  function stateJson(state, rules) {
    var dealer = state.round_index % rules.players;
    return {
      round: ROUND_LABELS[rules.players][state.round_index],
      round_index: state.round_index,
      dealer: dealer,
      honba: state.honba,
      sticks: state.sticks,
      scores: state.scores.slice(),
      winds: state.scores.map(function (_, seat) {
        return WINDS[(((seat - dealer) % rules.players) + rules.players) % rules.players];
      }),
      finished: state.ended_by !== null,
      ended_by: state.ended_by,
    };
  }

  // ---------------------------------------------------------------- the API

  // A record as the server would read it once sent as JSON: a field left undefined is no
  // field at all, as it is for the Python engine.
  function asJson(value) {
    var text;
    try {
      text = JSON.stringify(value);
    } catch (err) {
      fail("not valid JSON: %(error)s", { error: String(err && err.message) });
    }
    return text === undefined ? null : JSON.parse(text);
  }

  function score(record) {
    return replayRecord(parseRecord(asJson(record))).result;
  }

  function replay(record) {
    var done = replayRecord(parseRecord(asJson(record)));
    return { result: done.result, state: stateJson(done.state, done.rules) };
  }

  function preview(record, hand) {
    var withHand = objectOf(asJson(record), "a game record");
    withHand.hands = listOf(has(withHand, "hands") ? withHand.hands : null, "hands").concat([
      asJson(hand),
    ]);
    var done = replayRecord(parseRecord(withHand));
    return {
      hand: done.result.hands[done.result.hands.length - 1],
      state: stateJson(done.state, done.rules),
      result: done.result,
    };
  }

  // Python's json.dumps of a result: match points always written with a decimal.
  function stringify(value, key) {
    if (value === null || value === undefined) return "null";
    if (Array.isArray(value)) {
      return (
        "[" +
        value
          .map(function (v) {
            return key === "match_points" ? pointsText(v) : stringify(v);
          })
          .join(", ") +
        "]"
      );
    }
    if (typeof value === "object") {
      return (
        "{" +
        Object.keys(value)
          .map(function (k) {
            return JSON.stringify(k) + ": " + stringify(value[k], k);
          })
          .join(", ") +
        "}"
      );
    }
    return JSON.stringify(value);
  }

  function pointsText(value) {
    var tenths = Math.round(value * 10);
    var abs = Math.abs(tenths);
    return (tenths < 0 ? "-" : "") + Math.floor(abs / 10) + "." + (abs % 10);
  }

  var api = {
    load: load,
    presets: {},
    options: {},
    score: score,
    replay: replay,
    preview: preview,
    resolveRules: function (spec) {
      return rulesJson(resolveRules(spec));
    },
    stringify: function (result) {
      return stringify(result);
    },
    ScoringError: ScoringError,
  };

  if (typeof document !== "undefined" && document.getElementById) {
    var element = document.getElementById("tenbou-engine-rules");
    if (element) load(JSON.parse(element.textContent));
  }
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  root.TenbouEngine = api;
})(typeof window !== "undefined" ? window : globalThis);

// The full hand on the hand form: pick the tiles, calls and dora indicators, and the server
// (scoring by the `mahjong` library) says the yaku, han and fu; the answer ticks the
// checklist and fills the han and fu picks, as if they had been tapped.
(function () {
  "use strict";

  var form = document.querySelector("[data-hand-form]");
  if (!form) {
    return;
  }
  var url = form.getAttribute("data-count-url");
  var SIZES = { chi: 3, pon: 3, kan: 4, ankan: 4 };
  var WINDS = "ESWN";

  // The words come from the page (data-say-* of the picker), in its language.
  function say(element, key, english, values) {
    var text = element.getAttribute("data-say-" + key) || english;
    Object.keys(values || {}).forEach(function (name) {
      text = text.split("{" + name + "}").join(String(values[name]));
    });
    return text;
  }

  function checkedValue(name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : "";
  }

  // A chi of "3p" is 3p4p5p; its red five stays red.
  function callTiles(kind, code) {
    var digit = code.charAt(0);
    var suit = code.charAt(1);
    if (kind === "chi") {
      var start = digit === "0" ? 5 : parseInt(digit, 10);
      if (suit === "z" || start > 7) {
        return null;
      }
      return [start, start + 1, start + 2].join("") + suit;
    }
    var tiles = "";
    for (var i = 0; i < SIZES[kind]; i += 1) {
      tiles += digit === "0" && i > 0 ? "5" : digit;
    }
    return tiles + suit;
  }

  function setUp(box) {
    var index = box.getAttribute("data-picker");
    var fresh = function () {
      return { hand: [], win: "", calls: [], dora: [], ura: [], kita: [], steps: [] };
    };
    var state = fresh();
    // Three-player games: the picker also counts the Norths set aside (kita).
    var withKita = box.querySelector('input[name="picker' + index + '_mode"][value="kita"]') !== null;
    var picked = box.querySelector("[data-picked]");
    var result = box.querySelector("[data-picker-result]");
    box.hidden = false;

    function mode() {
      var input = box.querySelector('input[name="picker' + index + '_mode"]:checked');
      return input ? input.value : "hand";
    }

    function show() {
      var rows = [
        [say(box, "hand", "Hand"), state.hand.join(" ") + (state.win ? " + " + state.win : "")],
        [say(box, "win", "Winning tile"), state.win || say(box, "not-chosen", "not chosen")],
        [say(box, "calls", "Calls"), state.calls.join(", ") || say(box, "none", "none")],
        [say(box, "dora", "Dora indicators"), state.dora.join(" ") || say(box, "none", "none")],
        [say(box, "ura", "Ura indicators"), state.ura.join(" ") || say(box, "none", "none")],
      ];
      if (withKita) {
        rows.push([say(box, "kita", "Kita"), String(state.kita.length)]);
      }
      picked.textContent = "";
      rows.forEach(function (row) {
        var dt = document.createElement("dt");
        dt.textContent = row[0];
        var dd = document.createElement("dd");
        dd.textContent = row[1];
        picked.appendChild(dt);
        picked.appendChild(dd);
      });
      var count = state.hand.length + (state.win ? 1 : 0) + 3 * state.calls.length;
      result.textContent = say(box, "picked", "{count} of 14 tiles picked.", { count: count });
    }

    box.addEventListener("click", function (event) {
      var tile = event.target.closest("button[data-tile]");
      if (tile) {
        var code = tile.getAttribute("data-tile");
        var kind = mode();
        if (kind === "hand") {
          state.hand.push(code);
        } else if (kind === "win") {
          if (state.win) {
            state.hand.push(state.win);
          }
          state.win = code;
        } else if (kind === "dora" || kind === "ura") {
          state[kind].push(code);
        } else if (kind === "kita") {
          if (code !== "4z") {
            result.textContent = say(box, "kita-north", "Kita are Norths set aside: tap North.");
            return;
          }
          state.kita.push(code);
        } else {
          var tiles = callTiles(kind, code);
          if (!tiles) {
            result.textContent = say(box, "chi", "A chi is three tiles in a row: tap its lowest tile, 1 to 7.");
            return;
          }
          state.calls.push(kind + ":" + tiles);
          kind = "calls";
        }
        state.steps.push(kind === "win" ? "win" : kind);
        show();
        return;
      }
      if (event.target.closest("[data-picker-undo]")) {
        var last = state.steps.pop();
        if (last === "win") {
          state.win = "";
        } else if (last) {
          state[last].pop();
        }
        show();
      } else if (event.target.closest("[data-picker-clear]")) {
        state = fresh();
        show();
      } else if (event.target.closest("[data-picker-count]")) {
        count();
      }
    });

    function count() {
      var winner = form.querySelector('input[name="w' + index + '_winner"]:checked');
      if (!winner || winner.value === "") {
        result.textContent = say(box, "winner", "Choose the winner first: their seat gives the seat wind.");
        return;
      }
      var windMark = winner.closest("label").querySelector(".wind");
      var params = new URLSearchParams();
      params.set("tiles", state.hand.join("") + state.win);
      params.set("win", state.win);
      params.set("calls", state.calls.join(" "));
      params.set("dora", state.dora.join(""));
      params.set("ura", state.ura.join(""));
      if (withKita) {
        params.set("kita", String(state.kita.length));
      }
      params.set("tsumo", checkedValue("result") === "tsumo" ? "1" : "0");
      params.set("seat_wind", String(WINDS.indexOf(windMark ? windMark.getAttribute("data-wind") : "E")));
      params.set("round_wind", form.getAttribute("data-round-wind") || "0");
      box.querySelectorAll("input[data-condition]").forEach(function (input) {
        params.set(input.value, input.checked ? "1" : "0");
      });
      var riichiPick = form.querySelector('input[name="riichi"][value="' + winner.value + '"]');
      if (riichiPick && riichiPick.checked && params.get("double_riichi") !== "1") {
        params.set("riichi", "1");
      }
      result.textContent = say(box, "counting", "Counting…");
      fetch(url + "?" + params.toString(), { credentials: "same-origin" })
        .then(function (response) {
          return response.json();
        })
        .then(function (answer) {
          if (!answer.ok) {
            result.textContent = answer.error;
            return;
          }
          fill(answer);
          result.textContent = say(box, "counted", "Counted: {text}.", { text: answer.text });
        })
        .catch(function () {
          result.textContent = say(box, "offline", "The hand could not be counted: check the connection and try again.");
        });
    }

    function fill(answer) {
      var help = box.closest("[data-count]");
      var prefix = "w" + index + "_";
      var kind = form.querySelector('input[name="' + prefix + 'hand"][value="' + (answer.open ? "open" : "closed") + '"]');
      if (kind) {
        kind.checked = true;
      }
      form.dispatchEvent(new Event("change"));
      help.querySelectorAll("label[data-yaku] input").forEach(function (input) {
        input.checked = answer.yaku.indexOf(input.value) !== -1;
      });
      // The answer's dora hold the kita: each goes to its own counter.
      var kita = answer.kita || 0;
      var counted = { dora: String(answer.dora - kita), kita: kita ? String(kita) : "" };
      ["dora", "ura", "aka", "kita"].forEach(function (part) {
        var counter = document.getElementById("id_" + prefix + part);
        if (counter) {
          counter.value = counted[part] || "";
        }
      });
      form.dispatchEvent(new Event("change"));
      if (!answer.yakuman && answer.han <= 4) {
        var fu = form.querySelector('input[name="' + prefix + 'fu"][value="' + answer.fu + '"]');
        if (fu) {
          fu.disabled = false;
          fu.checked = true;
          form.dispatchEvent(new Event("change"));
        }
      }
    }

    show();
  }

  // The page draws the picker of the first winner only; each other winner gets a copy of
  // it, made before any is set up, under that winner's number.
  var first = form.querySelector("[data-picker]");
  if (!first) {
    return;
  }
  form.querySelectorAll("[data-count]").forEach(function (help) {
    var index = help.getAttribute("data-count");
    if (help.querySelector("[data-picker]")) {
      return;
    }
    var copy = first.cloneNode(true);
    copy.setAttribute("data-picker", index);
    copy.querySelectorAll('input[name="picker1_mode"]').forEach(function (input) {
      input.name = "picker" + index + "_mode";
    });
    help.querySelector(":scope > summary").after(copy);
  });
  form.querySelectorAll("[data-picker]").forEach(setUp);
})();

// The hand form on the table's phone without the server: when the phone has no network,
// or hands still wait in its outbox (static/js/phone-outbox.js), "Preview" reads the form
// into a record hand (the fields tournaments/forms/hands.py reads), scores it with the
// engine in the browser (static/js/engine.js, the same results as the server's `scoring`)
// on the record kept on the phone, and shows the payments, sticks and the next round;
// "Confirm and save" puts the hand in the outbox and moves the form on to the next hand.
// With a network and an empty outbox the form goes to the server as it always did (the
// server's preview, the page without JavaScript): one way at a time, so that no hand ever
// overtakes one still waiting on the phone.
(function () {
  "use strict";

  var phone = window.TenbouPhone;
  var confirmForm = document.querySelector("[data-offline-confirm-form]");
  var form = document.querySelector("[data-hand-form]") || confirmForm;
  var previewBox = document.querySelector("[data-offline-preview]");
  if (!form || !phone || !form.querySelector('input[name="number"]')) {
    return;
  }
  if (!confirmForm && !previewBox) {
    return;
  }
  var config = phone.config;
  var words = config.words;
  var say = phone.say;
  var WINDS = "ESWN";
  var latest = null; // the phone's state as last read
  var shownPreview = null; // the hand being previewed, and what it pays
  var relabeled = false; // the form shows the phone's record, not the page as served

  function clone(value) {
    return JSON.parse(JSON.stringify(value));
  }

  // A field's chosen values: the ticked buttons of the form, or the hidden fields of the
  // server's confirm page, which carries the form as it was posted.
  function chosen(name) {
    var selector = 'input[name="' + name + '"]';
    return Array.prototype.slice.call(
      form.querySelectorAll(selector + ":checked:not(:disabled), " + selector + '[type="hidden"]')
    );
  }

  function checked(name) {
    var inputs = chosen(name);
    return inputs.length ? inputs[0].value : "";
  }

  function checkedAll(name) {
    return chosen(name)
      .map(function (input) {
        return parseInt(input.value, 10);
      })
      .sort(function (a, b) {
        return a - b;
      });
  }

  function has(name) {
    return !!form.querySelector('[name="' + name + '"]');
  }

  function count(name) {
    var input = form.querySelector('input[name="' + name + '"]');
    if (!input || input.disabled || input.value === "") {
      return null;
    }
    var value = parseInt(input.value, 10);
    return isNaN(value) ? null : value;
  }

  // ---- The form as a record hand -------------------------------------------------------

  function readHand(names) {
    var problems = [];
    var result = checked("result");
    if (!result) {
      return { problems: [words.need_result] };
    }
    var hand = { result: result, riichi: checkedAll("riichi") };
    if (result === "ron" || result === "tsumo") {
      var tsumo = result === "tsumo";
      var loserValue = checked("loser");
      var loser = tsumo || loserValue === "" ? null : parseInt(loserValue, 10);
      if (!tsumo && loser === null) {
        problems.push(words.need_loser);
      }
      var wins = [];
      for (var i = 1; has("w" + i + "_winner"); i += 1) {
        var winnerValue = checked("w" + i + "_winner");
        if (winnerValue === "") {
          if (i === 1) {
            problems.push(words.need_winner);
          }
          continue;
        }
        if (tsumo && i > 1) {
          continue;
        }
        var winner = parseInt(winnerValue, 10);
        var name = names[winner];
        if (wins.some(function (win) { return win.winner === winner; })) {
          problems.push(say(words.twice, { name: name }));
          continue;
        }
        if (winner === loser) {
          problems.push(say(words.win_and_deal_in, { name: name }));
          continue;
        }
        var han = checked("w" + i + "_han");
        if (!han) {
          problems.push(say(words.need_han, { name: name }));
          continue;
        }
        var win = { winner: winner };
        if (!tsumo) {
          win.loser = loser;
        }
        if (han === "Y") {
          win.yakuman = parseInt(checked("w" + i + "_yakuman") || "1", 10);
          var pao = checked("w" + i + "_pao");
          if (pao !== "") {
            win.pao = parseInt(pao, 10);
            var fed = checked("w" + i + "_pao_yakuman");
            if (has("w" + i + "_pao_yakuman") && win.yakuman > 1) {
              win.pao_yakuman = parseInt(fed || "1", 10);
            }
          }
        } else {
          win.han = parseInt(han, 10);
          var fu = checked("w" + i + "_fu");
          if (win.han <= 4 && fu !== "") {
            win.fu = parseInt(fu, 10);
          }
        }
        addStats(win, i);
        wins.push(win);
      }
      hand.wins = wins;
    } else if (result === "draw") {
      hand.tenpai = checkedAll("tenpai");
    } else if (result === "nagashi") {
      hand.nagashi = checkedAll("nagashi");
      hand.tenpai = checkedAll("tenpai");
      if (!hand.nagashi.length) {
        problems.push(words.need_nagashi);
      }
    } else if (result === "abort") {
      hand.reason = checked("reason");
      if (!hand.reason) {
        problems.push(words.need_reason);
      }
    } else {
      var offender = checked("offender");
      if (offender === "") {
        problems.push(words.need_offender);
      }
      hand.offender = parseInt(offender, 10);
    }
    return { hand: hand, problems: problems };
  }

  // The statistics fields the server's form adds (count_yaku's `as_win`): ticked yaku,
  // the dora of every kind together, open or closed, and the kita of a three-player game.
  function addStats(win, i) {
    var prefix = "w" + i + "_";
    var yaku = chosen(prefix + "yaku").map(function (input) {
      return input.value;
    });
    var kind = checked(prefix + "hand");
    var parts = ["dora", "ura", "aka", "kita"].map(function (part) {
      return count(prefix + part);
    });
    if (yaku.length) {
      win.yaku = yaku.filter(function (key, index) {
        return yaku.indexOf(key) === index;
      });
    }
    if (kind) {
      win.open = kind === "open";
    }
    if (parts.some(function (part) { return part !== null; })) {
      win.dora = parts.reduce(function (sum, part) {
        return sum + (part || 0);
      }, 0);
    }
    if (parts[3]) {
      win.kita = parts[3];
    }
  }

  // ---- The game from the phone's record ------------------------------------------------

  // Where the game stands after `record`: the next hand's round, dealer, honba, sticks
  // and scores, or the end of the game (TenbouEngine.replay's state).
  function standing(record) {
    var replayed = phone.engine().replay(record);
    var state = replayed.state;
    return {
      finished: state.finished,
      out: replayed.result,
      round: state.round,
      honba: state.honba,
      dealer: state.dealer,
      sticks: state.sticks,
      scores: state.scores,
    };
  }

  function windOf(seat, dealer, players) {
    return WINDS.charAt((seat - dealer + players) % players);
  }

  // The seat buttons as this hand sits: the dealer (East) first, each with its wind.
  function seatButtons(dealer, players) {
    form.querySelectorAll(".picks").forEach(function (picks) {
      var labels = Array.prototype.slice.call(picks.querySelectorAll("label.pick"));
      if (!labels.some(function (label) { return label.querySelector("small.wind"); })) {
        return;
      }
      labels.forEach(function (label) {
        var small = label.querySelector("small.wind");
        if (!small) {
          return;
        }
        var seat = parseInt(label.querySelector("input").value, 10);
        var wind = windOf(seat, dealer, players);
        small.setAttribute("data-wind", wind);
        small.title = config.wind_names[wind];
        small.textContent = config.winds[wind] + (wind === "E" ? " · " + words.dealer_word : "");
        label.classList.toggle("dealer", wind === "E");
      });
      labels
        .slice()
        .sort(function (a, b) {
          function key(label) {
            var small = label.querySelector("small.wind");
            return small ? WINDS.indexOf(small.getAttribute("data-wind")) : -1;
          }
          return key(a) - key(b);
        })
        .forEach(function (label) {
          picks.appendChild(label);
        });
    });
  }

  function setText(selector, text) {
    var element = document.querySelector(selector);
    if (element) {
      element.textContent = text;
    }
  }

  function showOver(reason) {
    var note = document.querySelector("[data-offline-over]");
    note.textContent = say(words.game_over_here, { why: config.ends[reason] || reason });
    note.hidden = false;
    form.hidden = true;
    // The heading no longer names a next hand: the game has none.
    setText(".game-head h1", words.game_over_title);
    var line = document.querySelector(".game-head .table-line");
    if (line) {
      line.hidden = true;
    }
  }

  // The form for the next hand of the phone's record: number, round, dealer, sticks, seats.
  function relabel(state) {
    relabeled = true;
    var number = state.record.hands.length + 1;
    var at;
    try {
      at = standing(state.record);
    } catch (err) {
      showErrors([engineMessage(err)]);
      return;
    }
    if (at.finished) {
      showOver(at.out.ended_by);
      return;
    }
    // Not over (again, after the table discarded the hands that ended it on the phone).
    document.querySelector("[data-offline-over]").hidden = true;
    form.hidden = false;
    var tableLine = document.querySelector(".game-head .table-line");
    if (tableLine) {
      tableLine.hidden = false;
    }
    var names = state.names;
    form.querySelector('input[name="number"]').value = String(number);
    var heading = say(words.hand, { number: number });
    setText(".game-head h1", heading);
    document.title = document.title.replace(/^[^·]*·/, heading + " ·");
    var line = document.querySelectorAll(".game-head .table-line span");
    if (line.length >= 3) {
      line[0].textContent = phone.roundHonba(at);
      line[1].textContent = say(words.dealer, { dealer: names[at.dealer] });
      line[2].textContent = say(at.sticks === 1 ? words.sticks_one : words.sticks_many, {
        sticks: at.sticks,
      });
    }
    var button = form.querySelector('button[value="preview"]');
    if (button) {
      button.textContent = say(words.preview_hand, { number: number });
    }
    form.setAttribute("data-round-wind", String(WINDS.indexOf(at.round.charAt(0))));
    seatButtons(at.dealer, names.length);
  }

  // ---- Preview and confirm -------------------------------------------------------------

  // The engine's refusal in the page's language: its template and parameters are the
  // Python engine's, translated on the server (words.engine).
  function engineMessage(err) {
    var table = words.engine || {};
    if (!err || !err.template || !table[err.template]) {
      return err && err.message;
    }
    var problem = say(table[err.template], err.params);
    if (err.hand === null || err.hand === undefined) {
      return problem;
    }
    var prefix = table["hand %(number)s: %(problem)s"] || "hand %(number)s: %(problem)s";
    return say(prefix, { number: err.hand, problem: problem });
  }

  function showErrors(problems) {
    var box = form.querySelector("[data-offline-errors]");
    if (!box) {
      box = document.createElement("div");
      box.className = "errors form-errors";
      box.setAttribute("role", "alert");
      box.setAttribute("data-offline-errors", "");
      form.insertBefore(box, form.querySelector(".pick-group"));
    }
    box.textContent = "";
    var list = document.createElement("ul");
    list.className = "errorlist";
    problems.forEach(function (problem) {
      var item = document.createElement("li");
      item.textContent = problem;
      list.appendChild(item);
    });
    box.appendChild(list);
    box.hidden = !problems.length;
    if (problems.length) {
      box.scrollIntoView({ block: "center" });
    }
  }

  function cell(tag, text, className) {
    var element = document.createElement(tag);
    element.textContent = text;
    if (className) {
      element.className = className;
    }
    return element;
  }

  function html(template, values) {
    var safe = {};
    Object.keys(values).forEach(function (key) {
      safe[key] = phone.escapeHtml(values[key]);
    });
    // The template is the page's own translated text; only the values come from the hand.
    return say(template, safe);
  }

  function drawPreview(state, hand, number, report, after) {
    var names = state.names;
    var players = names.length;
    previewBox.querySelector("[data-preview-title]").textContent = say(words.save_hand, { number: number });
    previewBox.querySelector("[data-preview-round]").textContent = phone.roundHonba(report);
    previewBox.querySelector("[data-preview-summary]").textContent = phone.describe(hand, names);
    var body = previewBox.querySelector("tbody");
    body.textContent = "";
    var seats = names.map(function (name, seat) {
      return seat;
    });
    seats.sort(function (a, b) {
      return WINDS.indexOf(windOf(a, report.dealer, players)) - WINDS.indexOf(windOf(b, report.dealer, players));
    });
    seats.forEach(function (seat) {
      var row = document.createElement("tr");
      if (seat === report.dealer) {
        row.className = "dealer";
      }
      var head = document.createElement("th");
      head.scope = "row";
      head.appendChild(cell("span", config.winds[windOf(seat, report.dealer, players)], "wind-badge"));
      head.appendChild(document.createTextNode(" " + names[seat]));
      row.appendChild(head);
      row.appendChild(cell("td", phone.points(report.scores_before[seat]), "number muted before"));
      var change = report.deltas[seat];
      row.appendChild(
        cell("td", phone.delta(change), "number delta " + (change > 0 ? "plus" : change < 0 ? "minus" : "zero"))
      );
      var last = document.createElement("td");
      last.className = "number";
      last.appendChild(cell("b", phone.points(report.scores_after[seat])));
      row.appendChild(last);
      body.appendChild(row);
    });
    previewBox.querySelector("[data-preview-riichi]").textContent = hand.riichi.length
      ? say(words.riichi_of, {
          names: hand.riichi
            .map(function (seat) {
              return names[seat];
            })
            .join(words.list_sep),
        })
      : words.no_riichi;
    previewBox.querySelector("[data-preview-sticks]").textContent = say(words.sticks_line, {
      sticks_before: report.sticks_before,
      sticks_after: report.sticks_after,
    });
    var next = previewBox.querySelector("[data-preview-next]");
    var ends = previewBox.querySelector("[data-preview-ends]");
    next.hidden = after.finished;
    ends.hidden = !after.finished;
    if (after.finished) {
      var out = after.out;
      ends.innerHTML = html(words.ends, { ends: config.ends[out.ended_by] || out.ended_by });
      var final = document.createElement("p");
      final.className = "final-line";
      final.textContent =
        words.final_scores +
        ": " +
        names
          .map(function (name, seat) {
            return name + " " + phone.points(out.final_scores[seat]);
          })
          .join(words.list_sep);
      ends.appendChild(final);
    } else {
      next.innerHTML = html(words.next, {
        round: phone.roundHonba(after),
        dealer: names[after.dealer],
      });
    }
    form.hidden = true;
    previewBox.hidden = false;
    window.scrollTo(0, 0);
    previewBox.querySelector("[data-offline-confirm]").focus();
  }

  function preview() {
    return phone.current().then(function (state) {
      latest = state;
      if (!state) {
        showErrors([words.engine_missing]);
        return;
      }
      var read = readHand(state.names);
      if (read.problems.length) {
        showErrors(read.problems);
        return;
      }
      showErrors([]);
      var record = clone(state.record);
      record.hands.push(read.hand);
      var number = record.hands.length;
      var out;
      var after;
      try {
        out = phone.engine().score(record);
        after = standing(record);
      } catch (err) {
        showErrors([say(words.refused_by_rules, { reason: engineMessage(err) })]);
        return;
      }
      var report = out.hands[number - 1];
      shownPreview = { hand: read.hand, number: number, scores: report.scores_after };
      drawPreview(state, read.hand, number, report, after);
    });
  }

  function backToForm() {
    previewBox.hidden = true;
    form.hidden = false;
    shownPreview = null;
  }

  function clearForm() {
    // The page's own first choices (none for a new hand; x1 for a yakuman multiple).
    form.reset();
    form.querySelectorAll("details[data-win]").forEach(function (details) {
      details.open = false;
    });
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function confirmHand() {
    if (!shownPreview) {
      return;
    }
    var button = previewBox.querySelector("[data-offline-confirm]");
    button.disabled = true;
    var shown = shownPreview;
    phone
      .enqueue(shown.hand, shown.scores, shown.number)
      .then(function () {
        var saved = document.querySelector("[data-offline-saved]");
        saved.textContent = say(words.saved_here, { number: shown.number });
        saved.hidden = false;
        backToForm();
        clearForm();
        return phone.current().then(function (state) {
          latest = state;
          relabel(state);
          window.scrollTo(0, 0);
        });
      })
      .catch(function (err) {
        backToForm();
        showErrors([err.message]);
      })
      .then(function () {
        button.disabled = false;
      });
  }

  // The server's confirm page, its network gone before "Confirm and save": the hand goes
  // to the outbox under the entry id the page holds, and the phone's form comes next.
  if (confirmForm) {
    confirmForm.addEventListener("submit", function (event) {
      var submitter = event.submitter;
      if (navigator.onLine || (submitter && submitter.value !== "save")) {
        return;
      }
      event.preventDefault();
      phone.current().then(function (state) {
        var read = state && readHand(state.names);
        if (!read || read.problems.length) {
          return;
        }
        var record = clone(state.record);
        record.hands.push(read.hand);
        var number = record.hands.length;
        var scores = phone.engine().score(record).hands[number - 1].scores_after;
        var entry = confirmForm.querySelector('input[name="entry"]');
        return phone
          .enqueue(read.hand, scores, parseInt(checked("number"), 10), entry ? entry.value : "")
          .then(function () {
            window.location.assign(config.form);
          });
      }).catch(function (err) {
        var note = document.createElement("p");
        note.className = "message error";
        note.setAttribute("role", "alert");
        note.textContent = err.message;
        confirmForm.parentNode.insertBefore(note, confirmForm);
      });
    });
    return;
  }

  // Whether this hand is entered on the phone: without network, or behind hands that wait.
  function onThePhone() {
    return !navigator.onLine || (latest && latest.pending > 0);
  }

  form.addEventListener("submit", function (event) {
    var submitter = event.submitter;
    if (submitter && submitter.value !== "preview") {
      return;
    }
    if (!onThePhone()) {
      return; // the server's preview, as without this file
    }
    event.preventDefault();
    preview();
  });
  previewBox.querySelector("[data-offline-confirm]").addEventListener("click", confirmHand);
  previewBox.querySelector("[data-offline-change]").addEventListener("click", backToForm);

  function refresh() {
    return phone.current().then(function (state) {
      latest = state;
      if (!state || state.stopped) {
        return;
      }
      // Online with nothing waiting, the page is the server's own, fresh (unless the phone
      // has moved it on already); otherwise it may come from the phone's cache (an older
      // hand) or lag behind the outbox.
      if ((onThePhone() || relabeled) && previewBox.hidden) {
        relabel(state);
      }
    });
  }

  phone.onChange(function () {
    refresh();
  });
  window.addEventListener("offline", refresh);
  if (phone.ready) {
    phone.ready.then(refresh);
  }
})();

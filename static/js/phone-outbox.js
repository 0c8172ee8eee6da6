// The table's phone: the web app's service worker, the game's record kept on the phone,
// and the outbox of hands entered here (IndexedDB, so that they outlive a reload, a locked
// screen and a closed tab). A hand confirmed on the phone gets an entry id made here and
// waits in the outbox ("saved on this phone") until the server acknowledges it ("sent").
// Hands go one at a time and in order: hand N+1 only after hand N was acknowledged; a lost
// answer is sent again with the same entry id and the server answers "already". A conflict
// (409) or a refusal (422) stops the sending and shows the table both versions; nothing is
// merged or dropped without the table's tap. Only this page's game: the outbox holds the
// entries of other games apart and never sends them from here.
(function () {
  "use strict";

  var configElement = document.getElementById("tenbou-phone");
  if (!configElement || !window.indexedDB) {
    return;
  }
  var config = JSON.parse(configElement.textContent);
  var words = config.words;
  var GAME = config.game;
  var DB_NAME = "tenbou-phone";
  var FIRST_WAIT = 1000;
  var LONGEST_WAIT = 60000;
  // Entries still to reach the server, or stopped on their way there.
  var PENDING = ["waiting", "conflict", "refused", "kept"];
  // Sent entries shown in the list; older ones are forgotten.
  var SENT_SHOWN = 12;
  // The games whose records the phone keeps (see forgetOldGames).
  var GAMES_KEPT = 20;
  var UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

  // ---- Words -------------------------------------------------------------------------

  function say(template, values) {
    return String(template).replace(/%\((\w+)\)s/g, function (whole, name) {
      return values && name in values ? String(values[name]) : whole;
    });
  }

  function escapeHtml(text) {
    return String(text)
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;");
  }

  function winValue(win) {
    if (win.yakuman != null) {
      return words.yakuman[String(win.yakuman)] || win.yakuman + "× yakuman";
    }
    if (win.fu != null && win.han <= 4) {
      return say(words.han_fu, { han: win.han, fu: win.fu });
    }
    return say(words.han, { han: win.han });
  }

  function describe(hand, names) {
    function who(seats) {
      return seats
        .map(function (seat) {
          return names[seat];
        })
        .join(words.list_sep);
    }
    var wins = hand.wins || [];
    switch (hand.result) {
      case "ron":
        if (wins.length === 1) {
          return say(words.ron, {
            winner: names[wins[0].winner],
            loser: names[wins[0].loser],
            value: winValue(wins[0]),
          });
        }
        return say(wins.length === 2 ? words.multi_ron : words.triple_ron, {
          loser: names[wins[0].loser],
          wins: wins
            .map(function (win) {
              return say(words.winner_value, { winner: names[win.winner], value: winValue(win) });
            })
            .join(words.list_sep),
        });
      case "tsumo":
        return say(words.tsumo, { winner: names[wins[0].winner], value: winValue(wins[0]) });
      case "draw":
        if (!hand.tenpai.length) {
          return words.draw_noten;
        }
        if (hand.tenpai.length === names.length) {
          return words.draw_tenpai;
        }
        return say(words.draw, { players: who(hand.tenpai) });
      case "nagashi":
        return say(words.nagashi, { players: who(hand.nagashi) });
      case "abort":
        var reason = words.reasons[hand.reason] || hand.reason;
        return say(words.abort, { reason: reason.charAt(0).toLowerCase() + reason.slice(1) });
      default:
        return say(words.chombo, { player: names[hand.offender] });
    }
  }

  function roundHonba(report) {
    return say(words.round_honba, {
      round: config.rounds[report.round] || report.round,
      honba: report.honba,
    });
  }

  // As tournaments/wording/formatting.py writes points: 25,000 and −1,500.
  function points(value) {
    var number = Number(value);
    var text = Math.abs(number).toLocaleString("en-US");
    return number < 0 ? "−" + text : text;
  }

  function delta(value) {
    if (value > 0) {
      return "+" + points(value);
    }
    if (value < 0) {
      return "−" + points(-value);
    }
    return "0";
  }

  // ---- The database ------------------------------------------------------------------

  var dbPromise = null;

  function openDb() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var request = indexedDB.open(DB_NAME, 1);
        request.onupgradeneeded = function () {
          var db = request.result;
          db.createObjectStore("games", { keyPath: "game" });
          var outbox = db.createObjectStore("outbox", { keyPath: "entry" });
          outbox.createIndex("game", "game");
        };
        request.onsuccess = function () {
          resolve(request.result);
        };
        request.onerror = function () {
          reject(request.error);
        };
      });
    }
    return dbPromise;
  }

  function transact(stores, mode, work) {
    return openDb().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(stores, mode);
        var result;
        tx.oncomplete = function () {
          resolve(result);
        };
        tx.onerror = tx.onabort = function () {
          reject(tx.error);
        };
        result = work(tx);
      });
    });
  }

  function asked(request) {
    return new Promise(function (resolve, reject) {
      request.onsuccess = function () {
        resolve(request.result);
      };
      request.onerror = function () {
        reject(request.error);
      };
    });
  }

  function readAll() {
    var out = {};
    return transact(["games", "outbox"], "readonly", function (tx) {
      asked(tx.objectStore("games").get(GAME)).then(function (game) {
        out.game = game || null;
      });
      asked(tx.objectStore("outbox").index("game").getAll(GAME)).then(function (entries) {
        out.entries = entries.sort(function (a, b) {
          return a.number - b.number || a.made - b.made;
        });
      });
    }).then(function () {
      return out;
    });
  }

  function putGame(game) {
    return transact(["games"], "readwrite", function (tx) {
      tx.objectStore("games").put(game);
    });
  }

  function putEntry(entry, game) {
    return transact(["games", "outbox"], "readwrite", function (tx) {
      tx.objectStore("outbox").put(entry);
      if (game) {
        tx.objectStore("games").put(game);
      }
    });
  }

  function deleteEntries(entries, game) {
    return transact(["games", "outbox"], "readwrite", function (tx) {
      entries.forEach(function (entry) {
        tx.objectStore("outbox").delete(entry.entry);
      });
      if (game) {
        tx.objectStore("games").put(game);
      }
    });
  }

  // ---- The game as the phone knows it -------------------------------------------------

  function pendingOf(entries) {
    return entries.filter(function (entry) {
      return PENDING.indexOf(entry.state) !== -1;
    });
  }

  // The server's record as last seen, followed by the hands waiting on the phone.
  function localRecord(game, entries) {
    var record = JSON.parse(JSON.stringify(game.record));
    record.hands = (record.hands || []).concat(
      pendingOf(entries).map(function (entry) {
        return entry.hand;
      })
    );
    return record;
  }

  function engine() {
    if (!window.TenbouEngine || !window.TenbouEngine.score) {
      throw new Error(words.engine_missing);
    }
    return window.TenbouEngine;
  }

  function fetchRecord() {
    return fetch(config.record, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("record " + response.status);
        }
        return response.json();
      })
      .then(function (answer) {
        var game = {
          game: GAME,
          record: answer.record,
          changed: answer.changed,
          status: answer.status,
          entries: answer.entries || [],
          names: answer.names || answer.record.players,
          fetched: Date.now(),
        };
        return putGame(game)
          .then(forgetOldGames)
          .then(function () {
            return game;
          });
      });
  }

  // ---- Sending -----------------------------------------------------------------------

  var sending = false;
  var anySent = false;
  var accessLost = false; // the server no longer knows this phone as the table's
  var wait = FIRST_WAIT;
  var timer = null;
  var listeners = [];

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) {
      return decodeURIComponent(match[1]);
    }
    var input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }

  function later() {
    if (timer) {
      clearTimeout(timer);
    }
    // A little jitter, so that the phones of a room do not all retry at once.
    var delay = wait + Math.floor(Math.random() * 250);
    wait = Math.min(wait * 2, LONGEST_WAIT);
    timer = setTimeout(flush, delay);
  }

  // Back online or back on screen: send now, and read the server's record again when
  // nothing waits (a hand saved through the server's own form meanwhile is then known).
  function soon() {
    wait = FIRST_WAIT;
    accessLost = false;
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    readAll()
      .then(function (state) {
        if (navigator.onLine && !pendingOf(state.entries).length) {
          return fetchRecord().catch(function () {});
        }
      })
      .then(flush);
  }

  function post(entry, game, waitingAfter) {
    return fetch(config.sync, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": csrfToken(),
      },
      body: JSON.stringify({
        entry: entry.entry,
        kind: "add",
        number: entry.number,
        hand: entry.hand,
        scores: entry.scores,
        based_on: game.changed,
        waiting: waitingAfter,
      }),
    }).then(function (response) {
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      return (json ? response.json() : Promise.resolve(null))
        .catch(function () {
          return null;
        })
        .then(function (answer) {
          // Not an answer of the sync at all: the login page or a refusal page, because
          // the phone's session (which holds the table link) ended or the link was revoked.
          var lost = !answer && (response.redirected || response.status === 403 || response.status === 404);
          return { status: response.status, answer: answer || {}, lost: lost };
        });
    });
  }

  // Tells the server how many hands the phone holds back (the director's pages show it),
  // when a conflict stopped the sending or the table kept or discarded its hands.
  function report() {
    if (!navigator.onLine) {
      return Promise.resolve();
    }
    return readAll()
      .then(function (state) {
        return fetch(config.sync, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
          body: JSON.stringify({ kind: "status", waiting: pendingOf(state.entries).length }),
        });
      })
      .catch(function () {
        // Told with the next hand sent instead.
      });
  }

  // Sends the waiting hands, first to last, until one is not acknowledged.
  function flush() {
    if (sending) {
      return Promise.resolve();
    }
    sending = true;
    anySent = false;
    return step()
      .catch(function () {
        later();
      })
      .then(function () {
        sending = false;
        if (anySent) {
          freshBoard();
        }
        return render();
      });
  }

  // The game page's board (scores, round, hands), read again once hands have arrived,
  // rather than at its next poll.
  function freshBoard() {
    var board = document.getElementById("game-live");
    if (board && window.htmx) {
      window.htmx.ajax("GET", window.location.pathname, {
        target: "#game-live",
        select: "#game-live",
        swap: "outerHTML",
      });
    }
  }

  function step() {
    return readAll().then(function (state) {
      var pending = pendingOf(state.entries);
      if (!pending.length || !state.game) {
        wait = FIRST_WAIT;
        return;
      }
      if (accessLost) {
        return; // until the link is opened again (a new page) or the network comes back
      }
      var entry = pending[0];
      if (entry.state !== "waiting") {
        return; // stopped at a conflict or a refusal: the table decides
      }
      if (!navigator.onLine) {
        later();
        return;
      }
      entry.attempts = (entry.attempts || 0) + 1;
      showSending(entry);
      var takeBack = document.querySelector("[data-phone-take-back]");
      if (takeBack) {
        takeBack.hidden = true;
      }
      return post(entry, state.game, pending.length - 1).then(function (sent) {
        var answer = sent.answer;
        var game = state.game;
        if (sent.status === 200 && (answer.status === "saved" || answer.status === "already")) {
          wait = FIRST_WAIT;
          entry.state = "sent";
          entry.sent = Date.now();
          if (answer.record) {
            game.record = answer.record;
          }
          if (answer.changed) {
            game.changed = answer.changed;
          }
          anySent = true;
          return putEntry(entry, game)
            .then(forgetOldSent)
            .then(step);
        }
        if (sent.lost) {
          // The hands stay as they are, waiting, until the link is opened again.
          accessLost = true;
          return putEntry(entry);
        }
        // 409: the game changed (or was locked or finished); 422: the hand is refused.
        if (sent.status === 409 || sent.status === 422) {
          entry.state = sent.status === 422 ? "refused" : "conflict";
          entry.message = answer.message || "";
          entry.gameStatus = answer.game_status || "";
          if (answer.record) {
            game.server = { record: answer.record, changed: answer.changed };
          }
          return putEntry(entry, game).then(report);
        }
        // Anything else (the server down, a proxy's error page): tried again later.
        later();
        return putEntry(entry);
      });
    });
  }

  // A phone used at many events keeps the records of its latest games only; a game whose
  // hands still wait on the phone is never forgotten.
  function forgetOldGames() {
    return transact(["games", "outbox"], "readwrite", function (tx) {
      var games = tx.objectStore("games");
      var outbox = tx.objectStore("outbox");
      asked(games.getAll()).then(function (all) {
        all
          .sort(function (a, b) {
            return b.fetched - a.fetched;
          })
          .slice(GAMES_KEPT)
          .forEach(function (old) {
            asked(outbox.index("game").getAll(old.game)).then(function (entries) {
              if (pendingOf(entries).length) {
                return;
              }
              entries.forEach(function (entry) {
                outbox.delete(entry.entry);
              });
              games.delete(old.game);
            });
          });
      });
    });
  }

  function forgetOldSent() {
    return readAll().then(function (state) {
      var sent = state.entries.filter(function (entry) {
        return entry.state === "sent";
      });
      if (sent.length > SENT_SHOWN) {
        return deleteEntries(sent.slice(0, sent.length - SENT_SHOWN));
      }
    });
  }

  // ---- What the page shows -----------------------------------------------------------

  function showSending(entry) {
    var item = document.querySelector('[data-phone-entry="' + entry.entry + '"] [data-phone-state]');
    if (item) {
      item.textContent = words.sending;
    }
  }

  function stateWord(entry) {
    return words[entry.state] || entry.state;
  }

  function renderList(state, names) {
    var box = document.querySelector("[data-phone-outbox]");
    if (!box) {
      return;
    }
    var list = box.querySelector("[data-phone-list]");
    var status = box.querySelector("[data-phone-status]");
    var entries = state.entries;
    box.hidden = !entries.length && navigator.onLine;
    list.textContent = "";
    entries.forEach(function (entry) {
      var item = document.createElement("li");
      item.setAttribute("data-phone-entry", entry.entry);
      item.className = "outbox-" + entry.state;
      var what = document.createElement("span");
      what.textContent = say(words.hand, { number: entry.number }) + " · " + describe(entry.hand, names);
      var how = document.createElement("b");
      how.setAttribute("data-phone-state", "");
      how.textContent = stateWord(entry);
      item.appendChild(what);
      item.appendChild(document.createTextNode(" "));
      item.appendChild(how);
      list.appendChild(item);
    });
    var waiting = pendingOf(entries).length;
    var lines = [];
    if (!navigator.onLine) {
      lines.push(words.offline);
    } else if (accessLost && pendingOf(entries).length) {
      lines.push(words.link_lost);
    }
    if (waiting) {
      lines.push(say(waiting === 1 ? words.waiting_count_one : words.waiting_count_many, { count: waiting }));
    } else if (entries.length) {
      lines.push(words.all_sent);
    }
    status.textContent = lines.join(" ");
    // The last hand still waiting can be taken back (a tap on the wrong seat) while no
    // request is on its way: it has not reached the server, and now it never will.
    var takeBack = box.querySelector("[data-phone-take-back]");
    var pending = pendingOf(entries);
    var last = pending[pending.length - 1];
    takeBack.hidden = !last || last.state !== "waiting" || sending;
    if (last) {
      takeBack.textContent = say(words.take_back, { number: last.number });
      takeBack.setAttribute("data-entry", last.entry);
    }
  }

  function takeBackLast() {
    var button = document.querySelector("[data-phone-take-back]");
    var wanted = button.getAttribute("data-entry");
    if (sending) {
      return Promise.resolve();
    }
    return readAll().then(function (state) {
      var pending = pendingOf(state.entries);
      var last = pending[pending.length - 1];
      if (!last || last.entry !== wanted || last.state !== "waiting" || sending) {
        return render();
      }
      return deleteEntries([last]).then(render);
    });
  }

  function handsTable(record, names, title) {
    var section = document.createElement("section");
    section.className = "conflict-side";
    var heading = document.createElement("h3");
    heading.textContent = title;
    section.appendChild(heading);
    var list = document.createElement("ol");
    list.className = "conflict-hands";
    var result = null;
    try {
      result = engine().score(record);
    } catch (err) {
      result = null;
    }
    (record.hands || []).forEach(function (hand, index) {
      var item = document.createElement("li");
      var report = result && result.hands[index];
      item.textContent =
        say(words.hand, { number: index + 1 }) +
        (report ? " (" + roundHonba(report) + ")" : "") +
        " · " +
        describe(hand, names);
      list.appendChild(item);
    });
    if (!(record.hands || []).length) {
      var none = document.createElement("li");
      none.textContent = words.no_hands;
      list.appendChild(none);
    }
    section.appendChild(list);
    if (result && result.hands.length) {
      var last = result.hands[result.hands.length - 1];
      var scores = document.createElement("p");
      scores.className = "conflict-scores";
      scores.textContent = names
        .map(function (name, seat) {
          return name + " " + points(last.scores_after[seat]);
        })
        .join(words.list_sep);
      section.appendChild(scores);
    }
    return section;
  }

  function renderConflict(state, names) {
    var screen = document.querySelector("[data-phone-conflict]");
    if (!screen) {
      return false;
    }
    var pending = pendingOf(state.entries);
    var stopped = pending.filter(function (entry) {
      return entry.state !== "waiting";
    });
    var form = document.querySelector("[data-hand-form]");
    var preview = document.querySelector("[data-offline-preview]");
    if (!stopped.length) {
      screen.hidden = true;
      return false;
    }
    var first = pending[0];
    screen.hidden = false;
    var saved = document.querySelector("[data-offline-saved]");
    if (saved) {
      saved.hidden = true;
    }
    if (form) {
      form.hidden = true;
    }
    if (preview) {
      preview.hidden = true;
    }
    screen.querySelector("[data-conflict-title]").textContent =
      first.state === "refused" ? say(words.refused_title, { number: first.number }) : words.conflict_title;
    var message = screen.querySelector("[data-conflict-message]");
    // The game's state as the server answered, besides the reason it gave.
    var status = { locked: words.locked, finished: words.finished }[first.gameStatus];
    var text = [first.message, status].filter(Boolean).join(" ");
    message.textContent = text;
    message.hidden = !text;
    screen.querySelector("[data-conflict-help]").textContent =
      first.state === "kept" ? words.kept_help : words.conflict_help;
    var sides = screen.querySelector("[data-conflict-sides]");
    sides.textContent = "";
    var server = (state.game.server && state.game.server.record) || state.game.record;
    sides.appendChild(handsTable(server, names, words.server_version));
    var phone = localRecord(state.game, state.entries);
    var phoneSide = handsTable(phone, names, words.phone_version);
    // Only the phone's own hands are marked as such: the earlier ones are the server's.
    var base = (state.game.record.hands || []).length;
    phoneSide.querySelectorAll("li").forEach(function (item, index) {
      if (index >= base) {
        item.classList.add("phone-only");
      }
    });
    sides.appendChild(phoneSide);
    screen.querySelector("[data-conflict-keep]").hidden = first.state === "kept";
    screen.querySelector("[data-conflict-sure]").hidden = true;
    return true;
  }

  function render() {
    return readAll().then(function (state) {
      if (!state.game) {
        renderList({ entries: state.entries }, []);
        return state;
      }
      var names = state.game.names || state.game.record.players;
      renderList(state, names);
      var stopped = renderConflict(state, names);
      listeners.forEach(function (listener) {
        listener(state, stopped);
      });
      return state;
    });
  }

  function discard() {
    return readAll().then(function (state) {
      var game = state.game;
      if (game.server) {
        game.record = game.server.record;
        game.changed = game.server.changed;
        delete game.server;
      }
      return deleteEntries(pendingOf(state.entries), game)
        .then(function () {
          // The server's version, fresh, when there is a network.
          return navigator.onLine ? fetchRecord().catch(function () {}) : null;
        })
        .then(function () {
          var screen = document.querySelector("[data-phone-conflict]");
          var form = document.querySelector("[data-hand-form]");
          if (screen) {
            screen.hidden = true;
          }
          if (form) {
            form.hidden = false;
          }
          report();
          return render();
        });
    });
  }

  function keep() {
    return readAll().then(function (state) {
      var stopped = pendingOf(state.entries);
      return transact(["outbox"], "readwrite", function (tx) {
        stopped.forEach(function (entry) {
          entry.state = "kept";
          tx.objectStore("outbox").put(entry);
        });
      })
        .then(report)
        .then(render);
    });
  }

  function wireButtons() {
    var takeBack = document.querySelector("[data-phone-take-back]");
    if (takeBack) {
      takeBack.addEventListener("click", takeBackLast);
    }
    wireConflictButtons();
  }

  function wireConflictButtons() {
    var screen = document.querySelector("[data-phone-conflict]");
    if (!screen) {
      return;
    }
    var sure = screen.querySelector("[data-conflict-sure]");
    screen.querySelector("[data-conflict-discard]").addEventListener("click", function () {
      sure.hidden = false;
      sure.querySelector("button").focus();
    });
    sure.querySelector("[data-conflict-discard-yes]").addEventListener("click", discard);
    sure.querySelector("[data-conflict-discard-no]").addEventListener("click", function () {
      sure.hidden = true;
    });
    screen.querySelector("[data-conflict-keep]").addEventListener("click", keep);
  }

  // ---- Entering a hand ---------------------------------------------------------------

  // Puts a confirmed hand in the outbox; `expected` is the number the form showed, so a
  // form left open in a second tab cannot put a second hand under the same number.
  // `entryId`: the id the server's confirm page already holds for this hand, if any (a save
  // of it that got no answer then meets the same id, and the server answers "already").
  function enqueue(hand, scores, expected, entryId) {
    return readAll().then(function (state) {
      if (!state.game) {
        throw new Error(words.engine_missing);
      }
      var pending = pendingOf(state.entries);
      if (pending.length >= config.most) {
        throw new Error(say(words.full, { most: config.most }));
      }
      var number = localRecord(state.game, state.entries).hands.length + 1;
      if (expected && number !== expected) {
        throw new Error(say(words.saved_here, { number: number - 1 }));
      }
      var entry = {
        entry: UUID.test(entryId || "") ? entryId.toLowerCase() : window.crypto.randomUUID(),
        game: GAME,
        number: number,
        hand: hand,
        scores: scores,
        state: "waiting",
        made: Date.now(),
      };
      return putEntry(entry).then(function () {
        soon();
        return entry;
      });
    });
  }

  // The game as the phone knows it now: the record with the waiting hands, and whether
  // the table must first settle a conflict.
  function current() {
    return readAll().then(function (state) {
      if (!state.game) {
        return null;
      }
      return {
        record: localRecord(state.game, state.entries),
        names: state.game.names || state.game.record.players,
        pending: pendingOf(state.entries).length,
        stopped: pendingOf(state.entries).some(function (entry) {
          return entry.state !== "waiting";
        }),
        status: state.game.status,
      };
    });
  }

  window.TenbouPhone = {
    config: config,
    say: say,
    escapeHtml: escapeHtml,
    describe: describe,
    roundHonba: roundHonba,
    points: points,
    delta: delta,
    engine: engine,
    current: current,
    enqueue: enqueue,
    flush: soon,
    onChange: function (listener) {
      listeners.push(listener);
    },
    ready: null,
  };

  // ---- Start -------------------------------------------------------------------------

  function registerWorker() {
    if (!("serviceWorker" in navigator)) {
      return Promise.resolve();
    }
    return navigator.serviceWorker
      .register(config.worker)
      .then(function () {
        return navigator.serviceWorker.ready;
      })
      .then(function () {
        // The first visit: the page is the worker's once it claims it (activate).
        if (navigator.serviceWorker.controller) {
          return null;
        }
        return new Promise(function (resolve) {
          navigator.serviceWorker.addEventListener("controllerchange", resolve);
          setTimeout(resolve, 10000);
        });
      })
      .catch(function () {
        // Without a worker the phone still keeps its outbox; only a reload needs network.
      });
  }

  function start() {
    wireButtons();
    window.addEventListener("online", soon);
    window.addEventListener("offline", render);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") {
        soon();
      }
    });
    var worker = registerWorker();
    // The server's record, fresh, unless hands wait on the phone: those were entered on
    // top of the record the phone has, which must stay as it was to catch a conflict.
    var record = readAll().then(function (state) {
      if (pendingOf(state.entries).length && state.game) {
        return state.game;
      }
      return fetchRecord().catch(function () {
        return state.game;
      });
    });
    window.TenbouPhone.ready = Promise.all([worker, record]).then(function () {
      document.documentElement.setAttribute("data-phone-ready", "1");
      return render();
    });
    window.TenbouPhone.ready.then(function () {
      return flush();
    });
  }

  start();
})();

// "Count it for me" on the hand form: adds up the ticked yaku and dora, and fills the han,
// fu and yakuman picks below. The server counts the same ticks again on preview and refuses
// what no hand can hold; this file only saves taps.
(function () {
  "use strict";

  var form = document.querySelector("[data-hand-form]");
  if (!form) {
    return;
  }

  function checked(name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : "";
  }

  function pick(name, value) {
    var input = form.querySelector('input[name="' + name + '"][value="' + value + '"]');
    if (input && !input.checked) {
      input.checked = true;
      return true;
    }
    return false;
  }

  // The words come from the page (data-say-* of the total line), in its language.
  function say(element, key, english, values) {
    var text = element.getAttribute("data-say-" + key) || english;
    Object.keys(values || {}).forEach(function (name) {
      text = text.split("{" + name + "}").join(String(values[name]));
    });
    return text;
  }

  function number(id) {
    var input = document.getElementById(id);
    var value = input ? parseInt(input.value, 10) : 0;
    return isNaN(value) || value < 0 ? 0 : value;
  }

  function count(box) {
    var i = box.getAttribute("data-count");
    var prefix = "w" + i + "_";
    var kind = checked(prefix + "hand");
    var isOpen = kind === "open";
    var tsumo = checked("result") === "tsumo";
    var han = 0;
    var yakuman = 0;
    var keys = [];
    box.querySelectorAll("label[data-yaku]").forEach(function (label) {
      var input = label.querySelector("input");
      var closedOnly = label.getAttribute("data-open") === "";
      // An open hand cannot hold a closed-only yaku: it is greyed out and unticked.
      input.disabled = isOpen && closedOnly;
      if (input.disabled) {
        input.checked = false;
      }
      if (!input.checked) {
        return;
      }
      keys.push(label.getAttribute("data-yaku"));
      yakuman += parseInt(label.getAttribute("data-yakuman"), 10);
      han += parseInt(label.getAttribute(isOpen ? "data-open" : "data-closed"), 10) || 0;
    });
    var total = box.querySelector("[data-count-total]");
    if (!keys.length) {
      total.textContent = "";
      return false;
    }
    var changed = false;
    if (!kind) {
      total.textContent = say(total, "kind", "Choose Closed or Open.");
      return false;
    }
    if (yakuman) {
      changed = pick(prefix + "han", "Y") || changed;
      changed = pick(prefix + "yakuman", String(Math.min(yakuman, 6))) || changed;
      total.textContent = yakuman === 1
        ? say(total, "yakuman", "Counted: yakuman")
        : say(total, "yakumans", "Counted: ×{count} yakuman", { count: yakuman });
      return changed;
    }
    // Kita (Norths set aside, three-player games) count as dora; the counter is absent
    // at four players and counts 0.
    var dora = number("id_" + prefix + "dora") + number("id_" + prefix + "ura") +
      number("id_" + prefix + "aka") + number("id_" + prefix + "kita");
    han += dora;
    changed = pick(prefix + "han", String(Math.min(han, 13))) || changed;
    var fu = "";
    if (keys.indexOf("chiitoitsu") !== -1) {
      fu = "25";
    } else if (keys.indexOf("pinfu") !== -1 && !isOpen && checked("result")) {
      fu = tsumo ? "20" : "30";
    }
    if (fu && han <= 4) {
      changed = pick(prefix + "fu", fu) || changed;
    }
    var text = say(total, "han", "Counted: {han} han", { han: han });
    if (dora) {
      text += " " + say(total, "dora", "({dora} dora)", { dora: dora });
    }
    if (han <= 4) {
      text += " · " + (fu ? say(total, "fu", "{fu} fu", { fu: fu }) : say(total, "no-fu", "now choose the fu"));
    }
    total.textContent = text;
    return changed;
  }

  function update(event) {
    var changed = false;
    form.querySelectorAll("[data-count]").forEach(function (box) {
      changed = count(box) || changed;
    });
    // Let the form show the fu that the new han allows (hand-entry.js listens for change).
    if (changed && event && event.type !== "synthetic") {
      form.dispatchEvent(new Event("change"));
    }
  }

  form.querySelectorAll("[data-fu-shortcuts]").forEach(function (row) {
    row.hidden = false;
  });

  form.addEventListener("click", function (event) {
    var step = event.target.closest("button[data-step]");
    if (step) {
      var input = document.getElementById(step.getAttribute("data-for"));
      var value = (parseInt(input.value, 10) || 0) + parseInt(step.getAttribute("data-step"), 10);
      input.value = String(Math.max(0, value));
      update({ type: "click" });
      return;
    }
    var shortcut = event.target.closest("button[data-fu]");
    if (shortcut) {
      var box = shortcut.closest("[data-count]");
      var name = "w" + box.getAttribute("data-count") + "_fu";
      var radio = form.querySelector('input[name="' + name + '"][value="' + shortcut.getAttribute("data-fu") + '"]');
      if (radio && !radio.disabled) {
        radio.checked = true;
        form.dispatchEvent(new Event("change"));
      }
    }
  });

  var busy = false;
  form.addEventListener("change", function () {
    if (busy) {
      return;
    }
    busy = true;
    update({ type: "change" });
    busy = false;
  });
  form.addEventListener("input", function (event) {
    if (event.target.classList.contains("counter-input")) {
      update({ type: "input" });
    }
  });
  update({ type: "synthetic" });
})();

// Hand entry: show only the sections that belong to the chosen result, and only the fu
// that the chosen han allows. The form works without this file; hidden inputs are
// disabled so that they are not posted and cannot contradict what is shown.
(function () {
  "use strict";

  var form = document.querySelector("[data-hand-form]");
  if (!form) {
    return;
  }
  // Sections now come and go with the result, so their "(ron, tsumo)" notes can go.
  form.classList.add("js");

  function checked(name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : "";
  }

  function show(element, on) {
    element.hidden = !on;
    element.querySelectorAll("input").forEach(function (input) {
      input.disabled = !on;
    });
  }

  // The rules of scoring.payouts.check_value, for hands up to 4 han.
  function fuPossible(han, fu, tsumo) {
    if (fu === 20 && (!tsumo || han === 1)) {
      return false;
    }
    if (fu === 25 && (han === 1 || (han === 2 && tsumo))) {
      return false;
    }
    return true;
  }

  function updateWin(win, on, tsumo) {
    var index = win.getAttribute("data-win");
    var han = checked("w" + index + "_han");
    var yakuman = han === "Y";
    var hanNumber = parseInt(han, 10);
    var needsFu = !yakuman && !(hanNumber >= 5);
    win.querySelectorAll('[data-needs="fu"]').forEach(function (group) {
      show(group, on && needsFu);
      if (!on || !needsFu) {
        return;
      }
      group.querySelectorAll("input").forEach(function (input) {
        var fu = parseInt(input.value, 10);
        // Before the han is chosen, only what no han allows is left out: 20 fu on a ron.
        var ok = hanNumber ? fuPossible(hanNumber, fu, tsumo) : tsumo || fu !== 20;
        input.disabled = !ok;
        input.closest(".pick").hidden = !ok;
        if (!ok) {
          input.checked = false;
        }
      });
    });
    win.querySelectorAll('[data-needs="yakuman"]').forEach(function (group) {
      show(group, on && yakuman);
    });
    // How many yakuman the liable player fed: only with a liable player and a multiple.
    var liable = checked("w" + index + "_pao") !== "";
    var multiple = parseInt(checked("w" + index + "_yakuman") || "1", 10);
    win.querySelectorAll('[data-needs="pao"]').forEach(function (group) {
      show(group, on && yakuman && liable && multiple >= 2);
      if (!on || !yakuman || !liable) {
        return;
      }
      group.querySelectorAll("input").forEach(function (input) {
        var ok = parseInt(input.value, 10) <= multiple;
        input.disabled = !ok || multiple < 2;
        input.closest(".pick").hidden = !ok;
        if (!ok) {
          input.checked = false;
        }
      });
    });
  }

  function update() {
    var result = checked("result");
    var tsumo = result === "tsumo";
    // Outer sections first: an inner one is shown only inside a shown outer one.
    form.querySelectorAll("[data-results]").forEach(function (section) {
      var wanted = section.getAttribute("data-results").split(" ");
      var parent = section.parentElement.closest("[data-results]");
      show(section, wanted.indexOf(result) !== -1 && !(parent && parent.hidden));
    });
    form.querySelectorAll("[data-win]").forEach(function (win) {
      updateWin(win, !win.hidden, tsumo);
    });
    // A result is needed before anything else makes sense.
    var preview = form.querySelector('button[value="preview"]');
    if (preview) {
      preview.disabled = !result;
    }
  }

  // Closing an extra winner's section takes that winner back out.
  form.querySelectorAll("details[data-win]").forEach(function (details) {
    details.addEventListener("toggle", function () {
      if (!details.open) {
        var nobody = details.querySelector('input[name$="_winner"][value=""]');
        if (nobody) {
          nobody.checked = true;
        }
      }
    });
  });

  form.addEventListener("change", update);
  update();
})();

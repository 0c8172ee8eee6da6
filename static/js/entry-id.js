// A hand entry's id, made when the player confirms it: a form with an empty
// [data-entry-id] field gets a new random UUID as it is sent, so that the save,
// however often it is sent again, is applied once. Without crypto.randomUUID
// (an insecure origin) the field stays empty and the server makes the id when it
// shows the confirm step.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var field = event.target.querySelector && event.target.querySelector("[data-entry-id]");
    if (!field || field.value) return;
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      field.value = window.crypto.randomUUID();
    }
  }, true);
})();

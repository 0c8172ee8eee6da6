// Upload many logs with a progress bar. Without this script the form posts as usual.
(function () {
  "use strict";
  var form = document.getElementById("import-form");
  if (!form || !window.FormData || !window.XMLHttpRequest) return;
  var box = document.getElementById(form.dataset.progress);
  var bar = box.querySelector("progress");
  var status = box.querySelector(".upload-status");

  // The words come with the page, in its language; {files} and {percent} are filled in here.
  function say(name, fallback, values) {
    var text = form.getAttribute("data-text-" + name) || fallback;
    Object.keys(values || {}).forEach(function (key) {
      text = text.split("{" + key + "}").join(String(values[key]));
    });
    status.textContent = text;
  }

  form.addEventListener("submit", function (event) {
    var files = form.querySelector("input[type=file]").files;
    if (!files || !files.length) return; // let the server say what is missing
    event.preventDefault();
    var request = new XMLHttpRequest();
    request.open("POST", form.action || window.location.href);
    box.hidden = false;
    form.querySelector("button[type=submit]").disabled = true;
    request.upload.addEventListener("progress", function (e) {
      if (!e.lengthComputable) return;
      bar.value = Math.round((100 * e.loaded) / e.total);
      say("uploading", "Uploading {files} file(s): {percent}", {
        files: files.length,
        percent: bar.value + "%",
      });
    });
    request.upload.addEventListener("load", function () {
      bar.removeAttribute("value"); // indeterminate while the server checks every hand
      say("checking", "Checking {files} log(s)…", { files: files.length });
    });
    request.addEventListener("load", function () {
      if (request.responseURL && request.responseURL !== window.location.href) {
        window.location.href = request.responseURL;
      } else {
        document.open();
        document.write(request.responseText);
        document.close();
      }
    });
    request.addEventListener("error", function () {
      say("failed", "The upload failed. Check the connection and try again.");
      form.querySelector("button[type=submit]").disabled = false;
    });
    request.send(new FormData(form));
  });
})();

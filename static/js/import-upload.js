// Upload many logs with a progress bar. Without this script the form posts as usual.
(function () {
  "use strict";
  var form = document.getElementById("import-form");
  if (!form || !window.FormData || !window.XMLHttpRequest) return;
  var box = document.getElementById(form.dataset.progress);
  var bar = box.querySelector("progress");
  var status = box.querySelector(".upload-status");

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
      status.textContent = "Uploading " + files.length + " file(s): " + bar.value + "%";
    });
    request.upload.addEventListener("load", function () {
      bar.removeAttribute("value"); // indeterminate while the server checks every hand
      status.textContent = "Checking " + files.length + " log(s)…";
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
      status.textContent = "The upload failed. Check the connection and try again.";
      form.querySelector("button[type=submit]").disabled = false;
    });
    request.send(new FormData(form));
  });
})();

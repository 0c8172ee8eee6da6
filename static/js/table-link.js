// The table link's page: the slip's address is /t/<id>/#<code>. Browsers never send what
// follows #, so the code reaches no access log; this script posts it, once, and takes it
// out of the address bar and the history. Without the fragment the code is typed.
(function () {
  "use strict";

  function open() {
    var form = document.getElementById("table-link-form");
    var code = window.location.hash.slice(1);
    try {
      code = decodeURIComponent(code);
    } catch (e) {
      // Not percent-encoded as a code is: posted as it is, and refused by the server.
    }
    if (!form || !code) return;
    history.replaceState(null, "", window.location.pathname);
    document.getElementById("table-link-code").value = code;
    document.getElementById("table-link-typed").hidden = true;
    document.getElementById("table-link-opening").hidden = false;
    form.submit();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", open);
  } else {
    open();
  }
})();

// The service worker of one game's table link (tournaments/views/offline.py): it keeps
// the game page, the hand form and their static files, so that the phone opens them
// without network. Pages come from the network first (fresh numbers when there is a
// network), then from the cache; static files from the cache first (their names change
// with their content in production). It never stores or sends a hand: the page's outbox
// (static/js/phone-outbox.js) does.
// The view (offline.py) defines CONFIG before this code: the cache's name, the scope, the
// pages and the static files to keep (and "use strict").

var CACHE = CONFIG.cache + CONFIG.version;

function keep(cache, url) {
  return fetch(new Request(url, { credentials: "same-origin" }))
    .then(function (response) {
      // A redirect (the game was finished or the link revoked) is not a page to keep.
      if (response.ok && !response.redirected) {
        return cache.put(url, response);
      }
    })
    .catch(function () {
      // Without network now: kept on the next visit instead.
    });
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches
      .open(CACHE)
      .then(function (cache) {
        return Promise.all(CONFIG.pages.concat(CONFIG.files).map(function (url) {
          return keep(cache, url);
        }));
      })
      .then(function () {
        return self.skipWaiting();
      })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (name) {
              // Only this game's older caches: another table's game keeps its own.
              return name.indexOf(CONFIG.cache) === 0 && name !== CACHE;
            })
            .map(function (name) {
              return caches.delete(name);
            })
        );
      })
      .then(function () {
        return self.clients.claim();
      })
  );
});

function pageKey(url) {
  return url.origin + url.pathname;
}

function fromNetworkFirst(request) {
  var url = new URL(request.url);
  return fetch(request)
    .then(function (response) {
      if (
        response.ok &&
        !response.redirected &&
        CONFIG.pages.indexOf(url.pathname) !== -1
      ) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) {
          cache.put(pageKey(url), copy);
        });
      }
      return response;
    })
    .catch(function () {
      return caches.open(CACHE).then(function (cache) {
        return cache.match(pageKey(url)).then(function (page) {
          if (page) {
            return page;
          }
          // Any other page of the game: the game page, which says what is on the phone.
          return cache.match(pageKey(new URL(CONFIG.scope, url))).then(function (home) {
            return home || Response.error();
          });
        });
      });
    });
}

function fromCacheFirst(request) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request, { ignoreSearch: true }).then(function (kept) {
      return (
        kept ||
        fetch(request).then(function (response) {
          if (response.ok) {
            cache.put(request, response.clone());
          }
          return response;
        })
      );
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") {
    return;
  }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.mode === "navigate" && url.pathname.indexOf(CONFIG.scope) === 0) {
    event.respondWith(fromNetworkFirst(request));
  } else if (url.pathname.indexOf(CONFIG.static) === 0) {
    event.respondWith(fromCacheFirst(request));
  }
});

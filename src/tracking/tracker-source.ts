// The tracker served at GET /js/script.js (docs/analytics.md#the-tracker), kept as a string so that it is
// served the same from src/ (tsx) and from dist/ (compiled) with nothing to copy. It is served
// as written, minus the lines that hold only a comment: the text between the backquotes is
// plain ES2017 with no backquote, no `${` and no multi-line string, so dropping those lines is
// safe (test/tracking/tracker-script.test.ts checks it parses and stays within 1,024 bytes gzipped).
//
// What it does: a pageview on load and on each SPA navigation (history.pushState, popstate) to a
// new path; window.rankscope(name, props) for custom events. It posts to /api/event on the origin
// its own src came from, with sendBeacon (fetch keepalive when the beacon is refused), sets no
// cookie and stores nothing. Pages on localhost, *.localhost, 127.0.0.0/8, [::1] and file: are
// not tracked unless the script tag has data-allow-local. Nothing it does may throw into the page.

export const TRACKER_SOURCE = String.raw`/* Rankscope analytics: sets no cookie, stores nothing in the browser. */
(function (w, d) {
  try {
    var n = w.navigator;
    var l = w.location;
    var queued = w.rankscope && w.rankscope.q;
    var s, api, off, last;
    var data = function (k) {
      return s.getAttribute('data-' + k);
    };
    // Nulls and empty strings are "absent" to /api/event, so they are sent as they come;
    // what the endpoint would refuse (a 0 screen, a malformed language) is left out instead.
    var send = function (name, props) {
      try {
        if (off || !api) return;
        var lang = n.language;
        var body = JSON.stringify({
          n: name,
          u: l.href.slice(0, 2048),
          i: data('website'),
          d: data('domain'),
          r: d.referrer.slice(0, 2048),
          sw: w.screen.width || null,
          sh: w.screen.height || null,
          l: /^[a-z]{1,8}(-[a-z\d]{1,8})*$/i.test(lang) ? lang : null,
          p: props,
        });
        try {
          if (n.sendBeacon(api, body)) return;
        } catch (e) {}
        fetch(api, { method: 'POST', body: body, keepalive: true }).catch(function () {});
      } catch (e) {}
    };
    // rankscope(name, props) or, as Plausible takes it, rankscope(name, {props: {...}, callback}).
    // Defined first, so that the page's calls never throw, even when the rest cannot start.
    w.rankscope = function (name, o) {
      try {
        send(name, o && typeof o.props == 'object' ? o.props : o);
        if (o && typeof o.callback == 'function') o.callback();
      } catch (e) {}
    };
    s = d.currentScript || d.querySelector('script[data-website],script[data-domain]');
    off = data('allow-local') == null && (l.protocol == 'file:' || /^(.+\.)?localhost$|^127(\.\d+){3}$|^\[::1\]$/.test(l.hostname));
    api = new URL('/api/event', s.src).href;
    var pageview = function () {
      if (l.pathname == last) return;
      last = l.pathname;
      send('pageview');
    };
    var h = w.history;
    var push = h.pushState;
    if (push) {
      h.pushState = function () {
        push.apply(this, arguments);
        pageview();
      };
    }
    w.addEventListener('popstate', pageview);
    pageview();
    // Calls made before the script loaded, by the optional queue stub of the install snippet.
    for (var i = 0; queued && i < queued.length; i++) w.rankscope.apply(w, queued[i]);
  } catch (e) {}
})(window, document);
`;

/** The tracker as served: TRACKER_SOURCE without its comment-only lines. */
export const TRACKER_SCRIPT = TRACKER_SOURCE.replace(/^[ \t]*\/\/.*\n/gm, '');

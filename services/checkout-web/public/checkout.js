/* global document, window, EventSource */
// The waiting screen follows the payment over server-sent events (GET /pay/:id/events) and reloads as soon
// as the screen it shows is out of date; the server then renders the new state or redirects to return_url.
// Without EventSource (or JavaScript), the page's <noscript> refresh does the same job more slowly.
'use strict';

(function followPaymentStatus() {
  const main = document.querySelector('main[data-events]');
  if (main === null) return;
  const shown = main.getAttribute('data-screen');
  const reload = () => window.location.reload();
  if (!('EventSource' in window)) {
    window.setTimeout(reload, 3000);
    return;
  }
  const source = new EventSource(main.getAttribute('data-events'));
  source.addEventListener('status', (event) => {
    const update = JSON.parse(event.data);
    if (update.screen !== shown) {
      source.close();
      reload();
    }
  });
  // The browser reconnects by itself after a dropped stream; it gives up only on an error answer, such as the
  // 503 of a server already following too many pages: reloading now and then follows the payment as well.
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.CLOSED) window.setTimeout(reload, 5000);
  });
})();

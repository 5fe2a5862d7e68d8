// Dealer tablet: the 52-card picker fills the card field the dealer last touched, and the rules dialog opens.
// Everything else is plain forms posted by htmx; the server re-renders the round and is the only truth.
(function () {
  "use strict";

  var activeId = null;

  function tokens(input) {
    return input.value.trim().split(/[\s,]+/).filter(function (t) { return t.length > 0; });
  }

  function normal(code) {
    // "as", "AS", "10s" -> "As", "Ts": match the picker's data-card codes.
    var c = code.trim();
    if (c.length === 3 && c.slice(0, 2) === "10") { c = "T" + c.slice(2); }
    if (c.length !== 2) { return c; }
    return c.charAt(0).toUpperCase() + c.charAt(1).toLowerCase();
  }

  function entries() {
    return Array.prototype.slice.call(document.querySelectorAll("input.card-entry"));
  }

  function activeEntry() {
    var input = activeId ? document.getElementById(activeId) : null;
    if (input && !input.disabled) { return input; }
    var open = entries().filter(function (e) { return !e.disabled && tokens(e).length < Number(e.dataset.count || 5); });
    return open.length ? open[0] : null;
  }

  function setActive(input) {
    activeId = input ? input.id : null;
    entries().forEach(function (e) { e.classList.toggle("active", e === input); });
    var status = document.getElementById("picker-target");
    if (status) {
      status.textContent = input ? "Cards go to: " + (input.dataset.label || input.id) : "Touch a card field first";
    }
  }

  function refresh() {
    // Cards typed or picked but not yet saved show as pending; cards already in the round stay disabled.
    var pending = {};
    entries().forEach(function (e) { tokens(e).forEach(function (t) { pending[normal(t)] = e.dataset.label || e.id; }); });
    document.querySelectorAll("button.pick").forEach(function (b) {
      var taken = Object.prototype.hasOwnProperty.call(pending, b.dataset.card);
      b.classList.toggle("pending", taken);
      b.setAttribute("aria-pressed", taken ? "true" : "false");
    });
    setActive(activeEntry());
  }

  document.addEventListener("focusin", function (event) {
    var t = event.target;
    if (t && t.classList && t.classList.contains("card-entry")) { setActive(t); }
  });

  document.addEventListener("input", function (event) {
    var t = event.target;
    if (t && t.classList && t.classList.contains("card-entry")) { refresh(); }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button.pick") : null;
    if (button) {
      event.preventDefault();
      if (button.disabled) { return; }
      var card = button.dataset.card;
      var owner = entries().filter(function (e) { return tokens(e).map(normal).indexOf(card) >= 0; })[0];
      if (owner) {
        // A second tap on a pending card takes it back out of the field it went into.
        owner.value = tokens(owner).filter(function (t) { return normal(t) !== card; }).join(" ");
        setActive(owner);
      } else {
        var input = activeEntry();
        if (!input) { return; }
        var have = tokens(input);
        if (have.length >= Number(input.dataset.count || 5)) { return; }
        have.push(card);
        input.value = have.join(" ");
        if (have.length >= Number(input.dataset.count || 5)) {
          // Full: move on to the next field that still needs cards, as the dealer deals around the table.
          var next = entries().filter(function (e) {
            return e !== input && !e.disabled && tokens(e).length < Number(e.dataset.count || 5);
          })[0];
          setActive(next || input);
        } else {
          setActive(input);
        }
      }
      refresh();
      return;
    }
    var opener = event.target.closest ? event.target.closest("[data-opens-dialog]") : null;
    if (opener) {
      var dialog = document.getElementById(opener.dataset.opensDialog);
      if (dialog && dialog.showModal) {
        event.preventDefault();
        dialog.showModal();
      }
    }
  });

  // A new round section (a poll, or the answer to another seat's tap) must not wipe what the dealer is
  // typing elsewhere: inputs changed since the server rendered them keep their values, unless the server's
  // own value for that input changed meanwhile, or the input belongs to the form that was just submitted.
  var kept = [];

  document.addEventListener("htmx:beforeSwap", function (event) {
    kept = [];
    var target = event.detail.target;
    if (!target || target.id !== "round") { return; }
    var source = event.detail.requestConfig ? event.detail.requestConfig.elt : null;
    var sent = source && source.closest ? source.closest("form") : null;
    target.querySelectorAll("input[id], textarea[id], details[id]").forEach(function (el) {
      if (sent && sent.contains(el)) { return; }
      if (el.tagName === "DETAILS") {
        if (el.open !== el.hasAttribute("open")) { kept.push({ id: el.id, open: el.open }); }
      } else if (el.type === "radio" || el.type === "checkbox") {
        if (el.checked !== el.defaultChecked) { kept.push({ id: el.id, checked: el.checked, base: el.defaultChecked }); }
      } else if (el.type !== "hidden" && el.value !== el.defaultValue) {
        kept.push({ id: el.id, value: el.value, base: el.defaultValue });
      }
    });
  });

  document.addEventListener("htmx:afterSwap", function () {
    kept.forEach(function (saved) {
      var el = document.getElementById(saved.id);
      if (!el) { return; }
      if ("open" in saved) { el.open = saved.open; }
      else if ("checked" in saved) { if (el.defaultChecked === saved.base) { el.checked = saved.checked; } }
      else if (el.defaultValue === saved.base) { el.value = saved.value; }
    });
    kept = [];
    refresh();
  });
  document.addEventListener("DOMContentLoaded", refresh);

  // The 1 s poll waits while a tap's form is in flight, so it never overwrites the answer to that tap. (Done
  // here, not as an hx-trigger filter: htmx evaluates those with eval, which the Content-Security-Policy refuses.)
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.target.hasAttribute("data-poll") && document.querySelector("form.htmx-request")) {
      event.preventDefault();
    }
  });

  // The server is the truth: when it cannot be reached (or fails), say so instead of showing a stale screen as live.
  function connection(problem) {
    var banner = document.getElementById("connection");
    if (!banner) { return; }
    banner.hidden = !problem;
    banner.textContent = problem || "";
  }
  document.addEventListener("htmx:sendError", function () {
    connection("Cannot reach the server. This screen may be out of date; it updates by itself when the connection is back.");
  });
  document.addEventListener("htmx:responseError", function () {
    connection("The server could not answer. Nothing was changed by the last tap unless the screen shows it.");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) { connection(""); }
  });
})();

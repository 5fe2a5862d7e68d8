// Dealer tablet: the 52-card picker fills the card field chosen with its button, chip buttons add to a bet,
// dangerous or final taps confirm first, and every tap shows it is in flight until the server answers.
// Everything else is plain forms posted by htmx; the server re-renders the round and is the only truth.
(function () {
  "use strict";

  var STILL_TRYING_MS = 3000;
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

  function full(input) { return tokens(input).length >= Number(input.dataset.count || 5); }

  function activeEntry() {
    var input = activeId ? document.getElementById(activeId) : null;
    if (input && !input.disabled) { return input; }
    var open = entries().filter(function (e) { return !e.disabled && !full(e); });
    return open.length ? open[0] : null;
  }

  function setActive(input) {
    activeId = input ? input.id : null;
    entries().forEach(function (e) {
      var button = document.getElementById(e.id + "-target");
      if (button) { button.setAttribute("aria-pressed", e === input ? "true" : "false"); }
    });
    var status = document.getElementById("picker-target");
    if (status) {
      status.textContent = input ? "Cards go to: " + (input.dataset.label || input.id) : "Choose a card field first";
    }
  }

  var SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };

  function face(code) {
    // "Ts" -> "10♠", as on the cards and the picker's buttons; anything else is shown as typed.
    var c = normal(code);
    var suit = c.length === 2 ? SUITS[c.charAt(1)] : undefined;
    if (!suit) { return code; }
    return (c.charAt(0) === "T" ? "10" : c.charAt(0)) + suit;
  }

  function showCards(input) {
    var shown = document.querySelector('[data-cards-of="' + input.id + '"]');
    if (shown) { shown.textContent = input.value.trim() ? tokens(input).map(face).join(" ") : "none yet"; }
  }

  function refresh() {
    // Cards picked but not yet saved show as pending; cards already in the round stay disabled.
    var pending = {};
    entries().forEach(function (e) {
      showCards(e);
      tokens(e).forEach(function (t) { pending[normal(t)] = e.dataset.label || e.id; });
    });
    document.querySelectorAll("button.pick").forEach(function (b) {
      if (b.disabled) { return; }
      var taken = Object.prototype.hasOwnProperty.call(pending, b.dataset.card);
      b.classList.toggle("pending", taken);
      b.setAttribute("aria-pressed", taken ? "true" : "false");
    });
    // A hold form whose taps differ from what the server recorded says it is not saved yet.
    document.querySelectorAll("form.hold-form").forEach(function (form) {
      var changed = Array.prototype.some.call(form.querySelectorAll("input[type=checkbox]"), function (box) {
        return box.checked !== box.defaultChecked;
      });
      var note = form.querySelector(".unsaved");
      if (note) { note.hidden = !changed; }
    });
    setActive(activeEntry());
  }

  function pick(button) {
    var card = button.dataset.card;
    var owner = entries().filter(function (e) { return tokens(e).map(normal).indexOf(card) >= 0; })[0];
    if (owner) {
      // A second tap on a pending card takes it back out of the field it went into.
      owner.value = tokens(owner).filter(function (t) { return normal(t) !== card; }).join(" ");
      setActive(owner);
    } else {
      var input = activeEntry();
      if (!input || full(input)) { return; }
      var have = tokens(input);
      have.push(card);
      input.value = have.join(" ");
      if (full(input)) {
        // Full: move on to the next field that still needs cards, as the dealer deals around the table.
        var next = entries().filter(function (e) { return e !== input && !e.disabled && !full(e); })[0];
        setActive(next || input);
      } else {
        setActive(input);
      }
    }
    refresh();
  }

  // A typed amount as the server reads it (casino/money_fields.py): "$" in front, commas only between groups of
  // three digits, one point. A chip added to anything else once dropped the comma ("2,5", $2.50 typed with a
  // decimal comma, plus $5 became "30"); now the amount is left as typed and the seat's error line says why.
  var AMOUNT = /^\$?(\d{1,3}(,\d{3})+(\.\d*)?|\d+\.?\d*|\.\d+)$/;

  function amountError(input, text) {
    // The seat's error line (the first element the amount names in aria-describedby).
    var error = document.getElementById((input.getAttribute("aria-describedby") || "").split(" ")[0]);
    if (error) { error.textContent = text; }
    if (text) { input.setAttribute("aria-invalid", "true"); } else { input.removeAttribute("aria-invalid"); }
  }

  function addChip(button) {
    var input = document.getElementById(button.dataset.chipFor);
    if (!input) { return; }
    var typed = input.value.replace(/\s/g, "");
    if (typed && !AMOUNT.test(typed)) {
      amountError(input, "Seat " + input.id.replace("amount-", "") + ": \u201c" + input.value.trim() + "\u201d is not an amount of money: Clear it, or type dollars (2.50).");
      return;
    }
    amountError(input, "");
    var now = Math.round(parseFloat(typed.replace(/[$,]/g, "") || "0") * 100) || 0;
    var cents = now + Number(button.dataset.chipCents);
    input.value = cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
  }

  // --- confirmation of dangerous or final taps (leave, void, the last hold) ------------------------------------

  function askToConfirm(form) {
    var box = form.querySelector(".confirm");
    if (box) { box.querySelector("[data-confirm-yes]").focus(); return; }
    box = document.createElement("div");
    box.className = "confirm";
    box.setAttribute("role", "alertdialog");
    box.setAttribute("aria-label", "Confirm");
    var text = document.createElement("p");
    text.textContent = form.dataset.confirm;
    var yes = document.createElement("button");
    yes.type = "button";
    yes.className = "primary";
    yes.setAttribute("data-confirm-yes", "");
    yes.textContent = form.dataset.confirmYes || "Yes";
    var no = document.createElement("button");
    no.type = "button";
    no.setAttribute("data-confirm-no", "");
    no.textContent = "Cancel";
    box.appendChild(text);
    box.appendChild(yes);
    box.appendChild(no);
    form.appendChild(box);
    yes.focus();
  }

  // A hold tapped while the other missing holds are all in flight is the last one, though the screen drawn before
  // their answers does not know it yet: it confirms too, as the server-drawn last hold does.
  function confirmIfLastHold(form) {
    if (!form.dataset || !form.dataset.holdMissing) { return; }
    var missing = document.querySelectorAll("form[data-hold-missing]");
    for (var i = 0; i < missing.length; i++) {
      if (missing[i] !== form && !missing[i].classList.contains("htmx-request")) { return; }
    }
    form.dataset.confirm = "Seat " + form.dataset.holdMissing + " is the last hold: once it is recorded the round " +
      "moves on to the draw and no hold can change. Record it?";
    form.dataset.confirmYes = "Yes, record the last hold";
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    confirmIfLastHold(form);
    if (!form.dataset || !form.dataset.confirm) { return; }
    if (form.dataset.confirmed === "yes") { form.dataset.confirmed = ""; return; }
    // Stop htmx (listening on the form) and the browser until the dealer confirms.
    event.preventDefault();
    event.stopImmediatePropagation();
    askToConfirm(form);
  }, true);

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target : null;
    if (!target) { return; }
    var button = target.closest("button.pick");
    if (button) {
      event.preventDefault();
      if (!button.disabled) { pick(button); }
      return;
    }
    var chooser = target.closest("button.target");
    if (chooser) {
      setActive(document.getElementById(chooser.dataset.target));
      return;
    }
    var chip = target.closest("button[data-chip-cents]");
    if (chip) { addChip(chip); return; }
    var clear = target.closest("button[data-chip-clear]");
    if (clear) {
      var amount = document.getElementById(clear.dataset.chipClear);
      if (amount) { amount.value = ""; amountError(amount, ""); }
      return;
    }
    // The question box's own buttons: the form that asks also carries data-confirm-yes (Yes's words), and a tap on
    // Cancel inside it once matched the form, threw, and left the question on screen with Yes under the finger.
    var yes = target.closest(".confirm [data-confirm-yes]");
    if (yes) {
      var form = yes.closest("form");
      yes.closest(".confirm").remove();
      form.dataset.confirmed = "yes";
      form.requestSubmit();
      return;
    }
    var no = target.closest(".confirm [data-confirm-no]");
    if (no) { no.closest(".confirm").remove(); return; }
    var opener = target.closest("[data-opens-dialog]");
    if (opener) {
      var dialog = document.getElementById(opener.dataset.opensDialog);
      if (dialog && dialog.showModal) {
        event.preventDefault();
        dialog.showModal();
      }
    }
  });

  document.addEventListener("change", function (event) {
    if (event.target && event.target.closest && event.target.closest("form.hold-form")) { refresh(); }
  });

  // --- keep what the dealer is entering when another change re-renders the round ---------------------------------
  // A new round section (a poll, or the answer to another seat's tap) must not wipe what the dealer is
  // typing elsewhere: inputs changed since the server rendered them keep their values, unless the server's
  // own value for that input changed meanwhile, or the input belongs to the form that was just submitted.
  var kept = [];

  document.addEventListener("htmx:beforeSwap", function (event) {
    kept = [];
    var xhr = event.detail.xhr;
    if (xhr && "tapsBefore" in xhr) {
      if (xhr.tapsBefore !== tapsSent) { event.detail.shouldSwap = false; return; }
      shownTap = tapsSent;
    } else if (xhr && "tapNumber" in xhr) {
      if (xhr.tapNumber < shownTap) {
        // An earlier tap answered after a later one: its picture of the round is older than the one on screen, so
        // only what it says about its own tap (a refusal, the amount it was sent with) joins the screen. Shown
        // whole, it put a bet back to "No bet" for a second and the next poll then wiped its refusal.
        event.detail.shouldSwap = false;
        takeRefusals(event.detail.serverResponse);
        return;
      }
      shownTap = xhr.tapNumber;
    }
    var target = event.detail.target;
    if (!target || target.id !== "round-live") { return; }
    var source = event.detail.requestConfig ? event.detail.requestConfig.elt : null;
    var sent = source && source.closest ? source.closest("form") : null;
    target.querySelectorAll("input[id], textarea[id], details[id]").forEach(function (el) {
      if (sent && sent.contains(el)) { return; }
      if (el.tagName === "DETAILS") {
        if (el.open !== el.hasAttribute("open")) { kept.push({ id: el.id, open: el.open }); }
      } else if (el.type === "radio" || el.type === "checkbox") {
        if (el.checked !== el.defaultChecked) { kept.push({ id: el.id, checked: el.checked, base: el.defaultChecked }); }
      } else if ((el.type !== "hidden" || el.classList.contains("card-entry")) && el.value !== el.defaultValue) {
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

  // --- the screen stays still under the dealer's finger ------------------------------------------------------------
  // An answer replaces everything in the live box, so the browser's own scroll anchoring loses the node it anchors to
  // and the content moves by whatever changed above it: at a portrait showdown the card picker moved 101 px down as
  // seat 1's recorded hand appeared above it, and 83 px up as the next one closed, while the dealer reached for it.
  // So before a swap the element with an id nearest the last tap (or the screen's middle) is noted with its place on
  // screen, and after it the page is scrolled so that the same element, or the next nearest still there, is back.
  var anchors = [];

  function shownOnScreen(el) {
    if (!el.getClientRects().length) { return null; }
    var box = el.getBoundingClientRect();
    if (box.bottom <= 0 || box.top >= window.innerHeight || box.height > window.innerHeight / 2) { return null; }
    return box;
  }

  function noteAnchors(live) {
    var y = lastTap && Date.now() - lastTap.at < 5000 ? lastTap.y : window.innerHeight / 2;
    anchors = [];
    live.querySelectorAll("[id]").forEach(function (el) {
      var box = shownOnScreen(el);
      if (!box) { return; }
      var off = y < box.top ? box.top - y : y > box.bottom ? y - box.bottom : 0;
      anchors.push({ id: el.id, top: box.top, off: off, height: box.height, above: box.bottom <= y,
                     still: el.hasAttribute("data-keep-still") });
    });
    // The nearest element to the tap, the smaller first.
    anchors.sort(function (a, b) { return a.off - b.off || a.height - b.height; });
  }

  // Which noted element to keep still. An answer that asks a question (Fold? Muck?) draws it where its button was,
  // with Yes further down than the button reached: what lies above the tap stays put. Else a screen may name what the
  // dealer reaches for next whatever was tapped (the showdown's card picker, below the hands it records); else the
  // element nearest the tap.
  function anchorOrder(live) {
    if (live.querySelector(".confirm[role=alertdialog]")) {
      return anchors.filter(function (a) { return a.above; });
    }
    return anchors.filter(function (a) { return a.still; }).concat(anchors.filter(function (a) { return !a.still; }));
  }

  // Scrolled once as the answer lands (no frame shows it moved) and again once htmx has settled it: the scripts that
  // run on a new section (the picker's slots, the chosen hand) still change its height then, and a page not yet
  // grown to its height cannot scroll far enough.
  var anchored = null; // {id, top}: the element kept still, and where it was on screen

  function keepAnchor(live) {
    anchored = null;
    var order = anchorOrder(live);
    for (var i = 0; i < order.length; i += 1) {
      var el = document.getElementById(order[i].id);
      if (el && live.contains(el) && el.getClientRects().length) { anchored = order[i]; break; }
    }
    anchors = [];
    scrollBack();
  }

  function scrollBack() {
    var el = anchored && document.getElementById(anchored.id);
    if (!el || !el.getClientRects().length) { return; }
    var moved = el.getBoundingClientRect().top - anchored.top;
    if (Math.abs(moved) >= 1) { window.scrollBy(0, moved); }
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    anchors = [];
    if (event.detail.shouldSwap && target && target.classList && target.classList.contains("live")) { noteAnchors(target); }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (anchors.length && target && target.classList && target.classList.contains("live")) { keepAnchor(target); }
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!anchored) { return; }
    window.setTimeout(function () { scrollBack(); anchored = null; }, 0);  // after the other afterSettle listeners
  });

  // --- a double tap acts once -----------------------------------------------------------------------------------
  // A quick server answers before a double tap's second touch: the next player's turn then offered its button where
  // the first touch was, and the second touch recorded an action for that player (a user test recorded Stand pat
  // for two seats, 150 ms apart). So for a moment after a new section lands under a recent tap, the button under
  // that tap is disabled: a double tap's second touch finds nothing, while a deliberate tap, which needs a look at
  // the new screen first, finds it enabled again.
  var SETTLE_MS = 300;
  var lastTap = null; // {x, y, at}

  document.addEventListener("click", function (event) {
    if (event.detail > 0) { lastTap = { x: event.clientX, y: event.clientY, at: Date.now() }; }  // 0: a key, no point
  }, true);

  function guardUnderLastTap() {
    if (!lastTap || Date.now() - lastTap.at > 1500) { return; }
    var hit = document.elementFromPoint(lastTap.x, lastTap.y);
    var control = hit && hit.closest ? hit.closest("button") : null;
    if (!control || control.disabled || control.closest("[data-poll], header")) { return; }
    control.disabled = true;
    control.dataset.settling = "1";
    window.setTimeout(function () {
      if (control.dataset.settling) { control.disabled = false; delete control.dataset.settling; }
    }, SETTLE_MS);
  }

  // After every other afterSwap listener (tablet-home.js sets its buttons' state in its own).
  document.addEventListener("htmx:afterSwap", function () { window.setTimeout(guardUnderLastTap, 0); });

  // --- taps in flight: nothing looks done until the server said so ---------------------------------------------

  function banner(problem, kind) {
    var box = document.getElementById("connection");
    if (!box) { return; }
    box.hidden = !problem;
    box.textContent = problem || "";
    box.dataset.kind = problem ? kind : "";
  }

  var inFlight = null; // the latest tap: {form, button, label, timer}
  var taps = 0; // taps not yet answered (the dealer may tap a second form before the first answer)

  function isPoll(elt) { return elt && elt.hasAttribute && elt.hasAttribute("data-poll"); }

  function label(button) {
    return button ? button.textContent.replace(/\s+/g, " ").trim() : "the last tap";
  }

  // Taps sent so far. A poll already out when the dealer taps comes back with the screen as it was drawn before the
  // tap or beside it; shown, it would replace the section under the tap, and the tap's own answer (a confirmation, a
  // refusal) would then land on a section no longer on screen and never show. So a poll's answer is shown only if
  // no tap went out after the poll did; the next poll, after the tap's answer, brings anything else that changed.
  var tapsSent = 0;
  var shownTap = 0; // the tap whose answer (or a poll sent after it) the screen shows
  var mergedNote = null; // a note takeRefusals wrote, brought into view like a refusal

  function takeRefusals(html) {
    var answer = new DOMParser().parseFromString(html, "text/html");
    answer.querySelectorAll(".error[id]").forEach(function (error) {
      var here = document.getElementById(error.id);
      if (!here || !error.textContent.trim()) { return; }
      here.textContent = error.textContent;
      var box = error.closest(".has-error[id]");
      var boxHere = box ? document.getElementById(box.id) : null;
      if (boxHere) { boxHere.classList.add("has-error"); }
      // The field the refusal is about keeps what was sent, as the refusal's own answer draws it.
      answer.querySelectorAll("input[id][aria-describedby]").forEach(function (input) {
        var field = document.getElementById(input.id);
        if (field && input.getAttribute("aria-describedby").split(" ").indexOf(error.id) >= 0) {
          field.value = input.value;
          field.setAttribute("aria-invalid", "true");
        }
      });
    });
    // A question the tap was answered with (Fold? Muck? Keeping an ace?) was asked of the older picture: shown on the
    // newer one, its Yes would answer for a screen no longer there. Nor may the tap come to nothing: its place on the
    // screen says it was not done and to tap again, which asks afresh.
    answer.querySelectorAll(".confirm[role=alertdialog][id]").forEach(function (question) {
      if (document.getElementById(question.id)) { return; }
      var slot = question.querySelector(".error[id]");
      for (var next = question.nextElementSibling; !slot && next; next = next.nextElementSibling) {
        if (next.matches(".error[id]")) { slot = next; }
      }
      var here = slot && document.getElementById(slot.id);
      var asked = question.querySelector("strong");
      if (!here || !asked) { return; }
      here.textContent = "Not done: another tap changed the screen as this one asked \u201c" + asked.textContent.trim()
        + "\u201d Tap it again to be asked.";
      mergedNote = here;
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.target;
    if (isPoll(elt)) {
      // The 1 s poll waits while a tap is in flight, so it never overwrites the answer to that tap. (Done here,
      // not as an hx-trigger filter: htmx evaluates those with eval, which the Content-Security-Policy refuses.)
      if (taps > 0) { event.preventDefault(); } else if (event.detail.xhr) { event.detail.xhr.tapsBefore = tapsSent; }
      return;
    }
    var form = elt.closest ? elt.closest("form") : null;
    if (!form) { return; }
    // A button or link with its own hx-post or hx-get (a showdown's Muck beside Record, a second step's Cancel
    // beside its Yes) sends no submit event: it is the one tapped.
    var button = elt.tagName === "BUTTON" || elt.tagName === "A" ? elt
      : lastSubmitter && form.contains(lastSubmitter) ? lastSubmitter : form.querySelector("button[type=submit]");
    form.classList.add("in-flight");
    form.setAttribute("aria-busy", "true");
    form.querySelectorAll("button, input, textarea").forEach(function (control) {
      if (!control.disabled && control.type !== "hidden") { control.disabled = true; control.dataset.busyDisabled = "1"; }
    });
    if (button) { button.classList.add("busy"); }
    var flight = { form: form, button: button, label: label(button) };
    flight.timer = window.setTimeout(function () {
      banner("Still trying to reach the server (\u201c" + flight.label + "\u201d not answered yet). Nothing has changed until it answers.", "waiting");
    }, STILL_TRYING_MS);
    inFlight = flight;
    tapsSent += 1;
    flight.number = tapsSent;
    taps += 1;
  });

  var lastSubmitter = null;
  document.addEventListener("submit", function (event) { lastSubmitter = event.submitter || null; }, true);

  function settle(flight) {
    window.clearTimeout(flight.timer);
    var form = flight.form;
    form.classList.remove("in-flight");
    form.removeAttribute("aria-busy");
    form.querySelectorAll("[data-busy-disabled]").forEach(function (control) {
      control.disabled = false;
      delete control.dataset.busyDisabled;
    });
    if (flight.button) { flight.button.classList.remove("busy"); }
  }

  function restore(form) {
    // The tap did not reach the server: taps that look like recorded state (holds, circles) go back to it.
    form.querySelectorAll("input[type=checkbox], input[type=radio]").forEach(function (box) {
      box.checked = box.defaultChecked;
    });
    refresh();
  }

  // The answer to a tap usually replaces the form that sent it (and htmx's own events then fire on a detached
  // element, out of this document's reach), so each tap's end is read from its request object instead.
  function finished(flight, xhr) {
    if (inFlight === flight) { inFlight = null; }
    taps -= 1;
    settle(flight);
    var status = xhr.status;
    if ((status >= 200 && status < 300) || (status >= 400 && status < 500)) {
      banner("");  // answered: the swapped-in round shows the result or the error next to its cause
      if (status >= 400) { bringIntoView(); }
      if (mergedNote) {
        var note = mergedNote;
        mergedNote = null;
        if (document.contains(note)) { anchored = null; note.scrollIntoView({ block: "nearest" }); }
      }
      return;
    }
    restore(flight.form);
    if (flight.timedOut) {
      // No answer in time is not a refusal: a slow or paused server may still record the tap after the browser gave
      // up (it once said "Not saved" above a screen the next poll showed with the tap recorded).
      banner("No answer to \u201c" + flight.label + "\u201d in 10 s: it may or may not have been recorded. The screen updates by itself and shows what is recorded; check it before tapping again.", "failed");
      return;
    }
    var why = status ? "the server failed (" + status + ")" : "no answer from the server";
    banner("Not saved: \u201c" + flight.label + "\u201d \u2014 " + why + ". The screen shows what is recorded; tap again when the connection is back.", "failed");
  }

  // A refusal drawn below the screen's edge, or under the action bar stuck to its foot, is scrolled to the middle: at
  // 1280x800 a seat's refusal sat at y 811-955 and only the seat's red edge showed.
  function bringIntoView() {
    var error = Array.prototype.filter.call(document.querySelectorAll(".live .error[id]"), function (e) {
      return e.textContent.trim() && !e.closest(".action-bar");
    })[0];
    if (!error) { return; }
    var bar = document.querySelector(".live .action-bar");
    var foot = window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
    var box = error.getBoundingClientRect();
    if (box.top < 0 || box.bottom > foot) {
      anchored = null;  // the refusal is what the dealer must see, wherever that leaves the rest
      error.scrollIntoView({ block: "center" });
    }
  }

  document.addEventListener("htmx:beforeSend", function (event) {
    var flight = inFlight;
    var xhr = event.detail.xhr;
    if (!flight || !xhr || isPoll(event.target)) { return; }
    xhr.addEventListener("timeout", function () { flight.timedOut = true; });
    xhr.tapNumber = flight.number;
    xhr.addEventListener("loadend", function () { finished(flight, xhr); });
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    // Polls only (their element stays in the document): say when the server cannot be reached.
    if (!isPoll(event.detail.elt)) { return; }
    // A good poll ends an "offline" notice, never a "Not saved" one: that tap is still lost until the dealer taps
    // again, and the next tap's answer clears it.
    if (event.detail.successful) {
      var box = document.getElementById("connection");
      if (taps === 0 && box && box.dataset.kind !== "failed") { banner(""); }
    }
    else if (taps === 0) {
      // Nor does a failed one: "Not saved" already says the server is out of reach, and names the lost tap.
      var shown = document.getElementById("connection");
      if (shown && shown.dataset.kind === "failed") { return; }
      banner("Cannot reach the server. This screen may be out of date; it updates by itself when the connection is back.", "offline");
    }
  });

  // A page brought back by the Back button is a picture from the past: load it again from the server.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { window.location.reload(); }
  });
})();

// Home-game table screen: the draw button says what the tapped discards mean, and the showdown picker puts each
// tapped card into the hand of the seat chosen with the target buttons. The server stays the only truth.
(function () {
  "use strict";

  var chosen = null; // the seat whose hand picked cards go to

  function showInputs() {
    return Array.prototype.slice.call(document.querySelectorAll("form.show-form"));
  }

  function cardsOf(form) {
    var input = form.querySelector("input[id^=show-cards-]");
    return input && input.value.trim() ? input.value.trim().split(/\s+/) : [];
  }

  function setCards(form, cards) {
    form.querySelector("input[id^=show-cards-]").value = cards.join(" ");
  }

  function faceOf(code) {
    var button = document.querySelector('button.hpick[data-card="' + code + '"]');
    return button ? button.textContent.trim() : code;
  }

  function refreshShow() {
    var forms = showInputs();
    if (!forms.length) { return; }
    if (!chosen || !document.querySelector('form.show-form[data-seat="' + chosen + '"]')) {
      // The hand just recorded went (or none was chosen yet): on to the first hand still to be picked.
      var open = forms.filter(function (f) { return cardsOf(f).length < 5; })[0];
      chosen = (open || forms[0]).dataset.seat;
    }
    var owners = {}; // card -> the form whose hand it went into
    forms.forEach(function (form) {
      var cards = cardsOf(form);
      cards.forEach(function (c) { owners[c] = form; });
      var slots = form.querySelector(".show-slots");
      var label = slots.textContent.split(" shows:")[0];
      slots.textContent = label + " shows: " + (cards.length ? cards.map(faceOf).join(" ") : "no cards picked");
      // Five cards or no Record: the button says what is missing and the count beside it is read out as it
      // changes. Without scripts the button stays enabled and the server refuses a hand of fewer cards.
      var missing = 5 - cards.length;
      var record = form.querySelector("button.show-submit");
      record.disabled = missing > 0;
      record.textContent = missing > 0 ? "Tap " + missing + " more " + (missing === 1 ? "card" : "cards") +
        " for " + record.dataset.label : "Record " + record.dataset.label + "'s hand";
      form.querySelector(".show-count").textContent = cards.length + " of 5 picked";
      form.classList.toggle("chosen", form.dataset.seat === chosen);
    });
    document.querySelectorAll("button.show-target").forEach(function (b) {
      var on = b.dataset.target === chosen;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.classList.toggle("chosen", on);
    });
    // Whose card is whose: each picked card carries its seat's number (a text cue, not colour alone), the chosen
    // hand's picks solid and pressed, another hand's dashed and not pressed (a tap there takes the card back out of
    // that hand, which the name read out says).
    document.querySelectorAll("button.hpick:not(:disabled)").forEach(function (b) {
      var owner = owners[b.dataset.card];
      var mine = !!owner && owner.dataset.seat === chosen;
      if (!b.dataset.name) { b.dataset.name = b.getAttribute("aria-label") || ""; }
      b.setAttribute("aria-pressed", mine ? "true" : "false");
      b.classList.toggle("other-hand", !!owner && !mine);
      if (owner) {
        b.dataset.owner = owner.dataset.seat;
        b.setAttribute("aria-label", b.dataset.name + ", in " + owner.querySelector("button.show-submit").dataset.label +
          "'s hand");
      } else {
        delete b.dataset.owner;
        b.setAttribute("aria-label", b.dataset.name);
      }
    });
  }

  function refreshDraw() {
    var form = document.querySelector("form.draw-form");
    if (!form) { return; }
    var count = form.querySelectorAll("input[name=discard]:checked").length;
    var keptAce = Array.prototype.some.call(form.querySelectorAll("input[name=discard]:not(:checked)"),
      function (box) { return box.value.charAt(0) === "A"; });
    var state = drawState(count, keptAce, form.dataset);
    var button = form.querySelector("#draw-submit");
    var standing = Number(form.dataset.minimum || 0) > 0 ? "Discard and draw" : "Stand pat";
    button.textContent = state.button || (count === 0 ? standing : "Discard " + count + " and draw " + count);
    button.disabled = !state.legal;
    var hint = form.querySelector("#draw-count");
    if (hint) {
      hint.textContent = state.hint;
      hint.classList.toggle("illegal", !state.legal);
    }
  }

  // What the tapped discards come to against the announced draw, before the tap that sends them: at speed the
  // dealer sees "Tap 1 more" and a button that cannot send a draw the rules refuse (the screen shows the player's
  // five cards, so it knows whether the card kept is an ace). The server still checks every draw.
  function drawState(count, keptAce, data) {
    var least = Number(data.minimum || 0), limit = Number(data.limit || 0), most = Number(data.maximum || 0);
    var cards = function (n) { return n + " " + (n === 1 ? "card" : "cards"); };
    var more = function (n) { return n + " more " + (n === 1 ? "card" : "cards"); };
    if (count < least) {
      return { legal: false, hint: count + " of " + least + " picked: tap " + more(least - count),
               button: "Tap " + more(least - count) + " to discard" };
    }
    if (count > most) {
      var over = count - most;
      return { legal: false, hint: count + " picked, at most " + most + ": tap " + cards(over) + " again to keep " +
               (over === 1 ? "it" : "them"), button: "At most " + cards(most) + " may be discarded" };
    }
    if (count > limit) {
      return keptAce ? { legal: true, hint: count + " picked, keeping an ace" } :
        { legal: false, hint: count + " picked: more than " + limit + " only when keeping an ace",
          button: "Discard " + count + " only when keeping an ace" };
    }
    return { legal: true, hint: least === most ? count + " of " + least + " picked" : "" };
  }

  function refresh() { refreshShow(); refreshDraw(); }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("button.show-target") : null;
    if (target) {
      chosen = target.dataset.target;
      refreshShow();
      return;
    }
    var pick = event.target.closest ? event.target.closest("button.hpick") : null;
    if (!pick || pick.disabled) { return; }
    var card = pick.dataset.card;
    var forms = showInputs();
    var owner = forms.filter(function (f) { return cardsOf(f).indexOf(card) >= 0; })[0];
    if (owner) {
      // A second tap takes the card back out of the hand it went into.
      setCards(owner, cardsOf(owner).filter(function (c) { return c !== card; }));
      chosen = owner.dataset.seat;
    } else {
      var form = document.querySelector('form.show-form[data-seat="' + chosen + '"]');
      if (!form) { return; }
      var cards = cardsOf(form);
      if (cards.length >= 5) { return; }
      cards.push(card);
      setCards(form, cards);
      if (cards.length === 5) {
        // Full: move on to the next hand still to be picked, as the dealer goes round the table.
        var next = forms.filter(function (f) { return cardsOf(f).length < 5; })[0];
        if (next) { chosen = next.dataset.seat; }
      }
    }
    refreshShow();
  });

  // Correcting a recorded action: choosing it puts its text in the replacement field to edit ("2 check" becomes
  // "2 bet 200" by changing a word), unless the floor has typed something of their own there.
  var filled = null;
  function fillCorrection(radio) {
    var field = document.getElementById("correct-replacement");
    if (!field || (field.value.trim() && field.value !== filled)) { return; }
    field.value = filled = radio.dataset.text || "";
  }

  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "discard") { refreshDraw(); }
    if (event.target && event.target.name === "index" && event.target.closest(".correct-form")) {
      fillCorrection(event.target);
    }
  });

  // A new section (the poll, or the answer to a tap) keeps the cards picked for hands not yet recorded, unless
  // the form just sent was that hand's.
  // Likewise a menu the dealer opened and what they are typing elsewhere (a buy-in, chips, a reason) survive a
  // poll, unless the server's own value for that field changed meanwhile.
  var kept = {};
  var fields = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    kept = {};
    fields = [];
    if (!event.detail.target || event.detail.target.id !== "home-hand-live") { return; }
    var source = event.detail.requestConfig ? event.detail.requestConfig.elt : null;
    var sent = source && source.closest ? source.closest("form") : null;
    // A hand sent for recording stays the chosen one: refused, its picks come back and the fix goes to that seat;
    // recorded, its form goes and refreshShow moves on to a hand still to be picked.
    if (sent && sent.matches("form.show-form")) { chosen = sent.dataset.seat; }
    showInputs().forEach(function (form) {
      if (form !== sent) { kept[form.dataset.seat] = cardsOf(form); }
    });
    event.detail.target.querySelectorAll("input[id], details[id]").forEach(function (el) {
      if (sent && sent.contains(el)) { return; }
      if (el.tagName === "DETAILS") {
        // (A menu opened by the server to ask a question, data-keep-open, stays open once the question is answered.)
        if (el.open !== el.hasAttribute("open") || (el.open && el.hasAttribute("data-keep-open"))) {
          fields.push({ id: el.id, open: el.open });
        }
      } else if (el.type === "radio" || el.type === "checkbox") {
        if (el.checked !== el.defaultChecked) { fields.push({ id: el.id, checked: el.checked, base: el.defaultChecked }); }
      } else if (el.type !== "hidden" && el.value !== el.defaultValue) {
        fields.push({ id: el.id, value: el.value, base: el.defaultValue });
      }
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    fields.forEach(function (saved) {
      var el = document.getElementById(saved.id);
      if (!el) { return; }
      if ("open" in saved) { el.open = saved.open; }
      else if ("checked" in saved) { if (el.defaultChecked === saved.base) { el.checked = saved.checked; } }
      else if (el.defaultValue === saved.base) { el.value = saved.value; }
    });
    fields = [];
    showInputs().forEach(function (form) {
      var cards = kept[form.dataset.seat];
      if (cards && cards.length && !cardsOf(form).length) {
        var used = cards.filter(function (c) {
          var b = document.querySelector('button.hpick[data-card="' + c + '"]');
          return b && !b.disabled;
        });
        setCards(form, used);
      }
    });
    kept = {};
    refresh();
  });
  document.addEventListener("DOMContentLoaded", refresh);

  // (The 1 s poll waits while a tap is in flight, and a poll sent before a tap is not shown: tablet.js.)
})();

// The rules are one tap away: the header's Rules button opens them in a dialog (tablet.js may already have). The
// dialog sits outside the polled section, so each answer's copy of the rules (#rules-now) refills it: a game opened
// since the page loaded, or house rules changed, show there too, even while the dialog is open.
function refillRules() {
  var now = document.getElementById("rules-now");
  var body = document.getElementById("rules-body");
  if (now && body && now.content) { body.replaceChildren(now.content.cloneNode(true)); }
}
document.addEventListener("htmx:afterSwap", function (event) {
  if (event.detail.target && event.detail.target.id === "home-hand-live") { refillRules(); }
});
document.addEventListener("click", function (event) {
  var opener = event.target.closest ? event.target.closest('[data-opens-dialog="rules-dialog"]') : null;
  var dialog = opener ? document.getElementById("rules-dialog") : null;
  if (dialog && dialog.showModal) {
    event.preventDefault();
    refillRules();
    if (!dialog.open) { dialog.showModal(); }
  }
});

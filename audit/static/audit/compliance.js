// Compliance screens: a search box for long filter lists, and the progress of a chain verification.
(function () {
  "use strict";
  // Each <select data-searchable> gets a text box that hides the options not containing what is typed.
  document.querySelectorAll("select[data-searchable]").forEach(function (select) {
    var box = document.createElement("input");
    box.type = "search";
    box.placeholder = "Search…";
    box.setAttribute("aria-label", "Search " + (select.dataset.searchable || "the list"));
    box.className = "list-search";
    select.parentNode.insertBefore(box, select);
    box.addEventListener("input", function () {
      var wanted = box.value.trim().toLowerCase();
      var first = null;
      var starts = null;
      Array.prototype.forEach.call(select.options, function (option) {
        var text = option.text.toLowerCase();
        var shown = !wanted || option.value === "" || text.indexOf(wanted) >= 0;
        option.hidden = !shown;
        if (shown && option.value !== "") {
          if (first === null) { first = option; }
          if (starts === null && text.indexOf(wanted) === 0) { starts = option; }
        }
      });
      // A name that begins with what was typed beats one that merely contains it ("round voided" picks "Round
      // voided", not "Payout refused (round voided)").
      first = starts || first;
      // The best match is chosen unless what is chosen already matches (the "any" choice never does).
      var current = select.selectedOptions.length ? select.selectedOptions[0] : null;
      if (wanted && first !== null && (current === null || current.hidden || current.value === "")) {
        select.value = first.value;
      }
    });
  });
  // The chain verification started from the screen: poll its progress until it ends, then reload the page.
  var progress = document.getElementById("verify-progress");
  if (progress && progress.dataset.url) {
    var poll = function () {
      fetch(progress.dataset.url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) { return response.json(); })
        .then(function (state) {
          var bar = progress.querySelector("progress");
          if (state.total) { bar.max = state.total; bar.value = state.checked; }
          progress.querySelector(".text").textContent = state.text;
          if (state.done) { window.location.reload(); } else { window.setTimeout(poll, 1000); }
        })
        .catch(function () { window.setTimeout(poll, 3000); });
    };
    window.setTimeout(poll, 500);
  }
})();

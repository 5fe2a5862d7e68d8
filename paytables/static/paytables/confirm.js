// Asks before a button marked data-confirm submits (an inline onclick would be refused by the CSP).
document.addEventListener("click", function (event) {
  "use strict";
  var button = event.target.closest("[data-confirm]");
  if (button && !window.confirm(button.getAttribute("data-confirm"))) {
    event.preventDefault();
  }
});

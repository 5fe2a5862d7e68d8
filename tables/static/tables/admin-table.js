// The table admin's add page: the Triple Draw limits and paytable apply to Triple Draw tables only, so they are
// hidden while a home-game type is chosen (the form ignores the limits of a home-game table and refuses a paytable).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
    const type = document.getElementById("id_table_type");
    const sets = document.querySelectorAll("fieldset.triple-draw-only");
    if (!type || type.tagName !== "SELECT" || sets.length === 0) {
        return;
    }
    const show = () => {
        sets.forEach((set) => {
            set.style.display = type.value === "triple-draw" ? "" : "none";
        });
    };
    type.addEventListener("change", show);
    show();
});

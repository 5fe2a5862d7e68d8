// House rules, add page: the options shown are those of the chosen table's game, so choosing a table reloads the page
// with ?table=<id> and the server builds that game's fields. Without scripts, saving does the same (the form asks).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
    const table = document.getElementById("id_table");
    if (!table || table.tagName !== "SELECT") {
        return;
    }
    table.addEventListener("change", () => {
        const url = new URL(window.location.href);
        if (table.value) {
            url.searchParams.set("table", table.value);
        } else {
            url.searchParams.delete("table");
        }
        window.location.assign(url.toString());
    });
});

// House rules. Add page: the options shown are those of the chosen table's game, so choosing a table reloads the page
// with ?table=<id> and the server builds that game's fields. Without scripts, saving does the same (the form asks).
// Both pages: an option of other betting structures (fixed limit's small and big bets under no limit) is hidden and
// not sent, with a note while it holds an amount; the server refuses it by name if it is sent anyway.
"use strict";

function followTableChoice() {
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
}

function structureNote(betting) {
    let note = document.getElementById("betting-note");
    if (!note) {
        note = document.createElement("p");
        note.id = "betting-note";
        note.className = "help";
        note.setAttribute("role", "status");
        betting.closest(".form-row").appendChild(note);
    }
    return note;
}

function showOnlyTheChosenStructuresOptions() {
    const betting = document.getElementById("id_rule_betting");
    if (!betting) {
        return;
    }
    const apply = () => {
        const chosen = betting.value || betting.dataset.default;
        const kept = [];
        document.querySelectorAll("[data-betting]").forEach((input) => {
            const applies = input.dataset.betting.split(" ").includes(chosen);
            const row = input.closest(".form-row") || input;
            row.style.display = applies ? "" : "none";
            input.disabled = !applies; // not sent; the amount stays in the box if the structure comes back
            if (!applies && input.value.trim() !== "") {
                const label = document.querySelector(`label[for="${input.id}"]`);
                kept.push(label ? label.textContent.replace(/:$/, "") : input.name);
            }
        });
        const label = betting.options[betting.selectedIndex].textContent.replace(/^Default \((.*)\)$/, "$1");
        const note = structureNote(betting);
        note.textContent = kept.length
            ? `${kept.join(", ")}: not part of ${label.toLowerCase()} betting, so hidden and not saved.`
            : "";
        note.hidden = kept.length === 0;
    };
    betting.addEventListener("change", apply);
    apply();
}

document.addEventListener("DOMContentLoaded", () => {
    followTableChoice();
    showOnlyTheChosenStructuresOptions();
});

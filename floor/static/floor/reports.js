// Reports page: draw each chart (Chart.js) from the same JSON the reports API serves, named by data-url.
(function () {
  "use strict";

  var GREEN = "#1b6e2f", RED = "#a4161a", GREY = "#607d8b", BAND = "rgba(27, 110, 47, 0.15)";

  function percent(value) { return value === null ? null : value * 100; }
  function dollars(cents) { return cents / 100; }

  function holdChart(canvas, data) {
    var points = data.points;
    return new Chart(canvas, {
      type: "line",
      data: {
        labels: points.map(function (p) { return p.period; }),
        datasets: [
          { label: "Band low", data: points.map(function (p) { return percent(p.hold_low); }), borderColor: BAND,
            pointRadius: 0, fill: false },
          { label: "95 % band", data: points.map(function (p) { return percent(p.hold_high); }), borderColor: BAND,
            backgroundColor: BAND, pointRadius: 0, fill: "-1" },
          { label: "Theoretical hold %", data: points.map(function (p) { return percent(p.theo_hold); }),
            borderColor: GREY, borderDash: [6, 4], pointRadius: 0, fill: false },
          { label: "Hold %", data: points.map(function (p) { return percent(p.hold); }), borderColor: GREEN,
            pointBackgroundColor: points.map(function (p) { return p.outside_band ? RED : GREEN; }), fill: false }
        ]
      },
      options: { animation: false, responsive: true, interaction: { mode: "index", intersect: false },
        scales: { y: { title: { display: true, text: "% of handle" } } },
        plugins: { legend: { labels: { filter: function (item) { return item.text !== "Band low"; } } } } }
    });
  }

  function winChart(canvas, data) {
    return new Chart(canvas, {
      type: "bar",
      data: {
        labels: data.rows.map(function (r) { return r.table; }),
        datasets: [{ label: "Win ($)", data: data.rows.map(function (r) { return dollars(r.win_cents); }),
          backgroundColor: data.rows.map(function (r) { return r.outside_band ? RED : GREEN; }) }]
      },
      options: { animation: false, responsive: true, scales: { y: { title: { display: true, text: "$" } } } }
    });
  }

  function hoursChart(canvas, data) {
    return new Chart(canvas, {
      type: "bar",
      data: {
        labels: data.hours.map(function (h) { return String(h.hour).padStart(2, "0") + ":00"; }),
        datasets: [{ label: "Handle ($)", data: data.hours.map(function (h) { return dollars(h.handle_cents); }),
          backgroundColor: GREY }]
      },
      options: { animation: false, responsive: true, scales: { y: { title: { display: true, text: "$" } } } }
    });
  }

  var DRAW = { hold: holdChart, win: winChart, hours: hoursChart };

  function draw(canvas) {
    var build = DRAW[canvas.dataset.chart];
    fetch(canvas.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) { throw new Error("the report answered " + response.status); }
        return response.json();
      })
      .then(function (data) { build(canvas, data); canvas.dataset.ready = "true"; })
      .catch(function (error) {
        var note = document.createElement("p");
        note.className = "error";
        note.textContent = "Chart unavailable: " + error.message;
        canvas.replaceWith(note);
      });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("canvas[data-chart]").forEach(draw);
  });
})();

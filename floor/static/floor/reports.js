// Reports page: draw each chart (Chart.js) from the same JSON the reports API serves, named by data-url.
(function () {
  "use strict";

  var GREEN = "#1b6e2f", RED = "#a4161a", GREY = "#607d8b", BAND = "rgba(27, 110, 47, 0.15)";
  var BAND_EDGE = "rgba(27, 110, 47, 0.6)";

  function percent(value) { return value === null ? null : value * 100; }
  function dollars(cents) { return cents / 100; }

  function holdChart(canvas, data) {
    var points = data.points;
    // One period has no line to fill between: the band's ends and the theory are drawn as bars across the point.
    var single = points.length === 1;
    var edge = single ? { pointRadius: 14, pointStyle: "line", pointBorderWidth: 3, borderColor: BAND_EDGE }
      : { pointRadius: 0, borderColor: BAND };
    return new Chart(canvas, {
      type: "line",
      data: {
        labels: points.map(function (p) { return p.period; }),
        datasets: [
          Object.assign({ label: "Band low", data: points.map(function (p) { return percent(p.hold_low); }),
            fill: false }, edge),
          Object.assign({ label: "95 % band", data: points.map(function (p) { return percent(p.hold_high); }),
            backgroundColor: BAND, fill: "-1" }, edge),
          { label: "Theoretical hold %", data: points.map(function (p) { return percent(p.theo_hold); }),
            borderColor: GREY, borderDash: [6, 4], pointRadius: single ? 10 : 0, pointStyle: "line",
            pointBorderWidth: 2, fill: false },
          { label: "Hold %", data: points.map(function (p) { return percent(p.hold); }), borderColor: GREEN,
            pointBackgroundColor: points.map(function (p) { return p.outside_band ? RED : GREEN; }), fill: false }
        ]
      },
      options: { animation: false, responsive: true, interaction: { mode: "index", intersect: false },
        scales: { x: { offset: single }, y: { title: { display: true, text: "% of handle" } } },
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

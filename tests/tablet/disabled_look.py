"""How a disabled tablet button looks, measured in the browser: its text's contrast (WCAG 2.x), its opacity and its
edge, so a test can hold it readable and unlike a live button at both tablet sizes."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, expect

from tests.tablet.conftest import SIZES

# The text's colour against the first opaque background behind it, each layer's opacity applied (WCAG's relative
# luminance); and what says "not now": the cursor, the edge, the background.
LOOK_JS = """el => {
  const rgba = text => (text.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let opacity = 1;
  for (let node = el; node; node = node.parentElement) { opacity *= Number(getComputedStyle(node).opacity); }
  let back = null;
  for (let node = el; node && !back; node = node.parentElement) {
    const colour = rgba(getComputedStyle(node).backgroundColor);
    if (colour.length === 3 || (colour.length === 4 && colour[3] === 1)) { back = colour.slice(0, 3); }
  }
  back = back || [255, 255, 255];
  const style = getComputedStyle(el);
  // Opacity blends the button's text and background into the page behind: approximated against white.
  const blend = c => c.map(v => v * opacity + 255 * (1 - opacity));
  const text = blend(rgba(style.color).slice(0, 3));
  const shown = blend(back);
  const [hi, lo] = [lum(text), lum(shown)].sort((a, b) => b - a);
  return {contrast: (hi + 0.05) / (lo + 0.05), opacity, cursor: style.cursor, edge: style.borderTopStyle,
          background: style.backgroundColor};
}"""

FELT = "rgb(11, 61, 46)"  # a live primary button's background


def assert_disabled_readable(page: Any, button: Locator) -> None:
    """The disabled button's text reads at 4.5:1 or better and it looks not tappable, at 1280x800 and 800x1280."""
    expect(button).to_be_disabled()
    original = page.viewport_size
    for size in SIZES.values():
        page.set_viewport_size(size)
        button.scroll_into_view_if_needed()
        look = button.evaluate(LOOK_JS)
        assert look["contrast"] >= 4.5, look
        assert look["opacity"] == 1, look
        assert (look["cursor"], look["edge"]) == ("not-allowed", "dashed"), look
        assert look["background"] != FELT, look
    page.set_viewport_size(original)

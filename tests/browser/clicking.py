"""A participant who plays by clicks alone (issue 30 item 7): each choice picked in its select,
radio button or drawn control, each form sent by its button; nothing typed. Each page they are
shown is held to what accessibility.py checks (axe-core, weight, one read)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from accessibility import MOST_BYTES, Reads, serious_violations, weight
from browsing import appears, waiting
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from test_pages import Player

TO_CLICK = """
const [id, value] = arguments, field = document.getElementById(id);
if (field === null) { throw new Error(`no field ${id}`); }
if (field.tagName !== 'SELECT') { return field.value === value && field.checked ? null : field; }
const option = Array.from(field.options).find((one) => one.value === value);
if (!option) { throw new Error(`${id} has no option ${value}`); }
if (option.disabled) { throw new Error(`${id}'s option ${value} is disabled`); }
return option.selected ? null : option;
"""
"""The element a click picks `value` with in the field `id`: its option (a select), the radio
button or check box itself; null when already picked. Refused as Selenium's Select refuses."""


@dataclass
class Checks:
    """What every page looked at must hold, and what it found wrong (page -> axe's violations)."""

    axe: str
    reads: Reads
    found: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def look(self, driver: Any, page: str) -> None:
        """axe-core's serious and critical violations on the page shown, and its weight."""
        said = serious_violations(driver, self.axe)
        if said:
            self.found[page] = said
        total, loaded = weight(driver)
        assert total < MOST_BYTES, (page, loaded)


class Clicker(Player):
    """A participant signed in by their own link, playing by clicks."""

    def view(self, checks: Checks | None = None, page: str = "") -> str:
        """Their page freshly loaded (one store read, counted), its phase's name; looked at by
        `checks` when given."""
        if checks is not None:
            checks.reads.taken()
        shown = self.show().text
        if checks is not None:
            taken = checks.reads.taken()
            assert sum(taken.values()) == 1, (page, taken)  # one read of the store a view
            checks.look(self.driver, page)
        return str(shown)

    def choose(self, form_id: str, chosen: dict[str, str]) -> None:
        """Pick each field's option (by the field's path, "pushes.0.crate", and the option's value)
        by a click on it, as Selenium's Select does; what to click found in one round trip."""
        for path, value in chosen.items():
            target = self.driver.execute_script(TO_CLICK, f"{form_id}-{path.replace('.', '-')}", value)
            if target is not None:
                target.click()

    def click(self, by: str, locator: str) -> None:
        self.driver.find_element(by, locator).click()

    def click_drawn(self, selector: str) -> None:
        """A click on a drawn card's face (its `rect`: chromedriver places a pointer on an SVG
        group amiss), scrolled into view first."""
        face = self.driver.find_element(By.CSS_SELECTOR, f"{selector} > rect")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", face)
        ActionChains(self.driver).move_to_element(face).click().perform()

    def send_by(self, button_id: str, verdict: str) -> Any:
        """Once the check's verdict (element `verdict`) says legal, the move sent by a drawn
        control's button; the next page's notice (or reasons)."""
        appears(self.driver, By.CSS_SELECTOR, f"#{verdict}[data-legal='true']")
        return self._leave(lambda: self.driver.find_element(By.ID, button_id).click())

    def _leave(self, act: Any) -> Any:
        """`act` (a click that sends a form), then the next page's notice or reasons."""
        self.driver.execute_script("window.leaving = true")  # gone with this page: the next has none
        act()
        waiting(self.driver).until(lambda driver: driver.execute_script("return window.leaving === undefined"))
        return appears(self.driver, By.CSS_SELECTOR, "#notice, #reasons")

    def submit(
        self, form_id: str, chosen: dict[str, str] | None = None, checked: bool = False, legal: str = "true"
    ) -> Any:
        """Pick `chosen`, send the form by its button; the next page's notice (or reasons).
        `checked`: the form was filled on the drawing, its check awaited as for a choice, until it
        says `legal` ("true", or "false" for a move sent to be refused)."""
        self.choose(form_id, chosen or {})
        if (chosen or checked) and form_id.startswith("move-"):
            # The page's check of the move as chosen says it is legal before it is sent (and no
            # check is left in flight to be counted as the next view's read).
            appears(self.driver, By.CSS_SELECTOR, f"#{form_id}-check[data-legal='{legal}']")
        return self._leave(lambda: self.driver.find_element(By.CSS_SELECTOR, f"#{form_id} button[type=submit]").click())

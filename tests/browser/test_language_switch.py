"""The language switcher in the page header, on a phone: a 44 px tap turns the page into
Japanese and back, the choice outlives the page, and the header still fits 390 px."""

from playwright.sync_api import Page, expect

PHONE = {"width": 390, "height": 844}


def header_problems(page: Page) -> list[str]:
    return page.evaluate(
        """() => {
          const problems = [];
          for (const el of document.querySelectorAll("header a[href], header button")) {
            const r = el.getBoundingClientRect();
            if (r.height < 43.5 || r.width < 43.5) {
              problems.push(`small target ${Math.round(r.width)}x${Math.round(r.height)}: ${
                el.textContent.trim()}`);
            }
            if (r.right > document.documentElement.clientWidth + 1) {
              problems.push(`off the screen: ${el.textContent.trim()}`);
            }
          }
          return problems;
        }"""
    )


def test_a_phone_switches_to_japanese_and_back_and_the_choice_is_kept(
    live_server, page: Page, tmp_path
):
    page.set_viewport_size(PHONE)
    page.goto("/players/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    switch = page.locator(".language-switch button", has_text="日本語")
    box = switch.bounding_box()
    assert box["height"] >= 43.5 and box["width"] >= 43.5

    switch.click()
    page.wait_for_url("**/players/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator(".site-nav")).to_contain_text("ログイン")
    assert header_problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(tmp_path / "header-ja.png"))

    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")

    page.locator(".language-switch button", has_text="English").click()
    page.wait_for_url(f"{live_server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".site-nav")).to_contain_text("Log in")


def test_a_japanese_browser_gets_japanese_at_once(live_server, browser):
    context = browser.new_context(locale="ja-JP", viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator(".language-switch button")).to_have_text("English")
    context.close()

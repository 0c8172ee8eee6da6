PHONE_WIDTH = 390


def test_home_page_fits_a_phone_screen(live_server, page, tmp_path):
    page.set_viewport_size({"width": PHONE_WIDTH, "height": 844})

    response = page.goto("/")

    assert response is not None and response.ok
    assert "Tenbou" in page.title()
    assert page.locator("header .brand").inner_text() == "Tenbou"
    # The stylesheet loaded: the header carries the table-green background.
    background = page.locator("header").evaluate("el => getComputedStyle(el).backgroundColor")
    assert background == "rgb(31, 111, 92)"
    # Nothing wider than the phone, so no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH

    screenshot = tmp_path / "home-phone.png"
    page.screenshot(path=str(screenshot), full_page=True)
    assert screenshot.stat().st_size > 0

"""Browser test of the sticker editor: brush strokes, undo, a caption, kept across a restart.

usage: test_editor.py STICKERS_BIN APOD_URL UPLOADS_DIR WORK_DIR
Starts its own `stickers serve --preview` (test_library's Server) over a fresh library in WORK_DIR,
uploads and processes a photo, opens its editor, paints an erase stroke, undoes it, paints again
and saves; adds a caption; restarts the server and checks the sticker, its strokes and the ZIP
download still have the edit and the caption. Needs Pillow (run.sh installs it) and tesseract.
"""
import io
import shutil
import subprocess
import tempfile
import urllib.request
import zipfile

from PIL import Image, ImageOps
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import run_tests
from test_library import Server, image_loaded, upload_and_process, wait

PHOTO = "cat.jpg"


def fetch(url):
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read()


def opaque_box(png):
    """The sticker's size and the box of its opaque pixels."""
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    return image.size, image.getchannel("A").point(lambda a: 255 if a > 128 else 0).getbbox()


def read_text(png, band):
    """What tesseract reads in the sticker's bottom `band` rows (the caption's): composited on its
    stroke's colour (black) and inverted, dark letters on white, as TestSupport's OCR does."""
    if not shutil.which("tesseract"):
        return None
    sticker = Image.open(io.BytesIO(png)).convert("RGBA")
    sticker = sticker.crop((0, sticker.height - band, sticker.width, sticker.height))
    page = Image.new("RGBA", sticker.size, (0, 0, 0, 255))
    page.alpha_composite(sticker)
    with tempfile.NamedTemporaryFile(suffix=".png") as file:
        ImageOps.invert(page.convert("RGB")).save(file.name)
        return subprocess.run(["tesseract", file.name, "-", "--psm", "6"], capture_output=True, text=True).stdout


def open_editor(driver):
    driver.find_element(By.CSS_SELECTOR, ".card[data-status='processed'] button.edit").click()
    return wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.editor[data-ready='true']"), "the editor did not open")


def paint(driver, canvas):
    """One erase stroke: a zigzag over the canvas's left half (one press, many moves)."""
    width, height = canvas.size["width"], canvas.size["height"]
    actions = ActionChains(driver, duration=10)
    actions.move_to_element_with_offset(canvas, -width // 2 + 4, -height // 2 + 4).click_and_hold()
    x = 4
    while x < width // 2:
        actions.move_by_offset(0, height - 8).move_by_offset(30, 0).move_by_offset(0, -(height - 8)).move_by_offset(30, 0)
        x += 60
    actions.release().perform()


def canvas_of(dialog):
    return dialog.find_element(By.CSS_SELECTOR, "canvas")


def strokes_shown(driver):
    return driver.find_element(By.CSS_SELECTOR, "dialog.editor canvas").get_attribute("data-strokes")


def test_an_edit_survives_a_restart_and_is_in_the_download(driver):
    server = Server()
    try:
        upload_and_process(driver, server, [PHOTO])
        photo_id = driver.find_element(By.CSS_SELECTOR, ".card").get_attribute("data-id")
        sticker_url = f"{server.url}/api/stickers/photos/{photo_id}/sticker.png"
        (width, _), _ = opaque_box(fetch(sticker_url))

        dialog = open_editor(driver)
        canvas = dialog.find_element(By.CSS_SELECTOR, "canvas")
        size = dialog.find_element(By.CSS_SELECTOR, "input[name='brush-size']")
        driver.execute_script("arguments[0].value = 120; arguments[0].dispatchEvent(new Event('input'));", size)
        paint(driver, canvas)
        wait(driver, lambda d: strokes_shown(d) == "1", "the stroke was not painted")
        dialog.find_element(By.CSS_SELECTOR, "button.editor-undo").click()
        wait(driver, lambda d: strokes_shown(d) == "0", "undo did not take the stroke back")
        canvas.send_keys(Keys.CONTROL, Keys.SHIFT, "z")
        wait(driver, lambda d: strokes_shown(d) == "1", "Ctrl+Shift+Z did not redo the stroke")
        canvas.send_keys(Keys.CONTROL, "z")
        wait(driver, lambda d: strokes_shown(d) == "0", "Ctrl+Z did not undo the stroke")
        paint(driver, canvas)
        wait(driver, lambda d: strokes_shown(d) == "1", "the stroke was not painted again")
        dialog.find_element(By.CSS_SELECTOR, "button.editor-save").click()
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.editor"), "the editor did not close on Save")

        edited = fetch(sticker_url)
        (edited_width, edited_height), _ = opaque_box(edited)
        # The left half of the photo is erased: the sticker keeps the right part of the subject.
        assert edited_width < width * 0.85, f"the sticker is not narrower: {width} → {edited_width}"

        dialog = open_editor(driver)
        wait(driver, lambda d: strokes_shown(d) == "1", "the saved stroke is not shown when the editor opens again")
        # "Tap a subject" on what is left: the subject there is cut out (kept by the first look here).
        dialog.find_element(By.CSS_SELECTOR, "input[name='editor-tool'][value='pick']").click()
        ActionChains(driver).move_to_element_with_offset(canvas_of(dialog), canvas_of(dialog).size["width"] // 4, 0).click().perform()
        wait(driver, lambda d: dialog.find_element(By.CSS_SELECTOR, ".editor-status").text == "Subject chosen.",
             "the tap did not choose the subject")
        dialog.find_element(By.CSS_SELECTOR, "input[name='caption']").send_keys("HELLO")
        dialog.find_element(By.CSS_SELECTOR, "button.editor-save").click()
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.editor"), "the editor did not close on Save")
        captioned = fetch(sticker_url)
        (_, captioned_height), _ = opaque_box(captioned)
        assert captioned_height > edited_height, f"no caption band: {edited_height} → {captioned_height}"
        text = read_text(captioned, band=captioned_height - edited_height)
        assert text is None or "HELLO" in text.upper(), f"the caption reads {text!r}"
    finally:
        server.interrupt()

    server = Server()
    try:
        driver.get(server.url + "/")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".card[data-status='processed']"),
             "the processed photo is not shown after the restart")
        image = driver.find_element(By.CSS_SELECTOR, ".card img.sticker")
        wait(driver, lambda d: image_loaded(d, image), "the sticker image is missing after the restart")
        assert fetch(f"{server.url}/api/stickers/photos/{photo_id}/sticker.png") == captioned, \
            "the sticker after the restart is not the edited, captioned one"
        dialog = open_editor(driver)
        wait(driver, lambda d: strokes_shown(d) == "1", "the stroke is gone after the restart")
        assert dialog.find_element(By.CSS_SELECTOR, "input[name='caption']").get_attribute("value") == "HELLO"
        dialog.find_element(By.CSS_SELECTOR, "button.editor-cancel").click()
        pack = zipfile.ZipFile(io.BytesIO(fetch(f"{server.url}/api/stickers/pack.zip")))
        stickers = [name for name in pack.namelist() if name.endswith(".sticker.png")]
        assert len(stickers) == 1 and pack.read(stickers[0]) == captioned, "the ZIP download lacks the edit"
    finally:
        server.interrupt()


if __name__ == "__main__":
    run_tests(globals())

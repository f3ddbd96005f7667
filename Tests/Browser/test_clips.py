"""Browser test of clips in `stickers serve`: upload a clip, see its animated sticker play in the
card, download its Telegram pack (WebM video stickers), in headless Chromium through Selenium.

usage: test_clips.py URL UPLOADS_DIR SCREENSHOT_DIR   (UPLOADS_DIR holds disc.mp4, made by run.sh)
Prints one line per test and a closing "N passed, N failed"; exits 1 on any failure.
"""
import base64
import io
import json
import os
import subprocess
import tempfile
import zipfile

from selenium.webdriver.common.by import By

from harness import run_tests
from test_web import URL, UPLOADS, cards, fresh_page, image_loaded, upload, wait

FETCH_BYTES = """
const [url, done] = arguments;
fetch(url).then(async r => {
  const bytes = new Uint8Array(await r.arrayBuffer());
  let text = ""; for (const b of bytes) text += String.fromCharCode(b);
  done({status: r.status, type: r.headers.get("Content-Type"), body: btoa(text)});
});
"""

def fetch(driver, url):
    answer = driver.execute_async_script(FETCH_BYTES, url)
    return answer["status"], answer["type"], base64.b64decode(answer["body"])


def test_a_clip_plays_as_an_animated_sticker_and_its_telegram_pack_downloads(driver):
    if not os.path.exists(os.path.join(UPLOADS, "disc.mp4")):
        raise AssertionError("no test clip: run.sh makes disc.mp4 with ffmpeg")
    fresh_page(driver)
    upload(driver, "disc.mp4")
    wait(driver, lambda d: len(cards(d, "pending")) == 1, "the uploaded clip is not shown as pending")
    driver.find_element(By.ID, "process").click()
    processed = wait(driver, lambda d: cards(d, "processed"),
                     lambda d: "the clip was not made: " + " ".join(c.text for c in d.find_elements(By.CSS_SELECTOR, ".card")))
    sticker = processed[0].find_element(By.CSS_SELECTOR, "img.sticker")
    assert sticker.get_attribute("src").endswith("/sticker.webp"), sticker.get_attribute("src")
    wait(driver, lambda d: image_loaded(d, sticker), "the animated sticker did not render")

    # The served file is an animated WebP of several frames.
    status, kind, body = fetch(driver, sticker.get_attribute("src"))
    assert status == 200 and kind == "image/webp", (status, kind)
    assert body[:4] == b"RIFF" and body[8:16] == b"WEBPVP8X" and body[20] & 0x02, "not an animated WebP"
    assert body.count(b"ANMF") > 1, f"{body.count(b'ANMF')} frame(s)"

    # It plays: two screenshots of the <img> taken apart differ (in view: Chromium pauses the
    # animations of images off screen; a canvas's drawImage would give the first frame only).
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", sticker)
    first = sticker.screenshot_as_png
    wait(driver, lambda d: sticker.screenshot_as_png != first, "the sticker does not move")

    # The carousel plays it too.
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".carousel-item[data-centred] img").get_attribute("src").endswith("sticker.webp"),
         "the carousel does not show the animation")

    # "Download pack" is on for a clip alone: the plain pack holds its animated WebP, the card's.
    pack = driver.find_element(By.ID, "download")
    wait(driver, lambda d: "disabled" not in pack.get_attribute("class"), "the pack is not offered for a clip")
    status, kind, zipped = fetch(driver, pack.get_attribute("href"))
    assert status == 200 and kind == "application/zip", (status, kind, zipped[:200])
    assert zipfile.ZipFile(io.BytesIO(zipped)).read("disc.sticker.webp") == fetch(driver, sticker.get_attribute("src"))[2]

    # The download menu's Telegram (animated) item is offered and gives a ZIP of VP9 WebMs with alpha.
    driver.find_element(By.CSS_SELECTOR, "#download-for summary").click()
    link = driver.find_element(By.ID, "download-telegram-animated")
    wait(driver, lambda d: link.is_displayed() and "disabled" not in link.get_attribute("class"),
         "the Telegram (animated) pack is not offered")
    status, kind, body = fetch(driver, link.get_attribute("href"))
    assert status == 200 and kind == "application/zip", (status, kind, body[:200])
    archive = zipfile.ZipFile(io.BytesIO(body))
    webms = [n for n in archive.namelist() if n.endswith(".webm")]
    assert webms == ["disc.webm"], archive.namelist()
    with tempfile.NamedTemporaryFile(suffix=".webm") as f:
        f.write(archive.read(webms[0]))
        f.flush()
        probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-of", "json", f.name],
                                          capture_output=True, text=True, check=True).stdout)
    stream = probe["streams"][0]
    assert stream["codec_name"] == "vp9", stream
    assert stream.get("tags", {}).get("alpha_mode") == "1" or stream.get("tags", {}).get("ALPHA_MODE") == "1", stream.get("tags")
    assert max(stream["width"], stream["height"]) == 512, (stream["width"], stream["height"])


if __name__ == "__main__":
    run_tests(globals())

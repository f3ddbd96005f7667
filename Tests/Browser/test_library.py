"""Browser test of the library: what the web app shows survives a restart.

usage: test_library.py STICKERS_BIN APOD_URL UPLOADS_DIR WORK_DIR
Starts its own `stickers serve --preview` over a fresh library in WORK_DIR, uploads and processes
photos, extracts and favourites a colour scheme, stops the server with SIGINT (Ctrl-C), starts it
again over the same library and checks that the page shows all of it. Prints one line per test and
"N passed, N failed"; exits 1 on any failure.
"""
import os
import re
import signal
import subprocess
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from harness import run_tests

BIN, APOD, UPLOADS, WORK = sys.argv[1:5]
WAIT = 30  # seconds: an upper bound for a slow shared machine, never a performance assertion


class Server:
    """`stickers serve` over the library in WORK/data; `url` once it listens."""

    def __init__(self):
        self.log = open(os.path.join(WORK, "library-server.log"), "ab")
        self.process = subprocess.Popen(
            [BIN, "serve", "--preview", "--host", "127.0.0.1", "--port", "0",
             "--data-dir", os.path.join(WORK, "data"), "--cache-dir", os.path.join(WORK, "cache"),
             "--catalog-api", APOD, "--catalog-api-key", "browser-tests"],
            stdout=subprocess.PIPE, stderr=self.log)
        line = self.process.stdout.readline().decode()
        match = re.match(r"Serving on (http://\S+)", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"server did not start: {line!r}")
        self.url = match.group(1)

    def interrupt(self):
        """Ctrl-C: SIGINT, then wait for it to exit."""
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("the server did not stop on SIGINT")


def wait(driver, condition, message):
    return WebDriverWait(driver, WAIT).until(lambda d: condition(d), message)


def image_loaded(driver, image):
    return driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0;", image)


def upload_and_process(driver, server, names):
    """Opens the page on an empty library, uploads the photos `names` (in UPLOADS) and processes
    them; returns once every one is processed."""
    driver.get(server.url + "/")
    wait(driver, lambda d: d.find_element(By.ID, "progress-text").text == "No photos yet", "page did not load")
    field = driver.find_element(By.ID, "upload")
    driver.execute_script("arguments[0].hidden = false;", field)
    field.send_keys("\n".join(os.path.join(UPLOADS, name) for name in names))
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".card")) == len(names), "uploads not added")
    driver.find_element(By.ID, "process").click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".card[data-status='processed']")) == len(names),
         "photos not processed")


def test_everything_is_still_there_after_a_restart(driver):
    server = Server()
    try:
        upload_and_process(driver, server, ["sunset.png", "cat.jpg"])
        names = sorted(n.text for n in driver.find_elements(By.CSS_SELECTOR, ".card .name"))

        driver.find_element(By.ID, "tab-button-colors").click()
        wait(driver, lambda d: d.find_elements(By.ID, "colors-extract"), "colors tab not built")
        colors = driver.find_element(By.ID, "colors-upload")
        driver.execute_script("arguments[0].hidden = false;", colors)
        colors.send_keys(os.path.join(UPLOADS, "sunset.png"))
        wait(driver, lambda d: d.find_element(By.ID, "colors-photo-name").text == "Photo: sunset", "photo not chosen")
        driver.find_element(By.ID, "colors-extract").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#colors-history li[data-id]"), "no history")
        history = driver.find_elements(By.CSS_SELECTOR, "#colors-history li[data-id]")
        scheme = history[0].get_attribute("data-id")
        history[0].find_element(By.CSS_SELECTOR, "button.favorite").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#colors-favorites li[data-id]"), "favourite not added")
    finally:
        server.interrupt()

    server = Server()
    try:
        driver.get(server.url + "/")
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".card[data-status='processed']")) == 2,
             "the processed photos are not shown after the restart")
        assert sorted(n.text for n in driver.find_elements(By.CSS_SELECTOR, ".card .name")) == names
        for image in driver.find_elements(By.CSS_SELECTOR, ".card img.sticker"):
            wait(driver, lambda d: image_loaded(d, image), "a sticker image is missing after the restart")
        driver.find_element(By.ID, "tab-button-colors").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"#colors-history li[data-id='{scheme}']"),
             "the colour history is gone after the restart")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"#colors-favorites li[data-id='{scheme}']"),
             "the favourite is gone after the restart")
    finally:
        server.interrupt()


if __name__ == "__main__":
    run_tests(globals())

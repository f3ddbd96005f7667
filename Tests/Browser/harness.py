"""What every browser-test file shares: the headless Chromium driver and the runner that calls each
test_* function once, prints ok/FAIL lines and the closing 'N passed, N failed' line CI reads, and
keeps a screenshot of each failure in /tmp."""
import os
import shutil
import sys
import tempfile
import traceback

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


# Chromium's own temporary folders (its profile, its singleton socket's folder) go here and are
# removed with it: quit() ends Chromium before it cleans up, and each run left one in /tmp.
SCRATCH = tempfile.mkdtemp(prefix="stickers-browser-")


def make_driver():
    # Paths given explicitly: otherwise Selenium Manager tries the network.
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900"):
        options.add_argument(argument)
    options.add_argument(f"--user-data-dir={os.path.join(SCRATCH, 'profile')}")
    service = Service("/usr/bin/chromedriver", env={**os.environ, "TMPDIR": SCRATCH})
    return webdriver.Chrome(service=service, options=options)


def run_tests(namespace):
    """Runs the test_* functions of `namespace` (a module's globals()) in order; exits 1 if any fails."""
    tests = [(name, f) for name, f in namespace.items() if name.startswith("test_") and callable(f)]
    passed = failed = 0
    try:
        driver = make_driver()
    except Exception:
        traceback.print_exc()
        shutil.rmtree(SCRATCH, ignore_errors=True)
        print(f"0 passed, {len(tests)} failed")
        sys.exit(1)
    try:
        for name, test in tests:
            try:
                test(driver)
                passed += 1
                print(f"ok   {name}", flush=True)
            except Exception:
                failed += 1
                print(f"FAIL {name}", flush=True)
                traceback.print_exc()
                try:
                    driver.save_screenshot(os.path.join("/tmp", f"failed-{name}.png"))
                except Exception:
                    pass
    finally:
        driver.quit()
        shutil.rmtree(SCRATCH, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)

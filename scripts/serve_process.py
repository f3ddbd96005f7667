"""The `stickers serve` process the web scripts (load_web.py, soak_serve.py) drive: built or given,
started on a free 127.0.0.1 port with its output in a log file, stopped at the end."""
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def stickers_binary(given):
    """The executable given, else swift build's (built now)."""
    if given:
        return given
    subprocess.run(["swift", "build", "--product", "stickers"], cwd=ROOT, check=True)
    bin_dir = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    return os.path.join(bin_dir, "stickers")


def start(binary, arguments, log_path, env=None):
    """Starts `stickers serve --host 127.0.0.1 --port 0 ARGUMENTS`; returns (process, port, log).
    Exits the script with the server's output if it does not say where it listens within 60 s."""
    log = open(log_path, "w+")
    server = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0"] + arguments,
                              stdout=log, stderr=subprocess.STDOUT, env=env)
    for _ in range(600):
        log.seek(0)
        found = re.search(r"Serving on http://127\.0\.0\.1:(\d+)", log.read())
        if found:
            return server, int(found.group(1)), log
        if server.poll() is not None:
            break
        time.sleep(0.1)
    log.seek(0)
    output = log.read()
    stop(server, log)
    sys.exit("the server did not start:\n" + output)


def stop(server, log):
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()

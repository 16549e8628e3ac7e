#!/usr/bin/env python3
"""signd's web page as its users meet it: Debian's headless chromium, driven by Selenium,
and plain HTTP clients (urllib, websocket-client) for what a browser would not do.

  web-peer.py page URL --shm NAME [--screenshots DIR] [--playlists A,B]
      The page loads without console errors; Send changes the board (on the shm framebuffer)
      and the live picture then holds the same pixels; the brightness slider (by keyboard),
      the display switch, the playlist select and Next, and Notify take effect (status).
  web-peer.py login URL --token-file FILE
      The page asks for the token; a wrong one is refused, the right one logs in and the
      live picture comes.
  web-peer.py refusals URL --token-file FILE
      Without the token every API route is 401 (the WebSocket too); with it a cross-site form
      post is refused (403 by its Origin, 415 by its type); too many wrong logins get 429
      from that address, and the right token from another address still logs in.

  web-peer.py metrics URL --token-file FILE
      GET /metrics refused without the token; with it, parsed by prometheus_client's parser
      and compared with status.

  web-peer.py slowloris URL --token-file FILE [--connections 70] [--addresses 14] [--seconds 12]
      CONNECTIONS clients without a token, from ADDRESSES loopback addresses of their own,
      each trickling a request one byte a second and reconnecting whenever signd closes it,
      while the owner, from another address, asks for status once a second with the token
      and with a session cookie: every answer the owner gets must be 200, and no trickling
      connection may be held much past the head's limit.

Prints what it checked; exits 1 on the first check that fails. Sends only to the URL given
(a loopback address).
"""
import argparse
import importlib.util
import json
import os
import signal
import sys
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shm_module():
    spec = importlib.util.spec_from_file_location("shm_read", os.path.join(ROOT, "tools", "shm-read.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fail(message):
    print("FAILED:", message, flush=True)
    sys.exit(1)


def ok(message):
    print("ok:", message, flush=True)


def wait_for(what, predicate, timeout=10.0, interval=0.05):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        last = predicate()
        if last:
            return last
        time.sleep(interval)
    fail(f"{what} (waited {timeout:.0f} s)")


def http(url, method="GET", body=None, headers=None):
    """(status, headers, body bytes) of one request, errors included."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def status(url, token=None):
    headers = {"Authorization": "Bearer " + token} if token else {}
    code, _, body = http(url + "/api/status", headers=headers)
    if code != 200:
        fail(f"GET /api/status answered {code}")
    return json.loads(body)


def browser(width=1280, height=800):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--disable-extensions", "--disable-background-networking",
                     "--hide-scrollbars", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def console_errors(driver):
    return [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def visible(driver, element_id):
    return driver.execute_script(f"const e = document.getElementById('{element_id}'); return !!e && !e.hidden;")


def live_frame(driver):
    """The newest frame the page received: (number, width, height, bytes) or None."""
    got = driver.execute_script(
        "const f = window.signdLive; return f ? [f.number, f.width, f.height, Array.from(f.pixels)] : null;")
    if not got:
        return None
    return got[0], got[1], got[2], bytes(got[3])


def screenshot(driver, directory, name, width, height, mobile):
    # A desktop window cannot be made phone-narrow; the browser's device emulation can.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    time.sleep(0.8)  # a few live frames at the new size
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth;")
    if overflow > 0:
        fail(f"at {width} px wide the page is {overflow} px wider than the screen")
    path = os.path.join(directory, name)
    driver.save_screenshot(path)
    ok(f"screenshot {path} at {width}x{height}, nothing wider than the screen")


def check_page(args):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    shm = shm_module()
    buf, _ = shm.open_framebuffer(args.shm)
    driver = browser()
    try:
        started = time.monotonic()
        driver.get(args.url + "/")
        wait_for("the page shows the controls", lambda: visible(driver, "app"))
        wait_for("the live picture connects", lambda: driver.find_element(By.ID, "link").text == "live")
        wait_for("a live frame arrives", lambda: live_frame(driver))
        timing = driver.execute_script(
            "const n = performance.getEntriesByType('navigation')[0];"
            "const r = performance.getEntriesByType('resource');"
            "return [n.domContentLoadedEventEnd, n.loadEventEnd,"
            " n.encodedBodySize + r.reduce((a, e) => a + e.encodedBodySize, 0), r.length + 1];")
        ok(f"page loaded and live in {time.monotonic() - started:.2f} s (DOMContentLoaded {timing[0]:.0f} ms, "
           f"load {timing[1]:.0f} ms, {timing[2]} bytes in {timing[3]} files)")
        errors = console_errors(driver)
        if errors:
            fail(f"console errors on load: {errors}")
        ok("no console errors on load")
        said = status(args.url)
        shown = driver.find_element(By.ID, "version").text
        if shown != f"signd {said['version']} (commit {said['commit']})":
            fail(f"the page shows {shown!r}, not the version and commit status gives")
        ok(f"the page names the build: {shown}")

        before = shm.read_stable(buf)[1]
        field = driver.find_element(By.ID, "text")
        field.clear()
        field.send_keys("WEB 42")
        driver.find_element(By.CSS_SELECTOR, "#text-form button").click()
        wait_for("Send changes the board (shm framebuffer)", lambda: shm.read_stable(buf)[1] != before)
        ok("Send changed the board")
        # The board holds still (a text layer), so the live picture must settle on the same pixels.
        def matches():
            header, pixels = shm.read_stable(buf)
            frame = live_frame(driver)
            return frame is not None and frame[3] == pixels and (frame[1], frame[2]) == (header["width"], header["height"])
        wait_for("the live picture holds the board's pixels", matches, timeout=5)
        if status(args.url)["text"] != "WEB 42":
            fail("status does not show the text sent")
        ok("the live picture's pixels equal the shm frame's, and status shows the text")

        slider = driver.find_element(By.ID, "brightness")
        slider.send_keys(Keys.HOME)
        wait_for("the brightness slider (Home key) takes the board to 0", lambda: status(args.url)["brightness"] == 0)
        slider.send_keys(Keys.END)
        wait_for("the brightness slider (End key) takes the board to 1", lambda: status(args.url)["brightness"] == 1)
        ok("brightness slider works from the keyboard")

        switch = driver.find_element(By.ID, "display")
        switch.click()
        wait_for("the display switch turns the display off", lambda: status(args.url)["display"] == "off")
        wait_for("the shm frame goes black", lambda: not any(shm.read_stable(buf)[1]))
        wait_for("the page says the display is off", lambda: visible(driver, "board-off"))
        switch.click()
        wait_for("the display switch turns it on again", lambda: status(args.url)["display"] == "on")
        ok("display switch works")

        if args.playlists:
            names = args.playlists.split(",")
            select = Select(driver.find_element(By.ID, "playlist"))
            wait_for("the playlist select lists the playlists",
                     lambda: [o.get_attribute("value") for o in select.options] == names)
            select.select_by_value(names[1])
            wait_for(f"selecting {names[1]} plays it",
                     lambda: (status(args.url)["playlist"] or {}).get("name") == names[1])
            index = status(args.url)["playlist"]["index"]
            driver.find_element(By.ID, "next").click()
            wait_for("Next moves to the next item", lambda: status(args.url)["playlist"]["index"] != index)
            ok("playlist select and Next work")

        notify = driver.find_element(By.ID, "notify")
        notify.send_keys("Order 7 ready")
        notify.send_keys(Keys.ENTER)
        wait_for("Notify shows a notification",
                 lambda: (status(args.url)["notification"] or {}).get("text") == "Order 7 ready")
        ok("notify works (sent with the Enter key)")

        # The narrowest phones in use: nothing may stick out at 360 px.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        time.sleep(0.3)
        overflow = driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;")
        if overflow > 0:
            fail(f"at 360 px wide the page is {overflow} px wider than the screen")
        ok("at 360 px wide nothing is wider than the screen")
        if args.screenshots:
            os.makedirs(args.screenshots, exist_ok=True)
            screenshot(driver, args.screenshots, "web-phone.png", 390, 844, True)
            screenshot(driver, args.screenshots, "web-desktop.png", 1280, 800, False)
        errors = console_errors(driver)
        if errors:
            fail(f"console errors: {errors}")
        ok("no console errors at the end")
    finally:
        driver.quit()


def check_login(args):
    from selenium.webdriver.common.by import By

    token = open(args.token_file).read().strip()
    driver = browser()
    try:
        driver.get(args.url + "/")
        wait_for("the page asks for the token", lambda: visible(driver, "login"))
        if visible(driver, "app"):
            fail("the controls show before logging in")
        field = driver.find_element(By.ID, "token")
        field.send_keys("not-the-token-at-all")
        driver.find_element(By.CSS_SELECTOR, "#login-form button").click()
        wait_for("a wrong token is refused", lambda: driver.find_element(By.ID, "login-error").text != "")
        if visible(driver, "app"):
            fail("a wrong token showed the controls")
        ok(f"wrong token refused: {driver.find_element(By.ID, 'login-error').text!r}")
        field.clear()
        field.send_keys(token)
        driver.find_element(By.CSS_SELECTOR, "#login-form button").click()
        wait_for("the right token logs in", lambda: visible(driver, "app"))
        wait_for("the live picture connects after logging in", lambda: live_frame(driver))
        ok("the right token logs in; the live picture comes")
        cookies = driver.get_cookies()
        session = [c for c in cookies if c["name"] == "signd_session"]
        if not session or not session[0].get("httpOnly") or session[0].get("sameSite") != "Strict":
            fail(f"the session cookie is not HttpOnly and SameSite=Strict: {cookies}")
        ok("the session cookie is HttpOnly, SameSite=Strict")
        errors = [e for e in console_errors(driver) if "401" not in e.get("message", "")]
        if errors:
            fail(f"console errors: {errors}")
        ok("no console errors but the 401s of the refused token")
    finally:
        driver.quit()


def check_refusals(args):
    import websocket

    token = open(args.token_file).read().strip()
    url = args.url
    json_headers = {"Content-Type": "application/json"}
    for method, path, body in (("GET", "/api/status", None), ("GET", "/api/frame.png", None),
                               ("POST", "/api/cmd", b'{"cmd":"ping"}'), ("POST", "/api/logout", b"{}")):
        code, headers, _ = http(url + path, method, body, json_headers if body else {})
        if code != 401:
            fail(f"{method} {path} without a token answered {code}, not 401")
        if "default-src 'none'" not in (headers.get("Content-Security-Policy") or ""):
            fail(f"{method} {path}: no Content-Security-Policy")
    try:
        websocket.create_connection(url.replace("http://", "ws://") + "/api/live", timeout=5)
        fail("the live WebSocket opened without a token")
    except websocket.WebSocketBadStatusException as error:
        if error.status_code != 401:
            fail(f"the live WebSocket without a token answered {error.status_code}, not 401")
    ok("without the token every API route answers 401, the WebSocket too")

    bearer = {"Authorization": "Bearer " + token}
    code, _, body = http(url + "/api/cmd", "POST", b'{"cmd":"ping"}', dict(json_headers, **bearer))
    if code != 200 or not json.loads(body)["ok"]:
        fail(f"a bearer token's ping answered {code} {body!r}")
    viewer = websocket.create_connection(url.replace("http://", "ws://") + "/api/live", timeout=5, header=bearer)
    message = viewer.recv()
    viewer.close()
    if not isinstance(message, bytes) or message[:4] != b"SGF1":
        fail("the live WebSocket's first message is not an SGF1 frame")
    ok("with the bearer token: ping answered, live frames come")

    form = b"cmd=set-text&text=hacked"
    code, _, _ = http(url + "/api/cmd", "POST", form,
                      dict(bearer, **{"Content-Type": "application/x-www-form-urlencoded",
                                      "Origin": "http://shop-offers.example"}))
    if code != 403:
        fail(f"a cross-site form post answered {code}, not 403")
    code, _, _ = http(url + "/api/cmd", "POST", form,
                      dict(bearer, **{"Content-Type": "application/x-www-form-urlencoded"}))
    if code != 415:
        fail(f"a form post answered {code}, not 415")
    code, _, _ = http(url + "/api/cmd", "POST", b"x" * (64 * 1024 + 1), dict(json_headers, **bearer))
    if code != 413:
        fail(f"a body over 64 KiB answered {code}, not 413")
    if status(url, token)["text"] == "hacked":
        fail("a refused form post changed the text")
    ok("a cross-site form post is refused (403), a form post of any kind too (415), 64 KiB + 1 is 413")

    code, _, _ = http(url + "/api/status", headers={"Authorization": "bearer " + token})
    if code != 200:
        fail(f"the scheme in lower case (bearer) answered {code}, not 200")
    ok("the scheme is matched in any case: bearer works")

    codes = [http(url + "/api/login", "POST", json.dumps({"token": f"wrong-{i}"}).encode(), json_headers)[0]
             for i in range(6)]
    if codes[:5] != [401] * 5 or codes[5] != 429:
        fail(f"six wrong logins answered {codes}, not five 401s and a 429")
    code, _, _ = http(url + "/api/status", headers=bearer)
    if code != 429:
        fail(f"a bearer token from the address that guessed wrong answered {code}, not 429 (unchecked)")
    ok("the sixth wrong login within a minute is answered 429, and so is that address's bearer token")
    # Another address (127/8 is all loopback) is never held back by those guesses.
    from http.client import HTTPConnection
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    conn = HTTPConnection(parts.hostname, parts.port, timeout=5, source_address=("127.81.0.1", 0))
    conn.request("POST", "/api/login", json.dumps({"token": token}), json_headers)
    code = conn.getresponse().status
    conn.close()
    if code != 200:
        fail(f"the right token from another address answered {code} after one address guessed wrong")
    ok("the right token from another address logs in at once")


def check_slowloris(args):
    import selectors
    from http.client import HTTPConnection
    import socket
    from urllib.parse import urlsplit

    token = open(args.token_file).read().strip()
    host, port = urlsplit(args.url).hostname, urlsplit(args.url).port
    # Each client its own loopback address (Linux routes all of 127/8 to lo); the owner one
    # more. Derived from the server's, so concurrent tests do not share them.
    a, b = host.split(".")[2:4]
    if not 1 <= args.addresses <= 254:
        fail("--addresses: 1 to 254")
    sources = [f"127.79.{a}.{i + 1}" for i in range(args.addresses)]
    owner = f"127.80.{a}.{b}"
    head = f"GET /api/status HTTP/1.1\r\nHost: {host}:{port}\r\nX-Trickle: ".encode() + b"a" * 4096
    selector = selectors.DefaultSelector()
    lifetimes, refused, opened, again = [], 0, 0, []

    def connect(i):
        nonlocal opened
        sock = socket.create_connection((host, port), timeout=2, source_address=(sources[i % len(sources)], 0))
        sock.setblocking(False)
        opened += 1
        selector.register(sock, selectors.EVENT_READ, {"i": i, "opened": time.monotonic(), "sent": 0})

    for i in range(args.connections):
        connect(i)
    codes, latencies = [], []
    end = time.monotonic() + args.seconds
    cookie = None
    while time.monotonic() < end:
        tick = time.monotonic()
        # Those signd closed come back (at most once a second each: the run stays bounded).
        for i in again:
            try:
                connect(i)
            except OSError:
                pass
        again.clear()
        # One byte from every trickler still open.
        for key in list(selector.get_map().values()):
            state = key.data
            try:
                key.fileobj.send(head[state["sent"]:state["sent"] + 1])
                state["sent"] += 1
            except OSError:
                pass
        # The owner: the bearer token, and (once logged in) the cookie.
        for how in ("bearer", "cookie"):
            started = time.monotonic()
            try:
                conn = HTTPConnection(host, port, timeout=5, source_address=(owner, 0))
                if how == "cookie" and cookie is None:
                    conn.request("POST", "/api/login", json.dumps({"token": token}),
                                 {"Content-Type": "application/json"})
                    response = conn.getresponse()
                    response.read()
                    cookie = (response.getheader("Set-Cookie") or "").split(";")[0] or None
                    conn.close()
                    conn = HTTPConnection(host, port, timeout=5, source_address=(owner, 0))
                headers = {"Authorization": "Bearer " + token} if how == "bearer" else {"Cookie": cookie or ""}
                conn.request("GET", "/api/status", headers=headers)
                response = conn.getresponse()
                response.read()
                code = response.status
                conn.close()
            except OSError as error:
                code = f"{type(error).__name__}"
            codes.append(code)
            latencies.append(time.monotonic() - started)
        # What signd did to the tricklers: closed (reconnect at once, as slowloris does) or
        # answered (503: refused).
        while True:
            remaining = 1.0 - (time.monotonic() - tick)
            if remaining <= 0:
                break
            for key, _ in selector.select(timeout=remaining):
                state = key.data
                try:
                    data = key.fileobj.recv(4096)
                except OSError:
                    data = b""
                if data.startswith(b"HTTP/1.1 503"):
                    refused += 1
                lifetimes.append(time.monotonic() - state["opened"])
                selector.unregister(key.fileobj)
                key.fileobj.close()
                again.append(state["i"])
    held = sorted(time.monotonic() - key.data["opened"] for key in selector.get_map().values())
    for key in list(selector.get_map().values()):
        key.fileobj.close()
    longest = max(lifetimes + held, default=0)
    print(f"tricklers: {args.connections} from {len(sources)} addresses for {args.seconds} s: {opened} connections "
          f"opened, {len(lifetimes)} closed by signd ({refused} of them answered 503), {len(held)} open at the end; "
          f"longest held {longest:.1f} s", flush=True)
    print(f"owner: {len(codes)} requests, answers {sorted(set(map(str, codes)))}, latency max "
          f"{max(latencies) * 1000:.0f} ms, median {sorted(latencies)[len(latencies) // 2] * 1000:.0f} ms", flush=True)
    if any(code != 200 for code in codes):
        fail(f"the owner was turned away while others trickled: {codes}")
    ok("the owner's token and cookie were answered 200 every time")
    if longest > args.head_limit:
        fail(f"a trickling connection was held {longest:.1f} s, past the head's limit ({args.head_limit} s)")
    ok(f"no trickling connection was held past {args.head_limit} s")


def check_metrics(args):
    """GET /metrics as Prometheus reads it: refused without the token, parsed by
    prometheus_client's own parser, every family with HELP and TYPE, and each value agreeing
    with the status read just before (counters no lower, states and labels the same)."""
    from prometheus_client.parser import text_string_to_metric_families

    token = open(args.token_file).read().strip()
    code, _, _ = http(args.url + "/metrics")
    if code != 401:
        fail(f"GET /metrics without the token answered {code}, not 401")
    ok("/metrics without the token: 401, as /api/status")
    said = status(args.url, token)
    code, headers, body = http(args.url + "/metrics", headers={"Authorization": "bearer " + token})
    if code != 200 or not headers.get("Content-Type", "").startswith("text/plain; version=0.0.4"):
        fail(f"GET /metrics answered {code} {headers.get('Content-Type')}")
    text = body.decode()
    for family in {line.split()[2] for line in text.splitlines() if line.startswith("# TYPE ")}:
        if f"# HELP {family} " not in text:
            fail(f"{family} has no HELP line")
    families = {f.name: f for f in text_string_to_metric_families(text)}
    samples = {}
    for family in families.values():
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value

    def value(name, **labels):
        key = (name, tuple(sorted(labels.items())))
        if key not in samples:
            fail(f"no sample {name}{labels}")
        return samples[key]

    if families["signd_frames"].type != "counter" or families["signd_frame_lateness_seconds"].type != "histogram":
        fail("frames is not a counter, or lateness not a histogram")
    if value("signd_build_info", version=said["version"], commit=said["commit"]) != 1:
        fail("signd_build_info does not name status's version and commit")
    if not said["frames"] <= value("signd_frames_total") <= said["frames"] + 120:
        fail(f"signd_frames_total {value('signd_frames_total')} against status's {said['frames']}")
    if value("signd_frames_dropped_total") < said["dropped"]:
        fail("signd_frames_dropped_total is lower than status's dropped")
    buckets = sorted((float(s.labels["le"]), s.value) for s in families["signd_frame_lateness_seconds"].samples
                     if s.name.endswith("_bucket"))
    if any(b[1] > a[1] for a, b in zip(buckets[1:], buckets)) or buckets[-1][1] != value(
            "signd_frame_lateness_seconds_count"):
        fail(f"the lateness buckets do not rise to the count: {buckets}")
    if value("signd_frame_lateness_seconds_count") < said["frames"]:
        fail("fewer frames in the lateness histogram than status has shown")
    for output in said["outputs"]:
        labels = {"output": output["name"], "type": output["type"]}
        if value("signd_output_up", **labels) != (1 if output["state"] == "ok" else 0):
            fail(f"signd_output_up for {labels} disagrees with state {output['state']}")
        if value("signd_output_state", state=output["state"], **labels) != 1:
            fail(f"signd_output_state for {labels} is not 1 at {output['state']}")
        if "frames_sent" in output and value("signd_output_frames_total", **labels) < output["frames_sent"]:
            fail(f"signd_output_frames_total for {labels} is lower than status's")
    if value("signd_display_on") != (0 if said["display"] == "off" else 1):
        fail("signd_display_on disagrees with status")
    if abs(value("signd_brightness") - said["brightness"]) > 1e-9:
        fail("signd_brightness disagrees with status")
    if value("signd_notifications_queued") != said["queued"]:
        fail("signd_notifications_queued disagrees with status")
    if abs(value("signd_resident_memory_bytes") / 1048576 - said["memory"]["rss_mb"]) > 8:
        fail("signd_resident_memory_bytes is far from status's rss_mb")
    if said.get("web") and value("signd_web_viewers") != said["web"]["viewers"]:
        fail("signd_web_viewers disagrees with status")
    ok(f"/metrics parsed by prometheus_client: {len(families)} families, {len(samples)} samples, agreeing with status")


def main():
    # A test runner may start this with SIGTERM blocked; chromium and its driver inherit the
    # mask, and must stop when asked to.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    page = sub.add_parser("page")
    page.add_argument("url")
    page.add_argument("--shm", required=True)
    page.add_argument("--screenshots")
    page.add_argument("--playlists")
    for name in ("login", "refusals", "slowloris", "metrics"):
        p = sub.add_parser(name)
        p.add_argument("url")
        p.add_argument("--token-file", required=True)
        if name == "slowloris":
            p.add_argument("--connections", type=int, default=70)
            p.add_argument("--addresses", type=int, default=14)
            p.add_argument("--seconds", type=float, default=12)
            p.add_argument("--head-limit", type=float, default=7, help="longest a trickler may be held (s)")
    args = ap.parse_args()
    args.url = args.url.rstrip("/")
    {"page": check_page, "login": check_login, "refusals": check_refusals,
     "slowloris": check_slowloris, "metrics": check_metrics}[args.what](args)


if __name__ == "__main__":
    main()

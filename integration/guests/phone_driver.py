#!/usr/bin/env python3
"""A phone on the lab LAN: runs INSIDE a host's network namespace (`nsenter -t ANCHOR -m -n python3
phone_driver.py --dir DIR --name NAME`) and does what the suite asks, one JSON line in, one JSON line
out, on stdin and stdout. Every answer is `{"ok": true, ...}` or `{"ok": false, "error": "..."}`.

Two kinds of work, both from the namespace it runs in (so only what the LAN offers is reachable):
  - a headless Chromium under chromedriver, with mobile emulation (390×844, touch on): `start`, `get`,
    `js`, `wait`, `keys`, `tap`, `swipe`, `screenshot`, `refresh`, `console`, `cookies`;
  - plain HTTP with http.client, byte for byte as asked (no path normalisation): `http`, `connect`.

chromedriver gets PR_SET_PDEATHSIG and Chromium is started through `setpriv --pdeathsig KILL`, so the
browser dies with this process; the suite also kills whatever is left in the namespace at the end.
"""
import argparse
import base64
import ctypes
import http.client
import json
import os
import shutil
import signal
import socket
import sys
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "web"))
from web_support import CHROMIUM_FLAGS as PAGE_FLAGS  # noqa: E402

# The page tests' flags, less their loopback-only resolver rule (a phone reaches the LAN; set per start).
CHROMIUM_FLAGS = [flag for flag in PAGE_FLAGS if not flag.startswith("--host-resolver-rules=")]
PHONE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/120.0.0.0 Mobile Safari/537.36")

_prctl = ctypes.CDLL(None, use_errno=True).prctl


def _die_with_parent():
    _prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG


class Phone:
    def __init__(self, work, name):
        self.work, self.name = work, name
        self.driver = None
        self.service = None

    # MARK: the browser

    def start(self, width=390, height=844, touch=True, reach=(), mobile=True):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        os.environ["SE_OFFLINE"] = "true"  # Selenium Manager never looks anything up online
        chromium, chromedriver = shutil.which("chromium"), shutil.which("chromedriver")
        options = webdriver.ChromeOptions()
        setpriv = shutil.which("setpriv")
        if setpriv:
            launcher = os.path.join(self.work, f"chromium-launcher-{self.name}")
            with open(launcher, "w") as f:
                f.write(f'#!/bin/sh\nexec {setpriv} --pdeathsig KILL {chromium} "$@"\n')
            os.chmod(launcher, 0o755)
            options.binary_location = launcher
        else:
            options.binary_location = chromium
        # Nothing resolves but the addresses the suite names: posters on image.tmdb.org fail at once.
        rules = "MAP * ~NOTFOUND" + "".join(f", EXCLUDE {a}" for a in ["127.0.0.1", "localhost", *reach])
        flags = CHROMIUM_FLAGS + [f"--host-resolver-rules={rules}",
                                  f"--user-data-dir={os.path.join(self.work, f'chromium-{self.name}')}",
                                  f"--window-size={width},{height}"]
        if os.geteuid() == 0:
            flags.append("--no-sandbox")
        if not os.access("/dev/shm", os.W_OK):
            flags.append("--disable-dev-shm-usage")
        for flag in flags:
            options.add_argument(flag)
        if mobile:
            options.add_experimental_option("mobileEmulation", {
                "deviceMetrics": {"width": width, "height": height, "pixelRatio": 3.0, "touch": touch},
                "userAgent": PHONE_UA})
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.service = Service(chromedriver, log_output=os.path.join(self.work, f"chromedriver-{self.name}.log"),
                               popen_kw={"start_new_session": True, "preexec_fn": _die_with_parent})
        self.driver = webdriver.Chrome(options=options, service=self.service)
        self.driver.set_script_timeout(60)
        self.driver.set_page_load_timeout(30)
        info = self.driver.execute_script(
            "return {w: window.innerWidth, h: window.innerHeight, touch: 'ontouchstart' in window,"
            " points: navigator.maxTouchPoints, ua: navigator.userAgent}")
        return {"version": self.driver.capabilities.get("browserVersion", "?"), "viewport": info}

    def get(self, url):
        self.driver.get(url)
        return {"url": self.driver.current_url}

    def refresh(self):
        self.driver.refresh()
        return {"url": self.driver.current_url}

    def js(self, script, args=()):
        return {"value": self.driver.execute_script(script, *args)}

    def wait(self, script, args=(), timeout=10.0, interval=0.05):
        """Runs `script` until it returns something truthy; its value, or a timeout."""
        deadline = time.monotonic() + timeout
        last_error = None
        while True:
            try:
                value = self.driver.execute_script(script, *args)
                if value:
                    return {"value": value}
                last_error = None
            except Exception as error:  # the page may be between documents
                last_error = str(error).splitlines()[0] if str(error) else repr(error)
            if time.monotonic() >= deadline:
                raise TimeoutError(f"not within {timeout:g} s" + (f" (last error: {last_error})" if last_error else ""))
            time.sleep(interval)

    def keys(self, keys):
        """Keys typed into whatever has the focus: names of selenium's Keys (TAB, ENTER, ARROW_RIGHT)
        or `text:...` for text."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        chain = ActionChains(self.driver)
        for key in keys:
            chain.send_keys(key[5:] if key.startswith("text:") else getattr(Keys, key))
        chain.perform()
        return {"active": self.driver.execute_script(
            "const e = document.activeElement; return e ? e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') : null")}

    def _middle(self, selector):
        self.driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", selector)
        return self.driver.execute_script(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height]", selector)

    def _touch(self, kind, points):
        self.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def _watch_pointers(self):
        self.driver.execute_script(
            "window.__pointers = []; document.addEventListener('pointerdown', e => __pointers.push(e.pointerType),"
            " {capture: true, once: true});")

    def tap(self, selector):
        """A finger's tap (CDP touch events) at the middle of `selector`; the pointer type the page saw."""
        self._watch_pointers()
        x, y, _, _ = self._middle(selector)
        point = {"x": x, "y": y, "radiusX": 4, "radiusY": 4, "force": 1, "id": 0}
        self._touch("touchStart", [point])
        self._touch("touchEnd", [])
        return {"pointer": self.driver.execute_script("return window.__pointers[0] || null"), "at": [x, y]}

    def swipe(self, selector, dx, steps=12):
        """A finger drag from the middle of `selector`, `dx` px sideways, in `steps` moves; the finger
        rests a moment before it lifts, so the drag ends without speed. (A drag that ends moving
        starts a fling, and Chromium takes a tap during a fling as "stop the fling", not a click.)"""
        self._watch_pointers()
        x, y, _, _ = self._middle(selector)
        point = lambda at: {"x": at, "y": y, "radiusX": 4, "radiusY": 4, "force": 1, "id": 0}  # noqa: E731
        self._touch("touchStart", [point(x)])
        for step in range(1, steps + 1):
            self._touch("touchMove", [point(x + dx * step / steps)])
            time.sleep(0.01)
        time.sleep(0.15)
        self._touch("touchMove", [point(x + dx)])
        time.sleep(0.15)
        self._touch("touchEnd", [])
        return {"pointer": self.driver.execute_script("return window.__pointers[0] || null"), "from": [x, y]}

    def screenshot(self, selector=None):
        """A PNG (base64) of `selector`'s element, or of the viewport."""
        if selector:
            element = self.driver.find_element("css selector", selector)
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            png = element.screenshot_as_png
        else:
            png = self.driver.get_screenshot_as_png()
        return {"png": base64.b64encode(png).decode()}

    def console(self):
        return {"entries": self.driver.get_log("browser")}

    def cookies(self):
        return {"cookies": self.driver.get_cookies()}

    def quit(self):
        if self.driver is not None:
            try:
                self.driver.quit()
            except Exception:  # the process group dies with us anyway
                pass
            self.driver = None
        return {}

    # MARK: plain HTTP and TCP

    @staticmethod
    def http(host, port, method, path, headers=None, body=None, timeout=10.0, read_limit=65536, skip_host=True):
        """One request on a fresh connection, sent as given (headers exactly these: no Host unless
        named). The answer's status, headers (lower-case names) and up to `read_limit` bytes of body."""
        conn = http.client.HTTPConnection(host, port, timeout=timeout)
        try:
            conn.putrequest(method, path, skip_host=skip_host, skip_accept_encoding=True)
            data = None
            if body is not None:
                data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            sent = dict(headers or {})
            if data is not None and not any(k.lower() == "content-length" for k in sent):
                sent["Content-Length"] = str(len(data))
            for name, value in sent.items():
                conn.putheader(name, value)
            conn.endheaders()
            if data is not None:
                conn.send(data)
            response = conn.getresponse()
            if (response.getheader("content-type") or "").startswith("text/event-stream"):
                raw = response.read1(4096) if hasattr(response, "read1") else b""
            else:
                raw = response.read(read_limit)
            return {"status": response.status, "headers": {k.lower(): v for k, v in response.getheaders()},
                    "body": raw.decode(errors="replace")}
        except (OSError, http.client.HTTPException) as error:
            return {"status": None, "error": f"{type(error).__name__}: {error}"}
        finally:
            conn.close()

    @staticmethod
    def connect(host, port, timeout=5.0):
        """What a TCP connect to host:port gets: connected, refused, or another error."""
        try:
            with socket.create_connection((host, port), timeout=timeout):
                return {"result": "connected"}
        except ConnectionRefusedError:
            return {"result": "refused"}
        except OSError as error:
            return {"result": f"{type(error).__name__}: {error}"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", required=True, help="where Chromium's profile and chromedriver's log go")
    parser.add_argument("--name", required=True)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    phone = Phone(args.dir, args.name)
    out = sys.stdout
    print(json.dumps({"ok": True, "ready": True, "pid": os.getpid()}), file=out, flush=True)
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            op = None
            try:
                request = json.loads(line)
                op = request.pop("op")
                if op == "http":
                    answer = Phone.http(**request)
                elif op == "connect":
                    answer = Phone.connect(**request)
                elif op in ("start", "get", "refresh", "js", "wait", "keys", "tap", "swipe", "screenshot",
                            "console", "cookies", "quit"):
                    if op != "start" and op != "quit" and phone.driver is None:
                        raise RuntimeError("the browser is not started")
                    answer = getattr(phone, op)(**request)
                else:
                    raise ValueError(f"unknown op {op!r}")
                reply = {"ok": True, **answer}
            except Exception as error:  # every failure goes back to the suite as an answer
                first = (str(error) or repr(error)).strip().splitlines()
                reply = {"ok": False, "error": f"{type(error).__name__}: {first[0] if first else ''}",
                         "trace": traceback.format_exc()[-2000:]}
            print(json.dumps(reply), file=out, flush=True)
            if op == "quit":
                break
    finally:
        phone.quit()


if __name__ == "__main__":
    main()

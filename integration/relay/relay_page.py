"""The member's page in a real Chromium inside a house (the guests lab's phone driver, run in that
host's namespaces): what its peers panel says of the path a session takes. peerd's page is on the
host's loopback, so the browser runs beside the daemon, as the person at that machine would.

Skipped with its own line when Selenium or Chromium is missing (`make test-deps` installs both)."""
import pathlib
import sys

INTEGRATION = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(INTEGRATION / "guests"))
sys.path.insert(0, str(INTEGRATION / "web"))
import guest_lab as gl  # noqa: E402
from harness import CheckFailed  # noqa: E402
from web_support import PEER_ROW  # noqa: E402


class HousePage:
    """`host`'s member page in a desktop-sized Chromium, opened with `peerctl open --no-browser`."""

    def __init__(self, host):
        self.host = host
        self.browser = None

    @staticmethod
    def missing():
        """Why no browser can run here, or None."""
        return gl.missing_tools()

    def open(self):
        if self.browser is None:
            self.browser = gl.Phone(self.host, f"{self.host.name}-page").start()
            self.browser.start_browser(size=(1280, 900), mobile=False)
        opened = self.host.peerctl("open", "--no-browser")
        url = opened.stdout.strip()
        if opened.returncode != 0 or not url.startswith(f"http://127.0.0.1:{gl.WEB_PORT}/"):
            raise CheckFailed(f"peerctl open --no-browser on {self.host.name}: exit {opened.returncode}: {url} "
                              f"{opened.stderr.strip()}")
        self.browser.get(url)
        self.browser.wait("return document.body && document.body.dataset.ready === 'true'",
                          f"{self.host.name}'s page ready")
        return self

    def peer_path(self, peer_id, starts, what):
        """Waits until the peers panel shows `peer_id` connected with a path line starting `starts`
        (the page asks for peers every 5 s); [name, state, path] as shown."""
        try:
            row = self.browser.wait(f"const r = (() => {{ {PEER_ROW} }})();"
                                    "return r && /connected/i.test(r[1]) && r[2].trim().startsWith(arguments[1]) && r",
                                    what, peer_id, starts)
        except CheckFailed as failure:
            shown = self.browser.js(PEER_ROW, peer_id)
            raise CheckFailed(f"{failure}\nul#peers shows {peer_id[:8]}… as {shown}") from None
        return [part.strip() for part in row]

    def stop(self):
        if self.browser is not None:
            self.browser.stop()
            self.browser = None

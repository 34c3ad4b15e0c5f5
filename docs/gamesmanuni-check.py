#!/usr/bin/env python3
"""By-hand check, never run by CI: plays one game in a GamesmanUni build
pointed at `topitop serve`, by clicking its board's move buttons in
headless Chromium, and fails on a button drawn 0x0, a button without a
value colour, or a hitbox dot drawn as a piece. See docs/gamesmanuni.md.

It talks only to a chromedriver already running on this machine
($WEBDRIVER, default http://127.0.0.1:9515) and, through the browser, to
the GamesmanUni build and the server; it fetches nothing. Python's
standard library only.

    python3 gamesmanuni-check.py UNI_URL GAME VARIANT MAX_MOVES TAG [BLUNDER_FROM]

UNI_URL is GamesmanUni's base (http://127.0.0.1:4190/uni). Moves follow
the value colours (a win before a tie before a draw before a loss, the
quickest win, the slowest loss); from ply BLUNDER_FROM on, a player with
no winning move takes its quickest loss, so that a drawn game still ends.
Screenshots go to ./shots/TAG-*.png.
"""
import base64, json, os, re, sys, time, urllib.error, urllib.request

DRIVER = os.environ.get("WEBDRIVER", "http://127.0.0.1:9515")
VALUES = ["win", "tie", "draw", "lose"]
# Move buttons of every kind GamesmanUni's image AutoGUI draws.
BUTTONS = """
const svg = document.querySelector('#image-autogui');
if (!svg) return [];
return [...svg.querySelectorAll('.iag-button-point, .iag-button-arrow, .iag-button-line')].map(e => {
  const r = e.getBoundingClientRect(), t = e.querySelector('title');
  return {el: e, tag: e.tagName, cls: e.getAttribute('class') || '', w: r.width, h: r.height,
          fill: getComputedStyle(e).fill, title: t ? t.textContent : ''};
});"""
PIECES = "return [...document.querySelectorAll('#image-autogui image.entity')].map(e => e.getAttribute('href'));"
BOARD = ("const s = document.querySelector('#image-autogui'); return s ? [...s.querySelectorAll('image.entity')]"
         ".map(e => e.getAttribute('href') + e.getAttribute('x') + e.getAttribute('y')).join() + s.childElementCount : '';")


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    r = urllib.request.Request(DRIVER + path, data=data, method=method,
                               headers={"Content-Type": "application/json"})
    try:
        return json.load(urllib.request.urlopen(r))["value"]
    except urllib.error.HTTPError as e:
        return json.load(e)["value"]


class Browser:
    def __init__(self):
        args = ["--headless=new", "--no-sandbox", "--window-size=1280,900", "--disable-gpu"]
        caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"args": args}}}}
        self.id = call("POST", "/session", caps)["sessionId"]

    def open(self, url):
        call("POST", f"/session/{self.id}/url", {"url": url})

    def run(self, script):
        return call("POST", f"/session/{self.id}/execute/sync", {"script": script, "args": []})

    def click(self, element):
        """A real click: WebDriver refuses an element of no size or under another."""
        return call("POST", f"/session/{self.id}/element/{next(iter(element.values()))}/click", {})

    def until(self, script, seconds=180):
        end = time.time() + seconds
        while time.time() < end:
            if self.run(script):
                return
            time.sleep(0.2)
        raise SystemExit("timed out waiting for: " + script)

    def shot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(call("GET", f"/session/{self.id}/screenshot")))

    def close(self):
        call("DELETE", f"/session/{self.id}")


def value(button):
    return next((v for v in VALUES if "hint-" + v in button["cls"]), None)


def preference(button, blunder):
    v = value(button)
    n = re.search(r" in (\d+)", button["title"])
    n = int(n.group(1)) if n else 0
    if blunder and v == "lose":
        return (-1, n)
    return (VALUES.index(v), n if v in ("win", "tie") else -n)


def main():
    if len(sys.argv) < 6:
        raise SystemExit(__doc__)
    uni, game, variant, limit, tag = sys.argv[1:6]
    blunder_from = int(sys.argv[6]) if len(sys.argv) > 6 else 10**9
    os.makedirs("shots", exist_ok=True)
    b = Browser()
    try:
        b.open(f"{uni}/games/{game}/variants/{variant}")
        b.until("return document.querySelector('#image-autogui .iag-button-point, #image-autogui .iag-button-arrow')")
        time.sleep(1)
        b.shot(f"shots/{tag}-start.png")
        ply = 0
        while True:
            buttons, pieces = b.run(BUTTONS), b.run(PIECES)
            empty = [x for x in buttons if x["w"] < 1 or x["h"] < 1]
            grey = [x for x in buttons if value(x) is None]
            dots = [p for p in pieces if "basichitbox" in p]
            sizes = sorted({(round(x["w"]), round(x["h"])) for x in buttons})
            print(f"{tag} ply {ply}: {len(buttons)} buttons, sizes {sizes}, fills {sorted({x['fill'] for x in buttons})}, "
                  f"0x0 {len(empty)}, no value {len(grey)}, pieces {len(pieces)}, dots {len(dots)}", flush=True)
            if empty or grey or dots:
                b.shot(f"shots/{tag}-fail.png")
                raise SystemExit(f"FAIL: {empty[:1]} {grey[:1]} {dots[:1]}")
            if not buttons or ply >= int(limit):
                break
            wins = any(value(x) == "win" for x in buttons)
            before = b.run(BOARD)
            for choice in sorted(buttons, key=lambda x: preference(x, not wins and ply >= blunder_from)):
                refused = b.click(choice["el"])
                if not refused:
                    break
                # Uni draws some arrows across others (Topitop's crossing
                # diagonal slides); another button of the same value will do.
                print(f"   {choice['title']!r} is under another button; next", flush=True)
            else:
                raise SystemExit("no button could be clicked")
            ply += 1
            print(f"   clicked {choice['title']!r} ({choice['tag']})", flush=True)
            b.until(f"return (() => {{ {BOARD} }})() !== {json.dumps(before)}")
            # A board answered by search takes a while; Uni says Loading.
            b.until("return !document.body.innerText.includes('Loading...')")
            time.sleep(1.5)  # the move's animation, then the next buttons
            if ply <= 2:
                b.shot(f"shots/{tag}-ply{ply}.png")
        b.shot(f"shots/{tag}-end.png")
        said = re.findall(r"Player \d (?:has|should) [^\n]*", b.run("return document.body.innerText"))
        print(f"{tag}: {ply} moves clicked; GamesmanUni says {said[:1]}")
    finally:
        b.close()


main()
